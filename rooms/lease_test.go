package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// fencedLog records what OnFenced was told.
type fencedLog struct {
	mu    sync.Mutex
	rooms []string
	who   [][]JoinAs
	ch    chan struct{}
}

func (f *fencedLog) on(room string, join []JoinAs) {
	f.mu.Lock()
	f.rooms = append(f.rooms, room)
	f.who = append(f.who, join)
	f.mu.Unlock()
	f.ch <- struct{}{}
}

func clusterManager(t *testing.T, st *memstore.Store, node string, ttl time.Duration) (*Manager, *fencedLog) {
	t.Helper()
	fl := &fencedLog{ch: make(chan struct{}, 16)}
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{}), Store: st, Log: zap.NewNop(),
		Cluster: &Cluster{Leases: st, Node: node, TTL: ttl, OnFenced: fl.on}})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	return m, fl
}

func createPair(t *testing.T, m *Manager, a, b Member) *Room {
	t.Helper()
	return pairRoom(t, m, Spec{Game: "race5", Variant: "5"}, a, b)
}

// waitDone waits for r's goroutine to stop.
func waitDone(t *testing.T, r *Room) {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the room did not stop")
	}
}

// roomLog decodes the room's log in the store.
func roomLog(t *testing.T, st store.Store, id string) []logEntry {
	t.Helper()
	raw, err := st.RoomLog(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]logEntry, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestLeaseOwnershipAndHandOver(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ma, _ := clusterManager(t, st, "node-a", time.Hour)
	mb, _ := clusterManager(t, st, "node-b", time.Hour)
	a, b := newMember(1, "a"), newMember(2, "b")
	r := createPair(t, ma, a, b)

	holder, epoch, err := st.LeaseHolder(ctx, r.ID())
	if err != nil || holder != "node-a" || epoch != 1 {
		t.Fatalf("after create: holder %q epoch %d err %v; want node-a 1", holder, epoch, err)
	}
	var oe *OwnedElsewhere
	if _, err := mb.Lookup(ctx, r.ID()); !errors.As(err, &oe) || oe.Node != "node-a" {
		t.Fatalf("lookup on node-b: %v; want OwnedElsewhere node-a", err)
	}
	if _, err := mb.Lookup(ctx, "nosuchroom"); !errors.Is(err, ErrUnknownRoom) {
		t.Fatalf("unknown room on node-b: %v", err)
	}
	if _, _, err := st.LeaseHolder(ctx, "nosuchroom"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a lookup of an unknown room took a lease: %v", err)
	}
	r.Move(a, "2", nil)
	b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })

	// A clean shutdown releases the lease: node-b takes the room at once,
	// at the next epoch, from the last save.
	if err := ma.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.LeaseHolder(ctx, r.ID()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("lease after shutdown: %v; want released", err)
	}
	r2, err := mb.Lookup(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if holder, epoch, _ := st.LeaseHolder(ctx, r.ID()); holder != "node-b" || epoch != 2 {
		t.Fatalf("after takeover: holder %q epoch %d; want node-b 2", holder, epoch)
	}
	b2 := newMember(3, "b")
	r2.Join(b2, RolePlayer, nil)
	got := b2.waitState(t, func(s protocol.RoomState) bool { return true })
	if got.Board.(float64) != 2 {
		t.Fatalf("restored board %v; want 2", got.Board)
	}
	r2.Move(b2, "1", nil)
	b2.waitState(t, func(s protocol.RoomState) bool { return s.Board.(float64) == 3 })
}

func TestFencedRoomStopsWithoutWriting(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ma, fenced := clusterManager(t, st, "node-a", time.Hour)
	mb, _ := clusterManager(t, st, "node-b", time.Hour)
	a, b := newMember(1, "a"), newMember(2, "b")
	r := createPair(t, ma, a, b)
	r.Move(a, "1", nil)
	b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })

	// node-a's lease runs out (as when it is paused) and node-b takes the
	// room: release stands in for the expiry, which the store tests cover.
	if err := st.ReleaseLease(ctx, r.ID(), "node-a", 1); err != nil {
		t.Fatal(err)
	}
	r2, err := mb.Lookup(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	b2 := newMember(3, "b")
	r2.Join(b2, RolePlayer, nil)
	r2.Move(b2, "2", nil)
	b2.waitState(t, func(s protocol.RoomState) bool { return s.Board.(float64) == 3 })

	// node-a still runs its copy: its next move is refused by the store,
	// and the room stops, handing its members over.
	r.Move(b, "1", nil)
	waitDone(t, r)
	<-fenced.ch
	fenced.mu.Lock()
	if len(fenced.rooms) != 1 || fenced.rooms[0] != r.ID() || len(fenced.who[0]) != 2 {
		t.Fatalf("OnFenced: rooms %v members %v; want the room and its 2 members", fenced.rooms, fenced.who)
	}
	fenced.mu.Unlock()
	log := roomLog(t, st, r.ID())
	last := log[len(log)-1]
	if last.Kind != "move" || last.Move != "2" || last.Seat == nil || *last.Seat != 1 {
		t.Fatalf("last log entry %+v; want node-b's move 2 by seat 1", last)
	}
	for _, e := range log {
		if e.Kind == "move" && e.Seat != nil && *e.Seat == 1 && e.Move == "1" {
			t.Fatalf("the fenced node's move reached the log: %+v", log)
		}
	}
	_, cur := storedRoom(t, st, r.ID())
	var snap snapshotV1
	if err := json.Unmarshal(cur, &snap); err != nil {
		t.Fatal(err)
	}
	if string(snap.Engine) == "" || snap.Moves != 2 {
		t.Fatalf("snapshot after the fence: %d moves; want node-b's 2", snap.Moves)
	}
}

