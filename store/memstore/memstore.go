// Package memstore is the in-memory store.Store: the default when no Redis
// address is configured. Nothing survives the process.
//
// It keeps the same rules as the Redis store (store/redisstore), checked by
// the same conformance suite (store/storetest): the seq check, the log, the
// live-room index, the players' unfinished rooms, the retention of finished
// rooms and the expiry of idle unfinished rooms and guest identities, which
// all expire lazily (checked when read, swept now and then on writes so that
// memory does not grow with what nobody reads again).
package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// Option configures a Store.
type Option func(*Store)

// WithRetention sets how long a finished room (snapshot and log) is kept
// after its last save; default store.DefaultRetention. It must be positive.
func WithRetention(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.retention = d
		}
	}
}

// WithGuestTTL sets how long a guest identity lives after its last use (a
// hello, a save of an unfinished room it is seated in); default
// store.DefaultGuestTTL. It is never shorter than the idle-room TTL.
func WithGuestTTL(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.guestTTL = d
		}
	}
}

// WithIdleRoomTTL sets how long an unfinished room is kept after its last
// save; default store.DefaultIdleRoomTTL.
func WithIdleRoomTTL(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.roomTTL = d
		}
	}
}

// WithMatchClock sets the clock a rated quick-match request's range is
// read at (store.Pick); default time.Now. Tests move it.
func WithMatchClock(now func() time.Time) Option {
	return func(s *Store) {
		if now != nil {
			s.matchNow = now
		}
	}
}

// WithRecords sets the records store the saves of finished rooms write
// their games' records to (store.Room.Record); default a NewRecords of the
// store's own.
func WithRecords(r *Records) Option {
	return func(s *Store) {
		if r != nil {
			s.records = r
		}
	}
}

// Store is an in-memory store.Store. The zero value is not usable: use New.
type Store struct {
	records   *Records
	retention time.Duration
	roomTTL   time.Duration
	guestTTL  time.Duration
	now       func() time.Time
	matchNow  func() time.Time // the quick match's (WithMatchClock)

	// A mutex is fine here: this is the store's own bookkeeping, not game
	// state, and every critical section is a few map operations (the
	// ratings' included: Apply reads, rates and writes under it). A save
	// that carries a record takes records.mu while holding it (lock
	// order: mu, then records.mu).
	mu        sync.Mutex
	rooms     map[string]*room
	live      map[string]time.Time          // room id -> UpdatedAt
	players   identities                    // identities, accounts, sessions, guards (players.go)
	playerRms map[string]*roomSet           // player id -> unfinished room ids
	leases    map[string]*lease             // room id -> lease and epoch
	queues    map[string][]store.MatchEntry // quick-match queues (match.go)
	bots      map[string]*botList           // owner id -> bot accounts (bots.go)
	torneios  map[string]torneioEntry       // tournament id -> last save (torneio.go)
	answers   map[string]*torneioAnswers    // tournament id -> answers to its invitations (torneio.go)
	rated     *ratingsState                 // the ratings part (ratings.go), made at first use
	nextSweep time.Time
}

// lease is a room's ownership. The epoch stays when the lease expires or is
// released (node empty), so that the next owner's epoch is higher.
type lease struct {
	node    string
	epoch   int64
	expires time.Time
}

type room struct {
	r   store.Room // Append always nil
	log [][]byte
	// snapLen is len(log) after the save that wrote r.Snapshot (whose
	// seq is r.SnapshotSeq): the entries after it are LoadRoom's Tail.
	snapLen   int
	expiresAt time.Time // retention after a finish, idle-room TTL after another save
}

// roomSet is a player's unfinished rooms; it expires with the guest TTL
// after the last save that added to it.
type roomSet struct {
	ids     map[string]struct{}
	expires time.Time
}

