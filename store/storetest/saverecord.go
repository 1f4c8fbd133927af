package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/store"
)

// The record of a finished game written by the save that finishes it
// (store.Room.Record): a save that lands has its record and its players'
// index entries, a refused one writes none, and only a finished room's
// snapshot save may carry one.

func finishing(id string, seq int64, rec *store.RecordEntry) store.Room {
	return store.Room{ID: id, Seq: seq, Snapshot: []byte("over at " + id), Append: bs("resign"),
		Players: []string{"a", "b"}, Finished: true, UpdatedAt: t0, Record: rec}
}

func mustRecord(t *testing.T, s store.Store, room, want string) {
	t.Helper()
	got, err := s.Records().Record(ctxT(t), room)
	if err != nil || string(got) != want {
		t.Fatalf("Record(%s) = %q, %v; want %q", room, got, err, want)
	}
}

func noRecord(t *testing.T, s store.Store, room string) {
	t.Helper()
	if got, err := s.Records().Record(ctxT(t), room); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Record(%s) = %q, %v; want ErrNotFound", room, got, err)
	}
}

func listed(t *testing.T, s store.Store, player string, public bool) []string {
	t.Helper()
	list := s.Records().PlayerRecords
	if public {
		list = s.Records().PublicRecords
	}
	refs, err := list(ctxT(t), player, time.Time{}, 10)
	if err != nil {
		t.Fatalf("records of %s (public %v): %v", player, public, err)
	}
	return refRooms(refs)
}

func testSaveWritesRecord(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "g", Seq: 1, Snapshot: []byte("playing"), Append: bs("create"),
		Players: []string{"a", "b"}, Live: true, UpdatedAt: t0})
	noRecord(t, s, "g")
	mustSave(t, s, finishing("g", 2, &store.RecordEntry{Room: "g", Data: []byte("record of g"),
		Players: []string{"a", "b"}, Ended: recT0}))
	mustRecord(t, s, "g", "record of g")
	for _, p := range []string{"a", "b"} {
		if got := listed(t, s, p, false); !slices.Equal(got, []string{"g"}) {
			t.Fatalf("PlayerRecords(%s) = %v, want [g]", p, got)
		}
		if got := listed(t, s, p, true); !slices.Equal(got, []string{"g"}) {
			t.Fatalf("PublicRecords(%s) = %v, want [g]", p, got)
		}
	}
	// A private game is the players' own: listed to them, not in public.
	mustSave(t, s, finishing("h", 1, &store.RecordEntry{Room: "h", Data: []byte("record of h"),
		Players: []string{"a"}, Ended: recT0.Add(time.Minute), Private: true}))
	mustRecord(t, s, "h", "record of h")
	if got := listed(t, s, "a", false); !slices.Equal(got, []string{"h", "g"}) {
		t.Fatalf("PlayerRecords(a) = %v, want [h g]", got)
	}
	if got := listed(t, s, "a", true); !slices.Equal(got, []string{"g"}) {
		t.Fatalf("PublicRecords(a) = %v, want [g] (h is private)", got)
	}
	// A later save of the finished room (a chat line) writes it again.
	mustSave(t, s, finishing("g", 3, &store.RecordEntry{Room: "g", Data: []byte("record of g, chat"),
		Players: []string{"a", "b"}, Ended: recT0}))
	mustRecord(t, s, "g", "record of g, chat")
	if got := listed(t, s, "b", false); !slices.Equal(got, []string{"g"}) {
		t.Fatalf("PlayerRecords(b) after a rewrite = %v, want [g] once", got)
	}
}

func testRefusedSaveWritesNoRecord(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "g", Seq: 5, Snapshot: []byte("playing"), Append: bs("m"),
		Players: []string{"a", "b"}, Live: true, UpdatedAt: t0})
	stale := finishing("g", 5, &store.RecordEntry{Room: "g", Data: []byte("stale"), Players: []string{"a"}, Ended: recT0})
	if err := s.SaveRoom(ctxT(t), stale); !errors.Is(err, store.ErrStaleSeq) {
		t.Fatalf("stale finishing save: %v, want ErrStaleSeq", err)
	}
	noRecord(t, s, "g")

	l, ok := s.(store.Leases)
	if !ok {
		return
	}
	eA, err := l.AcquireLease(ctxT(t), "f", "A", 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	eB := eventually(t, l, "f", "B", time.Minute)
	if eB <= eA {
		t.Fatalf("takeover epoch %d, want more than %d", eB, eA)
	}
	fenced := finishing("f", 1, &store.RecordEntry{Room: "f", Data: []byte("fenced"), Players: []string{"a"}, Ended: recT0})
	fenced.Epoch = eA
	if err := s.SaveRoom(ctxT(t), fenced); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("fenced finishing save: %v, want ErrFenced", err)
	}
	noRecord(t, s, "f")
}