func TestFencedOnRenewStops(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ma, fenced := clusterManager(t, st, "node-a", 60*time.Millisecond)
	a, b := newMember(1, "a"), newMember(2, "b")
	r := createPair(t, ma, a, b)
	// Another node takes the room between two renewals: the epoch moves on
	// and node-a's next renewal is refused.
	if err := st.ReleaseLease(ctx, r.ID(), "node-a", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireLease(ctx, r.ID(), "node-b", time.Hour); err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	<-fenced.ch
	if holder, epoch, _ := st.LeaseHolder(ctx, r.ID()); holder != "node-b" || epoch != 2 {
		t.Fatalf("holder %q epoch %d; want node-b 2 (the fenced room must not release it)", holder, epoch)
	}
}

// deadlineStore is a memory store that records, for each call a room
// makes, how far off the deadline of its context was; failSave makes the
// next SaveRoom fail without writing.
type deadlineStore struct {
	*memstore.Store
	failSave chan bool
	mu       sync.Mutex
	left     map[string][]time.Duration // call -> time to its deadline, -1 for none
}

func (s *deadlineStore) note(ctx context.Context, call string) {
	left := time.Duration(-1)
	if dl, ok := ctx.Deadline(); ok {
		left = time.Until(dl)
	}
	s.mu.Lock()
	s.left[call] = append(s.left[call], left)
	s.mu.Unlock()
}

func (s *deadlineStore) calls(call string) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.left[call]...)
}

func (s *deadlineStore) SaveRoom(ctx context.Context, r store.Room) error {
	s.note(ctx, "SaveRoom")
	select {
	case <-s.failSave:
		return errors.New("connection refused")
	default:
		return s.Store.SaveRoom(ctx, r)
	}
}

func (s *deadlineStore) LoadRoom(ctx context.Context, id string) (store.Room, error) {
	s.note(ctx, "LoadRoom")
	return s.Store.LoadRoom(ctx, id)
}

func (s *deadlineStore) AcquireLease(ctx context.Context, room, node string, ttl time.Duration) (int64, error) {
	s.note(ctx, "AcquireLease")
	return s.Store.AcquireLease(ctx, room, node, ttl)
}

func (s *deadlineStore) RenewLease(ctx context.Context, room, node string, epoch int64, ttl time.Duration) error {
	s.note(ctx, "RenewLease")
	return s.Store.RenewLease(ctx, room, node, epoch, ttl)
}

func (s *deadlineStore) ReleaseLease(ctx context.Context, room, node string, epoch int64) error {
	s.note(ctx, "ReleaseLease")
	return s.Store.ReleaseLease(ctx, room, node, epoch)
}

// TestBlockingCallsHaveTheirDeadlines: each store call a room goroutine
// makes carries its own named deadline. The deadlines are hours apart, so
// which one a call got is plain whatever the machine's speed.
func TestBlockingCallsHaveTheirDeadlines(t *testing.T) {
	const (
		save    = 10 * time.Hour
		check   = 3 * time.Hour
		rematch = 2 * time.Hour
		renew   = 5 * time.Hour
		release = 4 * time.Hour
	)
	st := &deadlineStore{Store: memstore.New(), failSave: make(chan bool, 1), left: map[string][]time.Duration{}}
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{}), Store: st, Log: zap.NewNop(),
		SaveTimeout: save, SaveCheckTimeout: check, RematchTimeout: rematch,
		Cluster: &Cluster{Leases: st, Node: "n1", TTL: 60 * time.Millisecond, RenewTimeout: renew, ReleaseTimeout: release}})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	a, b := newMember(1, "a"), newMember(2, "b")
	r := createPair(t, m, a, b)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })

	st.failSave <- true
	r.Move(a, "1", nil)
	a.waitErr(t, string(protocol.CodeInternal))
	r.Resign(a, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	for i := 0; len(st.calls("RenewLease")) == 0; i++ {
		if i == 1000 {
			t.Fatal("the room never renewed its lease")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The rematch's room is created by the old room's goroutine.
	saves := len(st.calls("SaveRoom"))
	r.Rematch(a, nil)
	r.Rematch(b, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Next != "" })
	rematchSaves := st.calls("SaveRoom")[saves:]
	r.Leave(a, nil)
	r.Leave(b, nil)
	waitDone(t, r)
	// The room gives its lease back after Done, on its way out.
	for i := 0; len(st.calls("ReleaseLease")) == 0; i++ {
		if i == 1000 {
			t.Fatal("the room never released its lease")
		}
		time.Sleep(10 * time.Millisecond)
	}

	within := func(call string, got []time.Duration, limit time.Duration) {
		t.Helper()
		if len(got) == 0 {
			t.Fatalf("no %s", call)
		}
		for _, d := range got {
			if d <= limit-time.Hour || d > limit {
				t.Errorf("%s with %v to its deadline, want the %v one", call, d, limit)
			}
		}
	}
	saveCalls := st.calls("SaveRoom")
	within("SaveRoom of a move", saveCalls[:saves], save)
	within("LoadRoom after a failed save", st.calls("LoadRoom"), check)
	within("RenewLease", st.calls("RenewLease"), renew)
	within("SaveRoom of the rematch's room", rematchSaves, rematch)
	within("AcquireLease of the rematch's room", st.calls("AcquireLease")[1:], rematch)
	within("ReleaseLease", st.calls("ReleaseLease"), release)
}