var (
	_ store.Store  = (*Store)(nil)
	_ store.Leases = (*Store)(nil)
)

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{
		retention: store.DefaultRetention,
		roomTTL:   store.DefaultIdleRoomTTL,
		guestTTL:  store.DefaultGuestTTL,
		now:       time.Now,
		matchNow:  time.Now,
		rooms:     make(map[string]*room),
		live:      make(map[string]time.Time),
		players:   newIdentities(),
		playerRms: make(map[string]*roomSet),
		leases:    make(map[string]*lease),
	}
	for _, o := range opts {
		o(s)
	}
	if s.records == nil {
		s.records = NewRecords()
	}
	s.records.owe = func(room string) {
		now := s.now()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.oweLocked(room, now)
	}
	// An identity must outlive every room it is seated in.
	s.guestTTL = max(s.guestTTL, s.roomTTL)
	return s
}

// Records implements store.Store: the records store the saves write to.
func (s *Store) Records() store.Records { return s.records }

// SaveRoom implements store.Store.
func (s *Store) SaveRoom(ctx context.Context, r store.Room) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save room %s: %w", r.ID, err)
	}
	if r.ID == "" {
		return fmt.Errorf("save room: empty room id")
	}
	if r.Seq < 0 {
		return fmt.Errorf("save room %s: negative seq %d", r.ID, r.Seq)
	}
	if err := store.CheckRecord(r); err != nil {
		return err
	}
	now := s.now()

	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)

	if r.Epoch != 0 {
		if cur := s.epochLocked(r.ID); cur != r.Epoch {
			return fmt.Errorf("save room %s: epoch %d, current %d: %w", r.ID, r.Epoch, cur, store.ErrFenced)
		}
	}
	old := s.roomLocked(r.ID, now)
	logOnly := r.LogOnly
	switch {
	case logOnly && len(r.Append) == 0:
		return fmt.Errorf("save room %s: a log-only save appends nothing", r.ID)
	case logOnly && len(r.Snapshot) != 0:
		return fmt.Errorf("save room %s: a log-only save with a snapshot", r.ID)
	case logOnly && old == nil:
		return fmt.Errorf("save room %s: log-only save on seq %d, room not stored: %w", r.ID, r.Prev, store.ErrStaleSeq)
	case logOnly && (old.r.Seq != r.Prev || r.Seq <= r.Prev):
		return fmt.Errorf("save room %s: log-only save of seq %d on %d, stored %d: %w", r.ID, r.Seq, r.Prev, old.r.Seq, store.ErrStaleSeq)
	case old != nil && old.r.Seq >= r.Seq:
		return fmt.Errorf("save room %s: seq %d, stored %d: %w", r.ID, r.Seq, old.r.Seq, store.ErrStaleSeq)
	}

	nr := &room{r: copyRoom(r)}
	nr.r.LogOnly, nr.r.Prev, nr.r.SnapshotSeq = false, 0, r.Seq
	if old != nil {
		nr.log, nr.snapLen = old.log, old.snapLen
	}
	for _, e := range r.Append {
		nr.log = append(nr.log, clone(e))
	}
	if logOnly {
		nr.r.Snapshot, nr.r.SnapshotSeq = old.r.Snapshot, old.r.SnapshotSeq
	} else {
		nr.snapLen = len(nr.log)
	}
	if r.Finished {
		nr.expiresAt = now.Add(s.retention)
	} else {
		nr.expiresAt = now.Add(s.roomTTL)
	}
	s.rooms[r.ID] = nr
	if r.Record != nil {
		// Under s.mu: no reader sees the finished room without its
		// record.
		s.records.put(*r.Record)
		if r.Record.Rated {
			// In the same critical section: a rated game whose end
			// was saved is owed until the rater applies it.
			s.oweLocked(r.ID, now)
		}
	}

	if r.Live && !r.Finished {
		s.live[r.ID] = nr.r.UpdatedAt
	} else {
		delete(s.live, r.ID)
	}

	// Players who left the room, or every player once it is finished, lose
	// it from their unfinished rooms; seated players of an unfinished room
	// have it.
	if old != nil {
		for _, p := range old.r.Players {
			if r.Finished || !slices.Contains(r.Players, p) {
				s.removePlayerRoomLocked(p, r.ID)
			}
		}
	}
	for _, p := range r.Players {
		s.renewLocked(p, now)
		if r.Finished {
			s.removePlayerRoomLocked(p, r.ID)
			continue
		}
		set := s.playerRms[p]
		if set == nil || !now.Before(set.expires) {
			set = &roomSet{ids: make(map[string]struct{})}
			s.playerRms[p] = set
		}
		set.ids[r.ID] = struct{}{}
		set.expires = now.Add(s.guestTTL)
	}
	return nil
}

