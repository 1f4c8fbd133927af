package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// checkTail fails unless LoadRoom gives the room at seq, with the snapshot
// snap written at snapSeq and the log entries tail after it.
func checkTail(t *testing.T, s store.Store, id string, seq int64, snap string, snapSeq int64, tail ...string) {
	t.Helper()
	got := mustLoad(t, s, id)
	if got.Seq != seq || string(got.Snapshot) != snap || got.SnapshotSeq != snapSeq || !slices.Equal(strs(got.Tail), tail) {
		t.Fatalf("LoadRoom(%s) = seq %d, snapshot %q at %d, tail %q; want seq %d, %q at %d, tail %q",
			id, got.Seq, got.Snapshot, got.SnapshotSeq, strs(got.Tail), seq, snap, snapSeq, tail)
	}
	if got.LogOnly || got.Prev != 0 || len(got.Append) != 0 {
		t.Fatalf("LoadRoom(%s) = LogOnly %v, Prev %d, Append %q; want them empty", id, got.LogOnly, got.Prev, got.Append)
	}
}

// A log-only save appends and moves the seq; LoadRoom is the last snapshot
// and the entries after it, until the next snapshot save.
func testLogOnlyLoadIsSnapshotAndTail(t *testing.T, s store.Store) {
	base := store.Room{ID: "r", Players: []string{"a", "b"}, Live: true, UpdatedAt: t0}
	save := func(seq, prev int64, snap string, entries ...string) {
		t.Helper()
		r := base
		r.Seq, r.Append, r.UpdatedAt = seq, bs(entries...), t0.Add(time.Duration(seq)*time.Second)
		if snap == "" {
			r.LogOnly, r.Prev = true, prev
		} else {
			r.Snapshot = []byte(snap)
		}
		mustSave(t, s, r)
	}
	save(1, 0, "at 1", "create", "seat")
	checkTail(t, s, "r", 1, "at 1", 1)
	save(2, 1, "", "m2")
	save(3, 2, "", "m3")
	checkTail(t, s, "r", 3, "at 1", 1, "m2", "m3")
	if got := mustLive(t, s, 10); !slices.Equal(got, []string{"r"}) {
		t.Fatalf("LiveRooms after log-only saves = %v, want [r]", got)
	}
	if got := mustPlayerRooms(t, s, "b"); !slices.Equal(got, []string{"r"}) {
		t.Fatalf("PlayerRooms(b) after log-only saves = %v, want [r]", got)
	}
	if got := mustLoad(t, s, "r"); !got.UpdatedAt.Equal(t0.Add(3 * time.Second)) {
		t.Fatalf("UpdatedAt after a log-only save = %v, want the save's %v", got.UpdatedAt, t0.Add(3*time.Second))
	}
	save(5, 3, "at 5", "m5") // a seq skipped, as after a burnt seq: a snapshot save may
	checkTail(t, s, "r", 5, "at 5", 5)
	save(6, 5, "", "m6")
	checkTail(t, s, "r", 6, "at 5", 5, "m6")
	if got := mustLog(t, s, "r"); !slices.Equal(strs(got), []string{"create", "seat", "m2", "m3", "m5", "m6"}) {
		t.Fatalf("RoomLog = %q, want every entry once, in order", got)
	}
	// A finishing log-only save leaves the indexes like a snapshot save.
	r := base
	r.Seq, r.Prev, r.LogOnly, r.Append, r.Finished, r.Live = 7, 6, true, bs("resign"), true, false
	mustSave(t, s, r)
	checkTail(t, s, "r", 7, "at 5", 5, "m6", "resign")
	checkNothingLive(t, s, "a", "a finishing log-only save")
}

