package store

import (
	"context"
	"time"
)

// The records store keeps the record of every finished game apart from the
// live room (issue 16): a room's snapshot expires after the store's
// retention, a record after its own, much longer one. A record is the bytes
// of records.Encode; the store never interprets them. A game's record is
// written by the save that finishes it (Room.Record, Store.SaveRoom), so
// that a game whose end was saved is never missing from its players'
// games; PutRecord writes one again (a record a store of an older version
// left unwritten).

// Defaults of the records store.
const (
	// DefaultRecordRetention is how long a game's record is kept after it
	// was last written: a year, against a week for the finished room.
	DefaultRecordRetention = 365 * 24 * time.Hour
	// MaxPlayerRecords is how many games a player's index keeps, the
	// newest; older games stay readable by their room id until they
	// expire.
	MaxPlayerRecords = 1000
)

// Records keeps game records. Implementations are safe for concurrent use
// and honour ctx. Both implementations (memstore.Records,
// redisstore.Records) pass storetest.RunRecords.
type Records interface {
	// PutRecord writes (or rewrites: it is idempotent) the record of a
	// game and adds it to each of its players' index, scored by Ended. The
	// record and the indexes expire after the retention, which every
	// write starts again; an index keeps at most MaxPlayerRecords games.
	PutRecord(ctx context.Context, r RecordEntry) error
	// Record returns the bytes of the room's record, or ErrNotFound.
	Record(ctx context.Context, room string) ([]byte, error)
	// PlayerRecords returns up to limit of the player's games that ended
	// strictly before before (any time when before is zero), newest
	// first.
	PlayerRecords(ctx context.Context, player string, before time.Time, limit int) ([]RecordRef, error)
	// PublicRecords is PlayerRecords for the player's games that were not
	// private: what anyone else may list, so that nothing of a private
	// game (not even when it ended) shows in it.
	PublicRecords(ctx context.Context, player string, before time.Time, limit int) ([]RecordRef, error)
}

// RecordEntry is one write of a game's record.
type RecordEntry struct {
	// Room is the id of the room the game was played in.
	Room string
	// Data is the encoded record (records.Encode).
	Data []byte
	// Players are the ids of the people who played it (bots have none).
	Players []string
	// Ended is when the game ended: it orders the players' indexes.
	Ended time.Time
	// Private marks a game played in a private room (an invitation): it
	// is left out of the players' public indexes (PublicRecords).
	Private bool
	// Rated marks a rated game: the write that finishes it marks its room
	// owed (ratings.Store's Owe) in the same atomic step, so that a node
	// that dies before the rater applies it leaves it owed. PutRecord
	// marks it too.
	Rated bool
}

// RecordRef is one game in a player's index.
type RecordRef struct {
	// Room is the id of the game's room: its record is Record(Room).
	Room string
	// Ended is when the game ended, to the millisecond.
	Ended time.Time
}

// RecordAnalyses keeps the analysis of a game beside its record (both
// records stores implement it): bytes the server encodes, kept for the
// records' retention from their write.
type RecordAnalyses interface {
	// PutAnalysis writes (or rewrites) the analysis of the room's game.
	PutAnalysis(ctx context.Context, room string, data []byte) error
	// Analysis returns the analysis of the room's game, or ErrNotFound.
	Analysis(ctx context.Context, room string) ([]byte, error)
}
