// Package store is the persistence boundary of the service: what a room and
// the hub keep so that a restart loses nothing.
//
// Two implementations stand side by side: memstore (the default, in memory,
// nothing survives the process) and redisstore (go-redis v9, a
// UniversalClient, so one node, Sentinel and Cluster all work). Both pass the
// same conformance suite, storetest.
//
// The store never interprets a room snapshot: the rooms package encodes its
// own state and the store keeps the bytes.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/ratings"
)

// Defaults of the stores' expiry options (memstore's and redisstore's
// WithRetention, WithIdleRoomTTL and WithGuestTTL).
const (
	// DefaultRetention is how long a finished room (snapshot and log) is
	// kept after its last save.
	DefaultRetention = 7 * 24 * time.Hour
	// DefaultGuestTTL is how long a guest identity lives after its last
	// use: its hello, or a save of an unfinished room it is seated in.
	DefaultGuestTTL = 30 * 24 * time.Hour
	// DefaultIdleRoomTTL is how long an unfinished room is kept after its
	// last save: a waiting room nobody joined, an adjourned game nobody
	// came back to.
	DefaultIdleRoomTTL = 7 * 24 * time.Hour
)

// ErrNotFound is returned when a room or a player is not in the store: the
// same error as players.ErrNotFound.
var ErrNotFound = players.ErrNotFound

// ErrStaleSeq is returned by SaveRoom when the stored room is already at or
// past the seq being written: a second writer (or a replayed save) lost.
var ErrStaleSeq = errors.New("stale room seq")

// ErrOutOfMemory is wrapped by the errors of writes the store refused for
// lack of memory (a Redis at its maxmemory under noeviction), and by Ping's
// while such a refusal is recent: the store answers but cannot take moves.
var ErrOutOfMemory = errors.New("store out of memory")

// ErrLeaseHeld is returned by AcquireLease when another node holds the
// room's lease.
var ErrLeaseHeld = errors.New("room lease held by another node")

// ErrFenced is returned when a save, a renewal or a release carries an epoch
// that is no longer the room's: another node has taken the room over since,
// and the caller must stop serving it.
var ErrFenced = errors.New("room taken over by another node")

// Store keeps rooms and players (the player part is players.Store, in the
// identity package), the ratings (ratings.Store), and the records of
// finished games (Records).
// Implementations are safe for concurrent use. Every method honours ctx.
type Store interface {
	// SaveRoom writes a room's snapshot and appends its new log entries in
	// one atomic step (one round trip for Redis). It refuses with
	// ErrStaleSeq when the stored seq is not lower than r.Seq, so a save is
	// never applied twice nor out of order.
	//
	// A log-only save (r.LogOnly, no snapshot) appends its entries and
	// moves the stored seq to r.Seq, keeping the last snapshot. It extends
	// exactly the state it was made from: it is refused with ErrStaleSeq,
	// writing nothing, unless the room is stored at seq r.Prev (so nothing
	// is applied twice and no save is skipped), and it must append at least
	// one entry. Fencing (r.Epoch), TTLs and indexes are as for a snapshot
	// save. LoadRoom gives the entries that follow the last snapshot as
	// Room.Tail.
	//
	// Every save also keeps the indexes: the live-room index (r.Live) and
	// every seated player's set of unfinished rooms (added while the room
	// is unfinished, removed once it is
	// finished). A finished room expires after the store's retention time,
	// an unfinished one after its idle-room TTL: every save starts it
	// again. Each save renews the identity of every seated player (by its
	// derived id, PlayerID) for the guest TTL, which is never shorter than
	// the idle-room TTL, so a player's identity outlives every room it is
	// seated in.
	//
	// A save that carries r.Record (a snapshot save of a finished room)
	// writes that game's record into Records as part of the save: the
	// record with the room, in the same atomic step, and each of its
	// players' index entries with the save's other index updates. A save
	// that is refused (stale, fenced) writes no record; a save that lands
	// has its record, whatever happens to the caller after it.
	SaveRoom(ctx context.Context, r Room) error
	// LoadRoom returns the room as last saved, or ErrNotFound: its seq,
	// its last snapshot (SnapshotSeq is the seq of the save that wrote
	// it) and the log entries appended by the saves since that one
	// (Tail, oldest first). Tail may hold entries whose saves the room
	// rolled back (a save that landed late, docs/persistence.md): the
	// reader walks back from Seq through the entries' own prev links.
	LoadRoom(ctx context.Context, id string) (Room, error)
	// RoomLog returns the room's log entries, oldest first.
	RoomLog(ctx context.Context, id string) ([][]byte, error)
	// LiveRooms returns up to limit ids of live rooms, most recently active
	// first.
	LiveRooms(ctx context.Context, limit int) ([]string, error)

	// PlayerRooms returns the ids of the player's unfinished rooms.
	PlayerRooms(ctx context.Context, playerID string) ([]string, error)

	// The players' identities, accounts, sessions and sign-in guards.
	players.Store

	// The players' ratings, leaderboards, results, best scores and the
	// bot ladder's entrants (a save whose Record is Rated marks its room
	// owed).
	ratings.Store

	// Records is the records store the saves write finished games'
	// records to (Room.Record), the one the records API reads.
	Records() Records

	// Ping reports whether the store is reachable and takes writes (for
	// /readyz): a Redis at its memory limit answers PING but refuses every
	// move. An error wrapping ErrOutOfMemory says the store refused a
	// write, a save or the probe, for lack of memory lately.
	Ping(ctx context.Context) error
	// Close releases the store's connections.
	Close() error
}

