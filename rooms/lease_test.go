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
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []Seat{{PlayerID: "a", Name: "a"}, {PlayerID: "b", Name: "b"}},
		Join:  []JoinAs{{M: a, As: RolePlayer}, {M: b, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

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
	saved, err := st.LoadRoom(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshotV1
	if err := json.Unmarshal(saved.Snapshot, &snap); err != nil {
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
