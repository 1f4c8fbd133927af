package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

// Records is the Redis store.Records, on a Store's client and prefix (the
// store's Records). Keys (P is the prefix):
//
//	P record:{<room>}                string: the encoded record, expiring (PX retention)
//	P player:<id>:records            sorted set: room ids by end time (ms), trimmed to
//	                                 store.MaxPlayerRecords, expiring with the newest record
//	P player:<id>:records:public     sorted set: the same for the games that were not private
//
// The record's key has the room's hash tag, so the Store's save script
// writes it with the room that finishes the game (SaveRoom). The indexes
// are in other slots: they are written in the save's pipeline after the
// script, as the room indexes are, or by PutRecord's (the record first,
// then the indexes, so that an index never names a record that was not
// written; a record whose index write was lost is still found by its room
// id, and the next write of it repairs the index).
type Records struct {
	c         redis.UniversalClient
	prefix    string
	retention time.Duration
	now       func() time.Time
	// owe queues the mark of a rated game's room as owed (Store.owe).
	owe func(ctx context.Context, p redis.Pipeliner, room string)
}

var _ store.Records = (*Records)(nil)

// WithRecordRetention sets how long a game's record is kept after its last
// write; default store.DefaultRecordRetention.
func WithRecordRetention(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.recordRetention = d
		}
	}
}

// Records implements store.Store: the records store on s's client (closed
// with s), which s's saves write to. It is a *Records.
func (s *Store) Records() store.Records { return s.records }

// RecordKey is the key of a room's record, in the same slot as RoomKey.
func (r *Records) RecordKey(room string) string { return r.prefix + "record:{" + room + "}" }

// RecordKey is the key of a room's record (Records.RecordKey).
func (s *Store) RecordKey(room string) string { return s.records.RecordKey(room) }

// PlayerRecordsKey is the key of a player's index of games.
func (r *Records) PlayerRecordsKey(player string) string {
	return r.prefix + "player:" + player + ":records"
}

// PublicRecordsKey is the key of a player's index of the games that were
// not private.
func (r *Records) PublicRecordsKey(player string) string {
	return r.PlayerRecordsKey(player) + ":public"
}

// PutRecord implements store.Records.
func (r *Records) PutRecord(ctx context.Context, e store.RecordEntry) error {
	if e.Room == "" || len(e.Data) == 0 {
		return fmt.Errorf("put record: room id and data are required")
	}
	_, err := r.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, r.RecordKey(e.Room), e.Data, r.retention)
		if e.Rated && r.owe != nil {
			r.owe(ctx, p, e.Room)
		}
		r.index(ctx, p, e)
		return nil
	})
	if err != nil {
		return fmt.Errorf("put record %s: %w", e.Room, err)
	}
	return nil
}

// index queues on p the index updates of a record's write: each player's
// index and, for a game that was not private, public index, trimmed to
// store.MaxPlayerRecords and the retention, expiring with the record.
func (r *Records) index(ctx context.Context, p redis.Pipeliner, e store.RecordEntry) {
	ended := e.Ended.UnixMilli()
	oldest := "(" + strconv.FormatInt(r.now().Add(-r.retention).UnixMilli(), 10)
	for _, id := range e.Players {
		keys := []string{r.PlayerRecordsKey(id)}
		if !e.Private {
			keys = append(keys, r.PublicRecordsKey(id))
		}
		for _, k := range keys {
			p.ZAdd(ctx, k, redis.Z{Score: float64(ended), Member: e.Room})
			p.ZRemRangeByRank(ctx, k, 0, -int64(store.MaxPlayerRecords)-1)
			p.ZRemRangeByScore(ctx, k, "-inf", oldest)
			p.PExpire(ctx, k, r.retention)
		}
	}
}

// Record implements store.Records.
func (r *Records) Record(ctx context.Context, room string) ([]byte, error) {
	b, err := r.c.Get(ctx, r.RecordKey(room)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("record %s: %w", room, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", room, err)
	}
	return b, nil
}

// PlayerRecords implements store.Records. Games whose record has expired
// are left out (an index entry may outlive its record by less than the
// time between two of the player's games).
func (r *Records) PlayerRecords(ctx context.Context, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	return r.list(ctx, r.PlayerRecordsKey(player), player, before, limit)
}

// PublicRecords implements store.Records, as PlayerRecords on the public
// index.
func (r *Records) PublicRecords(ctx context.Context, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	return r.list(ctx, r.PublicRecordsKey(player), player, before, limit)
}

// list reads the index at key, of player's games.
func (r *Records) list(ctx context.Context, key, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	if limit <= 0 {
		return nil, nil
	}
	max := "+inf"
	if !before.IsZero() {
		max = "(" + strconv.FormatInt(before.UnixMilli(), 10)
	}
	min := "(" + strconv.FormatInt(r.now().Add(-r.retention).UnixMilli(), 10)
	zs, err := r.c.ZRevRangeByScoreWithScores(ctx, key, &redis.ZRangeBy{
		Max: max, Min: min, Count: int64(limit)}).Result()
	if err != nil {
		return nil, fmt.Errorf("records of player %s: %w", player, err)
	}
	out := make([]store.RecordRef, 0, len(zs))
	for _, z := range zs {
		id, _ := z.Member.(string)
		out = append(out, store.RecordRef{Room: id, Ended: time.UnixMilli(int64(z.Score)).UTC()})
	}
	return out, nil
}

var _ store.RecordAnalyses = (*Records)(nil)

// AnalysisKey is the key of a room's game analysis: P record:{<room>}:analysis,
// a string expiring with the retention from its write.
func (r *Records) AnalysisKey(room string) string { return r.RecordKey(room) + ":analysis" }

// PutAnalysis implements store.RecordAnalyses.
func (r *Records) PutAnalysis(ctx context.Context, room string, data []byte) error {
	if err := r.c.Set(ctx, r.AnalysisKey(room), data, r.retention).Err(); err != nil {
		return fmt.Errorf("put analysis %s: %w", room, err)
	}
	return nil
}

// Analysis implements store.RecordAnalyses.
func (r *Records) Analysis(ctx context.Context, room string) ([]byte, error) {
	b, err := r.c.Get(ctx, r.AnalysisKey(room)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("analysis %s: %w", room, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("analysis %s: %w", room, err)
	}
	return b, nil
}