// Room is one save of a room.
type Room struct {
	// ID is the room id.
	ID string
	// Seq is the room's seq after this save; it grows with every change.
	Seq int64
	// Snapshot is the room's complete state, encoded by the rooms package.
	// A log-only save has none; LoadRoom gives the last one written.
	Snapshot []byte
	// LogOnly makes SaveRoom append Append and move the seq without
	// writing a snapshot; Prev is then the seq the room is stored at,
	// which the save extends. Only SaveRoom reads them.
	LogOnly bool
	Prev    int64
	// Append holds the log entries (moves and other events) that this save
	// adds, in order. Only SaveRoom uses it; LoadRoom leaves it empty.
	Append [][]byte
	// SnapshotSeq is the seq of the save that wrote Snapshot, and Tail
	// the log entries appended by the saves after it, oldest first. Only
	// LoadRoom sets them.
	SnapshotSeq int64
	Tail        [][]byte
	// Players are the ids of the players seated in the room.
	Players []string
	// Live lists the room in the live-room index (public and not finished).
	Live bool
	// Finished marks a room whose game is over: it leaves its players'
	// unfinished rooms and expires after the retention time.
	Finished bool
	// UpdatedAt is the time of the save; it orders the live-room index.
	UpdatedAt time.Time
	// Record, when not nil, is the record of the game this save finishes
	// (or of the finished game it saves again: a chat line after the end).
	// Only a snapshot save of a finished room may carry one; the store
	// writes it with the save (SaveRoom).
	Record *RecordEntry
	// Epoch, when not zero, fences the save: it is refused with ErrFenced
	// unless it is the room's current lease epoch (Leases), so that a node
	// that lost the room (paused past its lease, say) can never overwrite
	// the moves of the node that took it over. Zero saves unfenced, as a
	// single node does.
	Epoch int64
}

// Leases gives each room to one node at a time, for several lobby nodes on
// one store. A lease expires unless renewed; every takeover increments the
// room's epoch, which outlives the lease, and saves carrying an older epoch
// are refused (Room.Epoch). Both stores implement it.
type Leases interface {
	// AcquireLease gives the room to node for ttl when its lease is free or
	// expired, and returns the new epoch (the previous one plus one). When
	// node already holds it, it extends it and returns the same epoch. When
	// another node holds it, it fails with ErrLeaseHeld.
	AcquireLease(ctx context.Context, room, node string, ttl time.Duration) (epoch int64, err error)
	// RenewLease extends node's lease of the room for ttl from now. It
	// fails with ErrFenced when epoch is no longer the room's (the lease
	// was taken over); an expired lease that nobody took is renewed.
	RenewLease(ctx context.Context, room, node string, epoch int64, ttl time.Duration) error
	// ReleaseLease frees the room (clean shutdown) so another node may take
	// it at once. It fails with ErrFenced when node no longer holds it at
	// epoch, and then changes nothing.
	ReleaseLease(ctx context.Context, room, node string, epoch int64) error
	// LeaseHolder returns the node holding the room's lease and its epoch,
	// or ErrNotFound when the lease is free or expired.
	LeaseHolder(ctx context.Context, room string) (node string, epoch int64, err error)
}