// LoadRoom implements store.Store.
func (s *Store) LoadRoom(ctx context.Context, id string) (store.Room, error) {
	if err := ctx.Err(); err != nil {
		return store.Room{}, fmt.Errorf("load room %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rm := s.roomLocked(id, s.now())
	if rm == nil {
		return store.Room{}, fmt.Errorf("load room %s: %w", id, store.ErrNotFound)
	}
	out := copyRoom(rm.r)
	for _, e := range rm.log[rm.snapLen:] {
		out.Tail = append(out.Tail, clone(e))
	}
	return out, nil
}

// RoomLog implements store.Store.
func (s *Store) RoomLog(ctx context.Context, id string) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("room log %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rm := s.roomLocked(id, s.now())
	if rm == nil {
		return nil, fmt.Errorf("room log %s: %w", id, store.ErrNotFound)
	}
	out := make([][]byte, len(rm.log))
	for i, e := range rm.log {
		out[i] = clone(e)
	}
	return out, nil
}

// LiveRooms implements store.Store. Rooms with the same UpdatedAt come in
// descending id order, as in Redis's ZREVRANGE.
func (s *Store) LiveRooms(ctx context.Context, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("live rooms: %w", err)
	}
	if limit <= 0 {
		return []string{}, nil
	}
	type entry struct {
		id string
		at time.Time
	}
	s.mu.Lock()
	now := s.now()
	entries := make([]entry, 0, len(s.live))
	for id, at := range s.live {
		if s.roomLocked(id, now) == nil {
			delete(s.live, id)
			continue
		}
		entries = append(entries, entry{id, at})
	}
	s.mu.Unlock()
	slices.SortFunc(entries, func(a, b entry) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	ids := make([]string, 0, min(limit, len(entries)))
	for _, e := range entries[:min(limit, len(entries))] {
		ids = append(ids, e.id)
	}
	return ids, nil
}

// PlayerRooms implements store.Store. The ids come sorted.
func (s *Store) PlayerRooms(ctx context.Context, playerID string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("player rooms %s: %w", playerID, err)
	}
	now := s.now()
	s.mu.Lock()
	ids := []string{}
	if set := s.playerRms[playerID]; set != nil && now.Before(set.expires) {
		for id := range set.ids {
			if s.roomLocked(id, now) != nil {
				ids = append(ids, id)
			} else {
				delete(set.ids, id)
			}
		}
	}
	s.mu.Unlock()
	slices.Sort(ids)
	return ids, nil
}

// Ping implements store.Store: memory is always reachable.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}

// Close implements store.Store. It has nothing to release.
func (s *Store) Close() error { return nil }

// roomLocked returns the room, or nil when it is absent or expired (and then
// drops it).
func (s *Store) roomLocked(id string, now time.Time) *room {
	rm := s.rooms[id]
	if rm == nil {
		return nil
	}
	if !rm.expiresAt.IsZero() && !now.Before(rm.expiresAt) {
		delete(s.rooms, id)
		return nil
	}
	return rm
}

// sweepLocked drops expired rooms, identities and index entries, at most
// once per half the shortest expiry (and at least once a minute), so that
// what nobody reads again does not stay.
func (s *Store) sweepLocked(now time.Time) {
	if now.Before(s.nextSweep) {
		return
	}
	s.nextSweep = now.Add(min(s.retention/2, s.roomTTL/2, s.guestTTL/2, time.Minute))
	for id, rm := range s.rooms {
		if !rm.expiresAt.IsZero() && !now.Before(rm.expiresAt) {
			delete(s.rooms, id)
		}
	}
	for id := range s.live {
		if _, ok := s.rooms[id]; !ok {
			delete(s.live, id)
		}
	}
	s.players.sweep(now)
	s.sweepRatingsLocked(now)
	for p, set := range s.playerRms {
		if !now.Before(set.expires) {
			delete(s.playerRms, p)
		}
	}
	// An epoch must outlive its room's snapshot only while someone may
	// still write it: drop those of rooms that are gone and unowned.
	for id, l := range s.leases {
		if _, ok := s.rooms[id]; !ok && !now.Before(l.expires) {
			delete(s.leases, id)
		}
	}
}

func (s *Store) epochLocked(id string) int64 {
	if l := s.leases[id]; l != nil {
		return l.epoch
	}
	return 0
}

// AcquireLease implements store.Leases.
func (s *Store) AcquireLease(ctx context.Context, room, node string, ttl time.Duration) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("acquire lease of room %s: %w", room, err)
	}
	if err := store.CheckLease(room, node, ttl); err != nil {
		return 0, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.leases[room]
	if l == nil {
		l = &lease{}
		s.leases[room] = l
	}
	live := now.Before(l.expires)
	switch {
	case live && l.node != node:
		return 0, fmt.Errorf("acquire lease of room %s: held by %s: %w", room, l.node, store.ErrLeaseHeld)
	case live: // node holds it already
		l.expires = now.Add(ttl)
	default:
		l.node, l.epoch, l.expires = node, l.epoch+1, now.Add(ttl)
	}
	return l.epoch, nil
}