func testRecordOnlyWithFinishedSnapshot(t *testing.T, s store.Store) {
	orig := store.Room{ID: "g", Seq: 1, Snapshot: []byte("playing"), Append: bs("create"),
		Players: []string{"a", "b"}, Live: true, UpdatedAt: t0}
	mustSave(t, s, orig)
	rec := &store.RecordEntry{Room: "g", Data: []byte("x"), Players: []string{"a"}, Ended: recT0}
	unfinished := orig
	unfinished.Seq, unfinished.Record = 2, rec
	logOnly := store.Room{ID: "g", Seq: 2, LogOnly: true, Prev: 1, Append: bs("m"), Players: []string{"a", "b"},
		Finished: true, UpdatedAt: t0, Record: rec}
	otherRoom := finishing("g", 2, &store.RecordEntry{Room: "other", Data: []byte("x"), Ended: recT0})
	empty := finishing("g", 2, &store.RecordEntry{Room: "g", Ended: recT0})
	for name, r := range map[string]store.Room{"an unfinished room": unfinished, "a log-only save": logOnly,
		"another room's record": otherRoom, "a record without data": empty} {
		if err := s.SaveRoom(ctxT(t), r); err == nil {
			t.Errorf("a save with %s was accepted", name)
		}
		checkRoom(t, mustLoad(t, s, "g"), orig)
		noRecord(t, s, "g")
		noRecord(t, s, "other")
	}
}

// testRatedSaveOwes: the save that finishes a rated game marks its room
// owed with its record (store.RecordEntry.Rated), a casual game's does not,
// and the game's Apply clears the mark; PutRecord of a rated record marks
// it too.
func testRatedSaveOwes(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	owed := func() []string {
		t.Helper()
		ids, err := s.Owed(ctx, 100)
		if err != nil {
			t.Fatalf("Owed: %v", err)
		}
		slices.Sort(ids)
		return ids
	}
	mustSave(t, s, store.Room{ID: "g", Seq: 1, Snapshot: []byte("playing"), Append: bs("create"),
		Players: []string{"a", "b"}, Live: true, UpdatedAt: t0})
	if got := owed(); len(got) != 0 {
		t.Fatalf("Owed before the end = %v, want none", got)
	}
	mustSave(t, s, finishing("g", 2, &store.RecordEntry{Room: "g", Data: []byte("record of g"),
		Players: []string{"a", "b"}, Ended: recT0, Rated: true}))
	mustSave(t, s, finishing("casual", 1, &store.RecordEntry{Room: "casual", Data: []byte("record of casual"),
		Players: []string{"a", "b"}, Ended: recT0}))
	mustRecord(t, s, "g", "record of g")
	if got := owed(); !slices.Equal(got, []string{"g"}) {
		t.Fatalf("Owed after the rated game's end = %v, want [g]", got)
	}
	g := ratings.Game{Room: "g", Pool: "go/9", Score: 1, Ended: recT0,
		Sides: [2]ratings.Side{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}}}
	if _, ok, err := s.Apply(ctx, g, func(x, y ratings.Rating) (ratings.Rating, ratings.Rating) {
		return ratings.Update(x, y, 1, recT0)
	}); err != nil || !ok {
		t.Fatalf("Apply(g) = %v, %v", ok, err)
	}
	if got := owed(); len(got) != 0 {
		t.Fatalf("Owed after Apply(g) = %v, want none", got)
	}
	if err := s.Records().PutRecord(ctx, store.RecordEntry{Room: "put", Data: []byte("record of put"),
		Players: []string{"a"}, Ended: recT0, Rated: true}); err != nil {
		t.Fatal(err)
	}
	if got := owed(); !slices.Equal(got, []string{"put"}) {
		t.Fatalf("Owed after PutRecord of a rated record = %v, want [put]", got)
	}
}