// CheckRecord is the check both stores make of a save's Record: only a
// snapshot save of a finished room carries one, for its own room, with
// data.
func CheckRecord(r Room) error {
	e := r.Record
	switch {
	case e == nil:
		return nil
	case r.LogOnly || len(r.Snapshot) == 0 || !r.Finished:
		return fmt.Errorf("save room %s: a record with a save that is not a finished room's snapshot", r.ID)
	case e.Room != r.ID || len(e.Data) == 0:
		return fmt.Errorf("save room %s: a record of room %q with %d bytes", r.ID, e.Room, len(e.Data))
	}
	return nil
}

// CheckLease is the argument check both stores' AcquireLease and
// RenewLease make: non-empty room and node ids and a ttl of at least a
// millisecond (the precision of the stores' expiry).
func CheckLease(room, node string, ttl time.Duration) error {
	if room == "" || node == "" {
		return fmt.Errorf("lease of room %q for node %q: empty id", room, node)
	}
	if ttl < time.Millisecond {
		return fmt.Errorf("lease of room %s: ttl %v is under a millisecond", room, ttl)
	}
	return nil
}

// Matcher is the quick-match queue shared by several lobby nodes: one queue
// per game and variant, in which a player waits until another player's
// request pairs them. Both stores implement it.
type Matcher interface {
	// Match pairs e with the entry of queue that Pick chooses (for a
	// casual request the oldest of another player; for a rated one the
	// nearest in rating whose range and e's hold each other, at the
	// store's time), removing it, and returns it with true; when there is
	// none, it queues e (once: an equal entry is replaced) and returns
	// false. One atomic step.
	Match(ctx context.Context, queue string, e MatchEntry) (MatchEntry, bool, error)
	// Unqueue removes e from queue and reports whether it was there
	// (false is not an error: another node's request took it, or it
	// left).
	Unqueue(ctx context.Context, queue string, e MatchEntry) (bool, error)
}

// MatchEntry is one waiting quick-match request: a connection on a node.
type MatchEntry struct {
	Player string `json:"p"`
	Name   string `json:"n"`
	Node   string `json:"o"`
	Conn   uint64 `json:"c"`
	// Rated: the request asks for a rated game (an account's that did not
	// ask for a casual one); two such make a rated game.
	Rated bool `json:"r,omitempty"`
	// A rated request's rating in the queue's pool, when it began to
	// wait (Unix ms) and how often its range widens (ms): Pick's rule,
	// ratings.Accepts.
	Rating float64 `json:"rt,omitempty"`
	Since  int64   `json:"s,omitempty"`
	Step   int64   `json:"st,omitempty"`
}

// Seeker is a rated entry as the rule of ratings.Accepts sees it.
func (e MatchEntry) Seeker() ratings.Seeker {
	return ratings.Seeker{Player: e.Player, Rating: e.Rating, Since: time.UnixMilli(e.Since), Step: time.Duration(e.Step) * time.Millisecond}
}

// Pick is the index of the entry of q (oldest first) that e pairs with at
// now, or -1: for a casual request the oldest of another player; for a
// rated one the nearest in rating that ratings.Accepts (the oldest of
// equals). Both stores' Match choose so.
func Pick(e MatchEntry, q []MatchEntry, now time.Time) int {
	if !e.Rated {
		for i, o := range q {
			if o.Player != e.Player {
				return i
			}
		}
		return -1
	}
	seekers := make([]ratings.Seeker, len(q))
	for i, o := range q {
		seekers[i] = o.Seeker()
	}
	return ratings.Nearest(e.Seeker(), seekers, now)
}
