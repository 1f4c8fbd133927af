package memstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// DefaultMaxRecords is how many records a memory records store keeps at
// most when WithMaxRecords is not given: past it, the oldest writes go
// first (a process's memory is not a year's archive).
const DefaultMaxRecords = 100_000

// RecordsOption configures a Records.
type RecordsOption func(*Records)

// WithRecordRetention sets how long a record is kept after its last write;
// default store.DefaultRecordRetention.
func WithRecordRetention(d time.Duration) RecordsOption {
	return func(s *Records) {
		if d > 0 {
			s.retention = d
		}
	}
}

// WithMaxRecords caps the number of records kept; default DefaultMaxRecords.
func WithMaxRecords(n int) RecordsOption {
	return func(s *Records) {
		if n > 0 {
			s.max = n
		}
	}
}

// WithRecordsClock sets the records' clock (tests; default time.Now).
func WithRecordsClock(now func() time.Time) RecordsOption {
	return func(s *Records) {
		if now != nil {
			s.now = now
		}
	}
}

// Records is the in-memory store.Records. The zero value is not usable: use
// NewRecords.
type Records struct {
	retention time.Duration
	max       int
	now       func() time.Time
	// owe marks a rated game's room owed in the Store whose records these
	// are (New sets it); PutRecord calls it, without mu, for a Rated
	// record. nil for records of no Store.
	owe func(room string)

	// mu guards what follows; held for a few map operations. A Store
	// whose saves write records takes it while holding its own (lock
	// order: Store.mu, then Records.mu); it never takes another lock.
	mu      sync.Mutex
	recs    map[string]*memRecord
	players map[string][]playerRef // player id -> games, oldest first
}

// playerRef is one game of a player's index.
type playerRef struct {
	store.RecordRef
	private bool
}

type memRecord struct {
	data     []byte
	analysis []byte // nil until one is written
	players  []string
	ended    time.Time
	expires  time.Time
	written  time.Time
}

// NewRecords returns an empty in-memory records store.
func NewRecords(opts ...RecordsOption) *Records {
	s := &Records{retention: store.DefaultRecordRetention, max: DefaultMaxRecords, now: time.Now,
		recs: map[string]*memRecord{}, players: map[string][]playerRef{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

var _ store.Records = (*Records)(nil)

// PutRecord implements store.Records.
func (s *Records) PutRecord(ctx context.Context, r store.RecordEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.Room == "" || len(r.Data) == 0 {
		return fmt.Errorf("put record: room id and data are required")
	}
	s.put(r)
	if r.Rated && s.owe != nil {
		s.owe(r.Room)
	}
	return nil
}

// put writes the record r, which has a room id and data.
func (s *Records) put(r store.RecordEntry) {
	now := s.now()
	ended := time.UnixMilli(r.Ended.UnixMilli()).UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.recs[r.Room]; old != nil {
		s.unindexLocked(r.Room, old.players)
	}
	var analysis []byte
	if old := s.recs[r.Room]; old != nil {
		analysis = old.analysis
	}
	s.recs[r.Room] = &memRecord{data: slices.Clone(r.Data), analysis: analysis, players: slices.Clone(r.Players), ended: ended,
		expires: now.Add(s.retention), written: now}
	for _, p := range r.Players {
		refs := append(s.players[p], playerRef{RecordRef: store.RecordRef{Room: r.Room, Ended: ended}, private: r.Private})
		slices.SortStableFunc(refs, func(a, b playerRef) int { return a.Ended.Compare(b.Ended) })
		if len(refs) > store.MaxPlayerRecords {
			refs = slices.Delete(refs, 0, len(refs)-store.MaxPlayerRecords)
		}
		s.players[p] = refs
	}
	if len(s.recs) > s.max {
		s.evictLocked(now)
	}
}

// unindexLocked removes room from the indexes of players.
func (s *Records) unindexLocked(room string, players []string) {
	for _, p := range players {
		refs := slices.DeleteFunc(s.players[p], func(x playerRef) bool { return x.Room == room })
		if len(refs) == 0 {
			delete(s.players, p)
		} else {
			s.players[p] = refs
		}
	}
}

// evictLocked drops the expired records, then the oldest writes down to
// nine tenths of the cap, so that eviction runs once per tenth of it.
func (s *Records) evictLocked(now time.Time) {
	type aged struct {
		id      string
		written time.Time
	}
	var all []aged
	for id, r := range s.recs {
		if !now.Before(r.expires) {
			s.unindexLocked(id, r.players)
			delete(s.recs, id)
			continue
		}
		all = append(all, aged{id, r.written})
	}
	keep := s.max - s.max/10
	if len(all) <= keep {
		return
	}
	slices.SortFunc(all, func(a, b aged) int { return a.written.Compare(b.written) })
	for _, a := range all[:len(all)-keep] {
		s.unindexLocked(a.id, s.recs[a.id].players)
		delete(s.recs, a.id)
	}
}

// liveLocked returns the record of room, or nil when there is none or it
// has expired at now.
func (s *Records) liveLocked(room string, now time.Time) *memRecord {
	if r := s.recs[room]; r != nil && now.Before(r.expires) {
		return r
	}
	return nil
}

// Record implements store.Records.
func (s *Records) Record(ctx context.Context, room string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.liveLocked(room, s.now())
	if r == nil {
		return nil, fmt.Errorf("record %s: %w", room, store.ErrNotFound)
	}
	return slices.Clone(r.data), nil
}

// PlayerRecords implements store.Records.
func (s *Records) PlayerRecords(ctx context.Context, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	return s.list(ctx, player, before, limit, false)
}

// PublicRecords implements store.Records.
func (s *Records) PublicRecords(ctx context.Context, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	return s.list(ctx, player, before, limit, true)
}

// list is PlayerRecords, of the games that were not private only when
// public is set.
func (s *Records) list(ctx context.Context, player string, before time.Time, limit int, public bool) ([]store.RecordRef, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	refs := s.players[player]
	var out []store.RecordRef
	for i := len(refs) - 1; i >= 0 && len(out) < limit; i-- {
		ref := refs[i]
		if !before.IsZero() && !ref.Ended.Before(before) || public && ref.private {
			continue
		}
		if s.liveLocked(ref.Room, now) == nil {
			continue
		}
		out = append(out, ref.RecordRef)
	}
	return out, nil
}

var _ store.RecordAnalyses = (*Records)(nil)

// PutAnalysis implements store.RecordAnalyses: the analysis is kept with
// its record, and goes with it.
func (s *Records) PutAnalysis(ctx context.Context, room string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.liveLocked(room, s.now())
	if r == nil {
		return fmt.Errorf("put analysis %s: %w", room, store.ErrNotFound)
	}
	r.analysis = slices.Clone(data)
	return nil
}

// Analysis implements store.RecordAnalyses.
func (s *Records) Analysis(ctx context.Context, room string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.liveLocked(room, s.now())
	if r == nil || r.analysis == nil {
		return nil, fmt.Errorf("analysis %s: %w", room, store.ErrNotFound)
	}
	return slices.Clone(r.analysis), nil
}
