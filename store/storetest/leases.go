package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

func mustAcquire(t *testing.T, l store.Leases, room, node string, ttl time.Duration) int64 {
	t.Helper()
	e, err := l.AcquireLease(ctxT(t), room, node, ttl)
	if err != nil {
		t.Fatalf("AcquireLease(%s, %s): %v", room, node, err)
	}
	return e
}

// eventually retries acquiring until it succeeds (the lease expired), for
// at most 10 s: it asserts that expiry happens, never how fast.
func eventually(t *testing.T, l store.Leases, room, node string, ttl time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		e, err := l.AcquireLease(ctxT(t), room, node, ttl)
		if err == nil {
			return e
		}
		if !errors.Is(err, store.ErrLeaseHeld) {
			t.Fatalf("AcquireLease(%s, %s): %v, want nil or ErrLeaseHeld", room, node, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease of %s never expired for %s", room, node)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func testLeaseExclusive(t *testing.T, s store.Store) {
	l := as[store.Leases](t, s)
	if _, _, err := l.LeaseHolder(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LeaseHolder of a free room: %v, want ErrNotFound", err)
	}
	e := mustAcquire(t, l, "r", "A", time.Minute)
	if e != 1 {
		t.Errorf("first epoch = %d, want 1", e)
	}
	if _, err := l.AcquireLease(ctxT(t), "r", "B", time.Minute); !errors.Is(err, store.ErrLeaseHeld) {
		t.Fatalf("B acquiring A's lease: %v, want ErrLeaseHeld", err)
	}
	if again := mustAcquire(t, l, "r", "A", time.Minute); again != e {
		t.Errorf("A acquiring its own lease again: epoch %d, want the same %d", again, e)
	}
	node, epoch, err := l.LeaseHolder(ctxT(t), "r")
	if err != nil || node != "A" || epoch != e {
		t.Errorf("LeaseHolder = %q, %d, %v; want A, %d", node, epoch, err, e)
	}
	// Another room is independent.
	if e2 := mustAcquire(t, l, "r2", "B", time.Minute); e2 != 1 {
		t.Errorf("B's epoch of another room = %d, want 1", e2)
	}
	for _, bad := range []struct {
		room, node string
		ttl        time.Duration
	}{{"", "A", time.Minute}, {"r3", "", time.Minute}, {"r3", "A", 0}} {
		if _, err := l.AcquireLease(ctxT(t), bad.room, bad.node, bad.ttl); err == nil {
			t.Errorf("AcquireLease(%q, %q, %v): no error", bad.room, bad.node, bad.ttl)
		}
	}
}

// A paused owner's lease expires, another node takes the room over with a
// higher epoch, and the old owner can neither renew, release nor save.
func testLeaseTakeoverFences(t *testing.T, s store.Store) {
	l := as[store.Leases](t, s)
	eA := mustAcquire(t, l, "r", "A", 100*time.Millisecond)
	orig := store.Room{ID: "r", Seq: 1, Snapshot: []byte("A's move"), Append: bs("a1"), Players: []string{"a", "b"},
		Live: true, UpdatedAt: t0, Epoch: eA}
	mustSave(t, s, orig)

	eB := eventually(t, l, "r", "B", time.Minute)
	if eB <= eA {
		t.Fatalf("takeover epoch %d, want more than %d", eB, eA)
	}
	if err := l.RenewLease(ctxT(t), "r", "A", eA, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("old owner's RenewLease: %v, want ErrFenced", err)
	}
	if err := l.ReleaseLease(ctxT(t), "r", "A", eA); !errors.Is(err, store.ErrFenced) {
		t.Errorf("old owner's ReleaseLease: %v, want ErrFenced", err)
	}
	// The old owner's next move is refused even with a fresh seq, and changes nothing.
	late := store.Room{ID: "r", Seq: 2, Snapshot: []byte("A's late move"), Append: bs("late"), Players: []string{"a", "c"},
		Live: true, UpdatedAt: t0.Add(time.Hour), Epoch: eA}
	if err := s.SaveRoom(ctxT(t), late); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("fenced SaveRoom: %v, want ErrFenced", err)
	}
	checkRoom(t, mustLoad(t, s, "r"), orig)
	if got := mustLog(t, s, "r"); !equalLog(got, orig.Append) {
		t.Fatalf("log after a fenced save = %q, want %q", got, orig.Append)
	}
	if got := mustPlayerRooms(t, s, "c"); len(got) != 0 {
		t.Fatalf("PlayerRooms(c) after a fenced save seating c = %v, want empty", got)
	}
	// The new owner writes at its epoch; an unfenced save (epoch 0) is not checked.
	next := store.Room{ID: "r", Seq: 2, Snapshot: []byte("B's move"), Append: bs("b1"), Players: []string{"a", "b"},
		Live: true, UpdatedAt: t0, Epoch: eB}
	mustSave(t, s, next)
	checkRoom(t, mustLoad(t, s, "r"), next)
	if got := mustLog(t, s, "r"); !slices.Equal(strs(got), []string{"a1", "b1"}) {
		t.Errorf("log = %q, want [a1 b1]", got)
	}
	node, epoch, err := l.LeaseHolder(ctxT(t), "r")
	if err != nil || node != "B" || epoch != eB {
		t.Errorf("LeaseHolder = %q, %d, %v; want B, %d", node, epoch, err, eB)
	}
}

// An owner that renews keeps the room past its first ttl; one whose lease
// expired with nobody taking over renews it at the same epoch.
func testLeaseRenew(t *testing.T, s store.Store) {
	l := as[store.Leases](t, s)
	e := mustAcquire(t, l, "r", "A", 300*time.Millisecond)
	if err := l.RenewLease(ctxT(t), "r", "A", e, time.Minute); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // past the first ttl, well inside the renewed one
	if _, err := l.AcquireLease(ctxT(t), "r", "B", time.Minute); !errors.Is(err, store.ErrLeaseHeld) {
		t.Fatalf("B after A renewed: %v, want ErrLeaseHeld", err)
	}
	if err := l.RenewLease(ctxT(t), "r", "B", e, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("B renewing A's lease: %v, want ErrFenced", err)
	}
	if err := l.RenewLease(ctxT(t), "r", "A", e+1, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("A renewing at a wrong epoch: %v, want ErrFenced", err)
	}

	e2 := mustAcquire(t, l, "q", "A", 50*time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for { // wait until it has expired
		if _, _, err := l.LeaseHolder(ctxT(t), "q"); errors.Is(err, store.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lease of q never expired")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := l.RenewLease(ctxT(t), "q", "A", e2, time.Minute); err != nil {
		t.Fatalf("renewing an expired lease nobody took: %v", err)
	}
	if node, epoch, err := l.LeaseHolder(ctxT(t), "q"); err != nil || node != "A" || epoch != e2 {
		t.Errorf("after renewal: %q, %d, %v; want A, %d", node, epoch, err, e2)
	}
}

// A released room is free at once, and the next owner's epoch is higher.
func testLeaseRelease(t *testing.T, s store.Store) {
	l := as[store.Leases](t, s)
	e := mustAcquire(t, l, "r", "A", time.Minute)
	if err := l.ReleaseLease(ctxT(t), "r", "B", e); !errors.Is(err, store.ErrFenced) {
		t.Errorf("B releasing A's lease: %v, want ErrFenced", err)
	}
	if node, _, err := l.LeaseHolder(ctxT(t), "r"); err != nil || node != "A" {
		t.Fatalf("after B's refused release: %q, %v; want A", node, err)
	}
	if err := l.ReleaseLease(ctxT(t), "r", "A", e); err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.LeaseHolder(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LeaseHolder after release: %v, want ErrNotFound", err)
	}
	if eB := mustAcquire(t, l, "r", "B", time.Minute); eB != e+1 {
		t.Errorf("epoch after release and takeover = %d, want %d", eB, e+1)
	}
	// A save at the released epoch is fenced.
	if err := s.SaveRoom(ctxT(t), store.Room{ID: "r", Seq: 1, Snapshot: []byte("x"), UpdatedAt: t0, Epoch: e}); !errors.Is(err, store.ErrFenced) {
		t.Errorf("save at a released epoch: %v, want ErrFenced", err)
	}
}

func strs(b [][]byte) []string {
	out := make([]string, len(b))
	for i, x := range b {
		out[i] = string(x)
	}
	return out
}