// A log-only save that does not extend the stored seq exactly (a replay, a
// gap, a room not stored) or is malformed is refused and changes nothing.
func testLogOnlyStaleChangesNothing(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "r", Seq: 4, Snapshot: []byte("at 4"), Append: bs("m4"), Players: []string{"a", "b"}, Live: true, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "r", Seq: 5, LogOnly: true, Prev: 4, Append: bs("m5"), Players: []string{"a", "b"}, Live: true, UpdatedAt: t0})
	cases := []struct {
		name      string
		r         store.Room
		wantStale bool
	}{
		{"replayed", store.Room{ID: "r", Seq: 5, Prev: 4}, true},
		{"older base", store.Room{ID: "r", Seq: 6, Prev: 4}, true},
		{"gap", store.Room{ID: "r", Seq: 7, Prev: 6}, true},
		{"seq not past prev", store.Room{ID: "r", Seq: 5, Prev: 5}, true},
		{"seq behind prev", store.Room{ID: "r", Seq: 3, Prev: 5}, true},
		{"room not stored", store.Room{ID: "nowhere", Seq: 1, Prev: 0}, true},
		{"nothing appended", store.Room{ID: "r", Seq: 6, Prev: 5}, false},
		{"with a snapshot", store.Room{ID: "r", Seq: 6, Prev: 5, Snapshot: []byte("snap")}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			r.LogOnly, r.Players, r.Live, r.UpdatedAt = true, []string{"a", "c"}, true, t0.Add(time.Hour)
			if tc.name != "nothing appended" {
				r.Append = bs("late")
			}
			err := s.SaveRoom(ctxT(t), r)
			switch {
			case err == nil:
				t.Fatalf("SaveRoom(%+v) succeeded, want an error", r)
			case tc.wantStale && !errors.Is(err, store.ErrStaleSeq):
				t.Fatalf("SaveRoom(%+v) = %v, want ErrStaleSeq", r, err)
			case !tc.wantStale && (errors.Is(err, store.ErrStaleSeq) || errors.Is(err, store.ErrFenced)):
				t.Fatalf("SaveRoom(%+v) = %v, want an input error", r, err)
			}
			checkTail(t, s, "r", 5, "at 4", 4, "m5")
			if got := mustLog(t, s, "r"); !slices.Equal(strs(got), []string{"m4", "m5"}) {
				t.Fatalf("log after a refused log-only save = %q, want [m4 m5]", got)
			}
			if _, err := s.LoadRoom(ctxT(t), "nowhere"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("LoadRoom(nowhere) after a refused log-only save = %v, want ErrNotFound", err)
			}
			if got := mustPlayerRooms(t, s, "c"); len(got) != 0 {
				t.Fatalf("PlayerRooms(c) after a refused save seating c = %v, want empty", got)
			}
		})
	}
}

// A log-only save at an epoch that is no longer the room's is refused like
// a snapshot save, even when it extends the stored seq.
func testLogOnlyFenced(t *testing.T, s store.Store) {
	l := as[store.Leases](t, s)
	eA := mustAcquire(t, l, "r", "A", 100*time.Millisecond)
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("A's room"), Append: bs("a1"), Live: true, UpdatedAt: t0, Epoch: eA})
	mustSave(t, s, store.Room{ID: "r", Seq: 2, LogOnly: true, Prev: 1, Append: bs("a2"), Live: true, UpdatedAt: t0, Epoch: eA})
	eB := eventually(t, l, "r", "B", time.Minute)
	late := store.Room{ID: "r", Seq: 3, LogOnly: true, Prev: 2, Append: bs("late"), Live: true, UpdatedAt: t0, Epoch: eA}
	if err := s.SaveRoom(ctxT(t), late); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("fenced log-only SaveRoom: %v, want ErrFenced", err)
	}
	checkTail(t, s, "r", 2, "A's room", 1, "a2")
	late.Epoch = eB
	mustSave(t, s, late)
	checkTail(t, s, "r", 3, "A's room", 1, "a2", "late")
}

// Of many log-only saves extending the same seq at once, exactly one lands.
func testLogOnlyConcurrentOneWins(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("at 1"), UpdatedAt: t0})
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.SaveRoom(ctxT(t), store.Room{ID: "r", Seq: 2 + int64(i%2), LogOnly: true, Prev: 1,
				Append: bs(fmt.Sprintf("w%d", i)), UpdatedAt: t0})
		}()
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("writers %d and %d both extended seq 1", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, store.ErrStaleSeq):
			t.Fatalf("writer %d: %v, want ErrStaleSeq", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no writer landed")
	}
	got := mustLoad(t, s, "r")
	if got.Seq != 2+int64(won%2) || len(got.Tail) != 1 || !bytes.Equal(got.Tail[0], []byte(fmt.Sprintf("w%d", won))) {
		t.Fatalf("LoadRoom = seq %d, tail %q; want writer %d's alone", got.Seq, got.Tail, won)
	}
}