// RenewLease implements store.Leases.
func (s *Store) RenewLease(ctx context.Context, room, node string, epoch int64, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("renew lease of room %s: %w", room, err)
	}
	if err := store.CheckLease(room, node, ttl); err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.leases[room]
	if l == nil || l.epoch != epoch || (l.node != node && now.Before(l.expires)) {
		return fmt.Errorf("renew lease of room %s at epoch %d: %w", room, epoch, store.ErrFenced)
	}
	l.node, l.expires = node, now.Add(ttl)
	return nil
}

// ReleaseLease implements store.Leases.
func (s *Store) ReleaseLease(ctx context.Context, room, node string, epoch int64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("release lease of room %s: %w", room, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.leases[room]
	if l == nil || l.epoch != epoch || l.node != node || !now.Before(l.expires) {
		return fmt.Errorf("release lease of room %s at epoch %d: %w", room, epoch, store.ErrFenced)
	}
	l.node, l.expires = "", time.Time{}
	return nil
}

// LeaseHolder implements store.Leases.
func (s *Store) LeaseHolder(ctx context.Context, room string) (string, int64, error) {
	if err := ctx.Err(); err != nil {
		return "", 0, fmt.Errorf("lease holder of room %s: %w", room, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.leases[room]
	if l == nil || l.node == "" || !now.Before(l.expires) {
		return "", 0, fmt.Errorf("lease holder of room %s: %w", room, store.ErrNotFound)
	}
	return l.node, l.epoch, nil
}

func (s *Store) removePlayerRoomLocked(player, roomID string) {
	set := s.playerRms[player]
	if set == nil {
		return
	}
	delete(set.ids, roomID)
	if len(set.ids) == 0 {
		delete(s.playerRms, player)
	}
}

// copyRoom deep-copies what LoadRoom returns, without Append, with UpdatedAt
// at microsecond precision as Redis keeps it.
func copyRoom(r store.Room) store.Room {
	r.Snapshot = clone(r.Snapshot)
	r.Append, r.Tail, r.Record = nil, nil, nil
	r.Players = slices.Clone(r.Players)
	r.UpdatedAt = normalizeTime(r.UpdatedAt)
	return r
}

// normalizeTime is the UpdatedAt that a store gives back for t: microsecond
// precision, UTC, no monotonic reading (Redis keeps Unix microseconds).
func normalizeTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.UnixMicro(t.UnixMicro()).UTC()
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return slices.Clone(b)
}
