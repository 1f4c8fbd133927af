// Package storetest is the conformance suite of store.Store: every
// implementation (memstore, redisstore) runs it, so that they keep the same
// rules.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, ttl storetest.TTLs) store.Store {
//			return memstore.New(memstore.WithRetention(ttl.Retention),
//				memstore.WithIdleRoomTTL(ttl.IdleRoom), memstore.WithGuestTTL(ttl.Guest))
//		})
//	}
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/store"
)

// Retention is the retention of finished rooms of the store of the subtest
// about their expiry, which waits for it.
const Retention = 300 * time.Millisecond

// TTLs are the expiry times a subtest's store must be configured with.
type TTLs struct {
	// Retention of finished rooms.
	Retention time.Duration
	// IdleRoom: how long an unfinished room is kept after its last save.
	IdleRoom time.Duration
	// Guest: how long an identity lives after its last use.
	Guest time.Duration
}

// Most subtests' stores keep finished rooms, unfinished rooms and guests
// for an hour, so that what a subtest saved is there when it reads it on a
// busy machine; the ones about unfinished rooms' and guests' expiry keep
// them for expiryTTL, the one about finished rooms' for Retention.
var (
	longTTLs     = TTLs{Retention: time.Hour, IdleRoom: time.Hour, Guest: time.Hour}
	expiryTTL    = 2 * time.Second
	shortTTLs    = TTLs{Retention: time.Hour, IdleRoom: expiryTTL, Guest: expiryTTL}
	retainedTTLs = TTLs{Retention: Retention, IdleRoom: time.Hour, Guest: time.Hour}
)

// Factory returns a new, empty store for one subtest, configured with ttl.
// Run closes it.
type Factory func(t *testing.T, ttl TTLs) store.Store

// Run runs every conformance subtest, each on a new store, in parallel.
func Run(t *testing.T, newStore Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"SaveLoadRoundTrip", testSaveLoadRoundTrip},
		{"SaveOverwritesSnapshot", testSaveOverwritesSnapshot},
		{"NotFound", testNotFound},
		{"StaleSeqChangesNothing", testStaleSeq},
		{"LogAppendOrder", testLogAppendOrder},
		{"CopiesBytes", testCopiesBytes},
		{"InvalidInput", testInvalidInput},
		{"LiveRoomsOrderAndLimit", testLiveRoomsOrder},
		{"LiveRoomsRemoval", testLiveRoomsRemoval},
		{"PlayerRooms", testPlayerRooms},
		{"FinishedRoomsExpire", testFinishedExpire},
		{"ConcurrentSavesDifferentRooms", testConcurrentRooms},
		{"ConcurrentSavesSameSeqOneWins", testConcurrentSameSeq},
		{"ContextCancelled", testContextCancelled},
		{"Ping", testPing},
		{"LeaseExclusive", testLeaseExclusive},
		{"LeaseTakeoverFences", testLeaseTakeoverFences},
		{"LeaseRenew", testLeaseRenew},
		{"LeaseRelease", testLeaseRelease},
		{"MatchPairs", testMatchPairs},
		{"MatchConcurrent", testMatchConcurrent},
		{"MatchRated", testMatchRated},
		{"SeatedGuestsKeepTheirIdentity", testSeatedGuestsKept},
		{"SeatedAccountsLast", testSeatedAccountsLast},
		{"IdleRoomsExpire", testIdleRoomsExpire},
		{"LogOnlyLoadIsSnapshotAndTail", testLogOnlyLoadIsSnapshotAndTail},
		{"LogOnlyStaleChangesNothing", testLogOnlyStaleChangesNothing},
		{"LogOnlyFenced", testLogOnlyFenced},
		{"LogOnlyConcurrentOneWins", testLogOnlyConcurrentOneWins},
		{"SaveWritesRecord", testSaveWritesRecord},
		{"RefusedSaveWritesNoRecord", testRefusedSaveWritesNoRecord},
		{"RecordOnlyWithFinishedSnapshot", testRecordOnlyWithFinishedSnapshot},
		{"RatedSaveOwes", testRatedSaveOwes},
		{"TorneioAnswers", testTorneioAnswers},
	}
	// The subtests about expiry run on stores whose TTLs are short.
	ttls := map[string]TTLs{"SeatedGuestsKeepTheirIdentity": shortTTLs, "SeatedAccountsLast": shortTTLs,
		"IdleRoomsExpire": shortTTLs, "FinishedRoomsExpire": retainedTTLs}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ttl, ok := ttls[tc.name]
			if !ok {
				ttl = longTTLs
			}
			s := newStore(t, ttl)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, s)
		})
	}
}

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 123456000, time.UTC)

// as returns s as the optional interface T (store.Leases, store.Matcher…),
// and fails the test when s does not implement it.
func as[T any](t *testing.T, s any) T {
	t.Helper()
	v, ok := s.(T)
	if !ok {
		t.Fatalf("%T does not implement %v", s, reflect.TypeFor[T]())
	}
	return v
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustSave(t *testing.T, s store.Store, r store.Room) {
	t.Helper()
	if err := s.SaveRoom(ctxT(t), r); err != nil {
		t.Fatalf("SaveRoom(%s, seq %d): %v", r.ID, r.Seq, err)
	}
}

func mustLoad(t *testing.T, s store.Store, id string) store.Room {
	t.Helper()
	r, err := s.LoadRoom(ctxT(t), id)
	if err != nil {
		t.Fatalf("LoadRoom(%s): %v", id, err)
	}
	return r
}

func mustLog(t *testing.T, s store.Store, id string) [][]byte {
	t.Helper()
	l, err := s.RoomLog(ctxT(t), id)
	if err != nil {
		t.Fatalf("RoomLog(%s): %v", id, err)
	}
	return l
}

func mustLive(t *testing.T, s store.Store, limit int) []string {
	t.Helper()
	ids, err := s.LiveRooms(ctxT(t), limit)
	if err != nil {
		t.Fatalf("LiveRooms(%d): %v", limit, err)
	}
	return ids
}

// checkNothingLive fails the test unless no room is live and player holds
// no unfinished room, after what happened.
func checkNothingLive(t *testing.T, s store.Store, player, after string) {
	t.Helper()
	if got := mustLive(t, s, 100); len(got) != 0 {
		t.Fatalf("LiveRooms after %s = %v, want none", after, got)
	}
	if got := mustPlayerRooms(t, s, player); len(got) != 0 {
		t.Fatalf("PlayerRooms(%s) after %s = %v, want none", player, after, got)
	}
}

func mustPlayerRooms(t *testing.T, s store.Store, player string) []string {
	t.Helper()
	ids, err := s.PlayerRooms(ctxT(t), player)
	if err != nil {
		t.Fatalf("PlayerRooms(%s): %v", player, err)
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return ids
}

func bs(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func equalLog(a, b [][]byte) bool {
	return slices.EqualFunc(a, b, bytes.Equal)
}

func checkRoom(t *testing.T, got, want store.Room) {
	t.Helper()
	if got.ID != want.ID || got.Seq != want.Seq || !bytes.Equal(got.Snapshot, want.Snapshot) ||
		!slices.Equal(got.Players, want.Players) || got.Live != want.Live || got.Finished != want.Finished ||
		!got.UpdatedAt.Equal(want.UpdatedAt.Truncate(time.Microsecond)) || len(got.Append) != 0 {
		t.Fatalf("loaded room\n got %+v\nwant %+v (Append empty, UpdatedAt to the microsecond)", got, want)
	}
}

func testSaveLoadRoundTrip(t *testing.T, s store.Store) {
	cases := []store.Room{
		{ID: "r1", Seq: 1, Snapshot: []byte(`{"game":"orbito"}`), Append: bs("join a", "join b"),
			Players: []string{"pa", "pb"}, Live: true, UpdatedAt: t0},
		{ID: "binary", Seq: 7, Snapshot: []byte{0, 1, 2, 0xff, 0xfe, '\n', 0, '{', '}'},
			Append: [][]byte{{0, 0xff}, {}, []byte("x")}, Players: []string{"p1"}, UpdatedAt: t0.Add(time.Nanosecond)},
		{ID: "empty snapshot, no players", Seq: 0, UpdatedAt: t0},
		{ID: "finished", Seq: 3, Snapshot: []byte("end"), Players: []string{"pa"}, Finished: true, UpdatedAt: t0},
		{ID: "zero time", Seq: 2, Snapshot: []byte("s")},
		{ID: "ünïcödé:room/with spaces", Seq: 1 << 40, Snapshot: []byte("big seq"), Live: true, UpdatedAt: t0},
	}
	for _, r := range cases {
		mustSave(t, s, r)
		checkRoom(t, mustLoad(t, s, r.ID), r)
		if got := mustLog(t, s, r.ID); !equalLog(got, r.Append) {
			t.Fatalf("RoomLog(%s) = %q, want %q", r.ID, got, r.Append)
		}
	}
}

func testSaveOverwritesSnapshot(t *testing.T, s store.Store) {
	r := store.Room{ID: "r", Seq: 1, Snapshot: []byte("one"), Players: []string{"a", "b"}, Live: true, UpdatedAt: t0}
	mustSave(t, s, r)
	r2 := store.Room{ID: "r", Seq: 5, Snapshot: []byte("two"), Players: []string{"b"}, UpdatedAt: t0.Add(time.Minute)}
	mustSave(t, s, r2)
	checkRoom(t, mustLoad(t, s, "r"), r2)
}

func testNotFound(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	if _, err := s.LoadRoom(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LoadRoom(missing) error = %v, want ErrNotFound", err)
	}
	if _, err := s.RoomLog(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RoomLog(missing) error = %v, want ErrNotFound", err)
	}
	if _, err := s.PlayerByToken(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PlayerByToken(missing) error = %v, want ErrNotFound", err)
	}
	if ids, err := s.PlayerRooms(ctx, "nobody"); err != nil || len(ids) != 0 {
		t.Errorf("PlayerRooms(unknown) = %v, %v; want empty, nil", ids, err)
	}
	if ids, err := s.LiveRooms(ctx, 10); err != nil || len(ids) != 0 {
		t.Errorf("LiveRooms on an empty store = %v, %v; want empty, nil", ids, err)
	}
	// A room with no log entries exists: its log is empty, not missing.
	mustSave(t, s, store.Room{ID: "nolog", Seq: 1, Snapshot: []byte("s")})
	if got := mustLog(t, s, "nolog"); len(got) != 0 {
		t.Errorf("RoomLog(room without entries) = %q, want empty", got)
	}
}

func testStaleSeq(t *testing.T, s store.Store) {
	orig := store.Room{ID: "r", Seq: 5, Snapshot: []byte("at 5"), Append: bs("m1", "m2"),
		Players: []string{"a", "b"}, Live: true, UpdatedAt: t0}
	mustSave(t, s, orig)
	mustSave(t, s, store.Room{ID: "other", Seq: 1, Live: true, UpdatedAt: t0.Add(-time.Hour)})

	for _, seq := range []int64{5, 4, 0} {
		stale := store.Room{ID: "r", Seq: seq, Snapshot: []byte(fmt.Sprintf("stale %d", seq)),
			Append: bs("stale move"), Players: []string{"a", "c"}, Live: true, UpdatedAt: t0.Add(-2 * time.Hour)}
		err := s.SaveRoom(ctxT(t), stale)
		if !errors.Is(err, store.ErrStaleSeq) {
			t.Fatalf("SaveRoom(seq %d over stored 5) error = %v, want ErrStaleSeq", seq, err)
		}
		checkRoom(t, mustLoad(t, s, "r"), orig)
		if got := mustLog(t, s, "r"); !equalLog(got, orig.Append) {
			t.Fatalf("log after stale save = %q, want %q", got, orig.Append)
		}
		if got := mustPlayerRooms(t, s, "c"); len(got) != 0 {
			t.Fatalf("PlayerRooms(c) after a stale save seating c = %v, want empty", got)
		}
		if got := mustPlayerRooms(t, s, "b"); !slices.Equal(got, []string{"r"}) {
			t.Fatalf("PlayerRooms(b) after a stale save without b = %v, want [r]", got)
		}
		if got := mustLive(t, s, 10); !slices.Equal(got, []string{"r", "other"}) {
			t.Fatalf("LiveRooms after a stale save with an older time = %v, want [r other]", got)
		}
	}
	// The next seq is accepted.
	next := store.Room{ID: "r", Seq: 6, Snapshot: []byte("at 6"), Append: bs("m3"), Players: []string{"a", "b"}, Live: true, UpdatedAt: t0}
	mustSave(t, s, next)
	checkRoom(t, mustLoad(t, s, "r"), next)
}

func testLogAppendOrder(t *testing.T, s store.Store) {
	var want [][]byte
	seq := int64(0)
	for i, n := range []int{2, 1, 0, 5, 1, 0, 0, 3} {
		seq += int64(1 + i%3) // seqs may skip
		var app [][]byte
		for j := range n {
			app = append(app, []byte(fmt.Sprintf("save %d entry %d", i, j)))
		}
		want = append(want, app...)
		mustSave(t, s, store.Room{ID: "r", Seq: seq, Snapshot: []byte(fmt.Sprint(i)), Append: app, UpdatedAt: t0})
		if got := mustLog(t, s, "r"); !equalLog(got, want) {
			t.Fatalf("after save %d: log = %q, want %q", i, got, want)
		}
	}
	// A large append in one save keeps its order too.
	var big [][]byte
	for j := range 10000 {
		big = append(big, []byte(fmt.Sprint(j)))
	}
	want = append(want, big...)
	mustSave(t, s, store.Room{ID: "r", Seq: seq + 1, Append: big, UpdatedAt: t0})
	if got := mustLog(t, s, "r"); !equalLog(got, want) {
		t.Fatalf("after a save of %d entries: log has %d entries, want %d (or order differs)", len(big), len(got), len(want))
	}
}

func testCopiesBytes(t *testing.T, s store.Store) {
	snap := []byte("snapshot")
	entry := []byte("entry")
	players := []string{"a"}
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: snap, Append: [][]byte{entry}, Players: players, UpdatedAt: t0})
	snap[0], entry[0], players[0] = 'X', 'X', "X"

	got := mustLoad(t, s, "r")
	if string(got.Snapshot) != "snapshot" || !slices.Equal(got.Players, []string{"a"}) {
		t.Fatalf("the store kept the caller's slices: %q %v", got.Snapshot, got.Players)
	}
	got.Snapshot[0] = 'Y'
	got.Players[0] = "Y"
	l := mustLog(t, s, "r")
	if string(l[0]) != "entry" {
		t.Fatalf("the store kept the caller's log entry: %q", l[0])
	}
	l[0][0] = 'Y'
	if again := mustLoad(t, s, "r"); string(again.Snapshot) != "snapshot" || again.Players[0] != "a" {
		t.Fatalf("LoadRoom returned the store's own slices: %q %v", again.Snapshot, again.Players)
	}
	if again := mustLog(t, s, "r"); string(again[0]) != "entry" {
		t.Fatalf("RoomLog returned the store's own slices: %q", again[0])
	}
}

func testInvalidInput(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	if err := s.SaveRoom(ctx, store.Room{ID: "", Seq: 1}); err == nil {
		t.Error("SaveRoom with an empty id succeeded")
	}
	if err := s.SaveRoom(ctx, store.Room{ID: "neg", Seq: -1}); err == nil {
		t.Error("SaveRoom with a negative seq succeeded")
	}
	if ids := mustLive(t, s, 0); len(ids) != 0 {
		t.Errorf("LiveRooms(0) = %v, want empty", ids)
	}
}

func testLiveRoomsOrder(t *testing.T, s store.Store) {
	// Saved in an order different from their times.
	at := map[string]time.Duration{"c": 3, "a": 1, "e": 5, "b": 2, "d": 4}
	for _, id := range []string{"c", "a", "e", "b", "d"} {
		mustSave(t, s, store.Room{ID: id, Seq: 1, Live: true, UpdatedAt: t0.Add(at[id] * time.Second)})
	}
	mustSave(t, s, store.Room{ID: "private", Seq: 1, Live: false, UpdatedAt: t0.Add(time.Hour)})
	if got, want := mustLive(t, s, 10), []string{"e", "d", "c", "b", "a"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms(10) = %v, want %v", got, want)
	}
	if got, want := mustLive(t, s, 2), []string{"e", "d"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms(2) = %v, want %v", got, want)
	}
	// Activity moves a room to the front; times a microsecond apart order.
	mustSave(t, s, store.Room{ID: "a", Seq: 2, Live: true, UpdatedAt: t0.Add(5*time.Second + time.Microsecond)})
	if got, want := mustLive(t, s, 3), []string{"a", "e", "d"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms(3) after activity in a = %v, want %v", got, want)
	}
}

func testLiveRoomsRemoval(t *testing.T, s store.Store) {
	for i, id := range []string{"a", "b", "c"} {
		mustSave(t, s, store.Room{ID: id, Seq: 1, Live: true, UpdatedAt: t0.Add(time.Duration(i) * time.Second)})
	}
	mustSave(t, s, store.Room{ID: "b", Seq: 2, Live: false, UpdatedAt: t0.Add(time.Minute)})
	if got, want := mustLive(t, s, 10), []string{"c", "a"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms after b went private = %v, want %v", got, want)
	}
	// Finished removes a room even if Live is (wrongly) still set.
	mustSave(t, s, store.Room{ID: "c", Seq: 2, Live: true, Finished: true, UpdatedAt: t0.Add(time.Minute)})
	if got, want := mustLive(t, s, 10), []string{"a"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms after c finished = %v, want %v", got, want)
	}
	mustSave(t, s, store.Room{ID: "b", Seq: 3, Live: true, UpdatedAt: t0.Add(2 * time.Minute)})
	if got, want := mustLive(t, s, 10), []string{"b", "a"}; !slices.Equal(got, want) {
		t.Fatalf("LiveRooms after b went live again = %v, want %v", got, want)
	}
}

func testPlayerRooms(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "r1", Seq: 1, Players: []string{"a", "b"}, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "r2", Seq: 1, Players: []string{"a"}, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "r3", Seq: 1, Players: []string{"c"}, Finished: true, UpdatedAt: t0})
	check := func(player string, want ...string) {
		t.Helper()
		if got := mustPlayerRooms(t, s, player); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("PlayerRooms(%s) = %v, want %v", player, got, want)
		}
	}
	check("a", "r1", "r2")
	check("b", "r1")
	check("c") // finished from its first save

	// c sits down in r2; b leaves r1.
	mustSave(t, s, store.Room{ID: "r2", Seq: 2, Players: []string{"a", "c"}, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "r1", Seq: 2, Players: []string{"a"}, UpdatedAt: t0})
	check("a", "r1", "r2")
	check("b")
	check("c", "r2")

	// r2 finishes: it leaves every seated player's rooms.
	mustSave(t, s, store.Room{ID: "r2", Seq: 3, Players: []string{"a", "c"}, Finished: true, UpdatedAt: t0})
	check("a", "r1")
	check("c")
}

func testFinishedExpire(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "keep", Seq: 1, Snapshot: []byte("k"), Append: bs("k1"), Players: []string{"a"}, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("s1"), Append: bs("m1"), Players: []string{"a"}, Live: true, UpdatedAt: t0})

	start := time.Now()
	mustSave(t, s, store.Room{ID: "r", Seq: 2, Snapshot: []byte("s2"), Append: bs("m2"), Players: []string{"a"}, Finished: true, UpdatedAt: t0})
	saved := time.Now()
	// Right after the save the finished room is still there (checked only
	// if this machine was quick enough for the check to mean something).
	r, loadErr := s.LoadRoom(ctxT(t), "r")
	l, logErr := s.RoomLog(ctxT(t), "r")
	if time.Since(start) < Retention {
		if loadErr != nil || string(r.Snapshot) != "s2" || !r.Finished {
			t.Fatalf("finished room right after its save: %+v, %v", r, loadErr)
		}
		if logErr != nil || !equalLog(l, bs("m1", "m2")) {
			t.Fatalf("finished room's log right after its save: %q, %v", l, logErr)
		}
	}
	if got := mustLive(t, s, 10); len(got) != 0 {
		t.Fatalf("LiveRooms after the only live room finished = %v", got)
	}
	if got := mustPlayerRooms(t, s, "a"); !slices.Equal(got, []string{"keep"}) {
		t.Fatalf("PlayerRooms(a) = %v, want [keep]", got)
	}

	time.Sleep(time.Until(saved.Add(Retention + 100*time.Millisecond)))
	if _, err := s.LoadRoom(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LoadRoom of a finished room after the retention: error %v, want ErrNotFound", err)
	}
	if _, err := s.RoomLog(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RoomLog of a finished room after the retention: error %v, want ErrNotFound", err)
	}
	// Unfinished rooms do not expire.
	if got := mustLoad(t, s, "keep"); string(got.Snapshot) != "k" {
		t.Fatalf("unfinished room changed: %+v", got)
	}
	if got := mustLog(t, s, "keep"); !equalLog(got, bs("k1")) {
		t.Fatalf("unfinished room's log changed: %q", got)
	}
	// The id may be used again, from any seq.
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("new"), UpdatedAt: t0})
	if got := mustLog(t, s, "r"); len(got) != 0 {
		t.Fatalf("a new room under an expired id has the old log: %q", got)
	}
}

func testConcurrentRooms(t *testing.T, s store.Store) {
	const rooms, saves = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, rooms*saves)
	for i := range rooms {
		wg.Go(func() {
			id := fmt.Sprintf("room-%d", i)
			for seq := int64(1); seq <= saves; seq++ {
				r := store.Room{ID: id, Seq: seq, Snapshot: []byte(fmt.Sprint(seq)),
					Append: bs(fmt.Sprintf("%s move %d", id, seq)), Players: []string{fmt.Sprintf("p%d", i), "shared"},
					Live: seq < saves, Finished: seq == saves, UpdatedAt: t0.Add(time.Duration(seq) * time.Second)}
				if err := s.SaveRoom(context.Background(), r); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range rooms {
		id := fmt.Sprintf("room-%d", i)
		r := mustLoad(t, s, id)
		if r.Seq != saves || string(r.Snapshot) != fmt.Sprint(saves) || !r.Finished {
			t.Fatalf("%s: %+v", id, r)
		}
		l := mustLog(t, s, id)
		if len(l) != saves {
			t.Fatalf("%s: log has %d entries, want %d", id, len(l), saves)
		}
		for j, e := range l {
			if want := fmt.Sprintf("%s move %d", id, j+1); string(e) != want {
				t.Fatalf("%s: entry %d = %q, want %q", id, j, e, want)
			}
		}
	}
	checkNothingLive(t, s, "shared", "every room finished")
}

func testConcurrentSameSeq(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("base"), UpdatedAt: t0})
	const writers = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, stale := -1, 0
	for w := range writers {
		wg.Go(func() {
			err := s.SaveRoom(context.Background(), store.Room{ID: "r", Seq: 2,
				Snapshot: []byte(fmt.Sprintf("writer %d", w)), Append: bs(fmt.Sprintf("writer %d", w)), UpdatedAt: t0})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				if won >= 0 {
					t.Errorf("writers %d and %d both saved seq 2", won, w)
				}
				won = w
			case errors.Is(err, store.ErrStaleSeq):
				stale++
			default:
				t.Errorf("writer %d: %v", w, err)
			}
		})
	}
	wg.Wait()
	if won < 0 || stale != writers-1 {
		t.Fatalf("winner %d, stale %d; want one winner and %d stale", won, stale, writers-1)
	}
	want := fmt.Sprintf("writer %d", won)
	if r := mustLoad(t, s, "r"); string(r.Snapshot) != want {
		t.Fatalf("snapshot %q, want the winner's %q", r.Snapshot, want)
	}
	if l := mustLog(t, s, "r"); !equalLog(l, bs(want)) {
		t.Fatalf("log %q, want only the winner's entry", l)
	}
}

func testContextCancelled(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "r", Seq: 1, Snapshot: []byte("s"), Live: true, UpdatedAt: t0})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"SaveRoom": func() error {
			return s.SaveRoom(ctx, store.Room{ID: "r", Seq: 2, Snapshot: []byte("cancelled"), Append: bs("x"), UpdatedAt: t0})
		},
		"LoadRoom":    func() error { _, err := s.LoadRoom(ctx, "r"); return err },
		"RoomLog":     func() error { _, err := s.RoomLog(ctx, "r"); return err },
		"LiveRooms":   func() error { _, err := s.LiveRooms(ctx, 10); return err },
		"PlayerRooms": func() error { _, err := s.PlayerRooms(ctx, "p"); return err },
		"Ping":        func() error { return s.Ping(ctx) },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", name, err)
		}
	}
	// Nothing was written.
	if r := mustLoad(t, s, "r"); r.Seq != 1 || string(r.Snapshot) != "s" {
		t.Fatalf("a cancelled SaveRoom changed the room: %+v", r)
	}
	if l := mustLog(t, s, "r"); len(l) != 0 {
		t.Fatalf("a cancelled SaveRoom appended: %q", l)
	}
	if _, err := s.PlayerByToken(ctxT(t), "h"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a cancelled SavePlayer saved: %v", err)
	}
	// An expired deadline too.
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if _, err := s.LoadRoom(dctx, "r"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("LoadRoom past its deadline: error %v, want context.DeadlineExceeded", err)
	}
}

func testPing(t *testing.T, s store.Store) {
	if err := s.Ping(ctxT(t)); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// sleepUntil sleeps until t.
func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

// testSeatedGuestsKept: a player who says no hello but is seated in an
// unfinished room keeps its identity as long as the room is saved, and its
// room stays in its unfinished rooms.
func testSeatedGuestsKept(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	p := players.Identity{ID: players.GuestID("seated"), Name: "Ana", TokenHash: "seated"}
	if err := s.SavePlayer(ctx, p, false); err != nil {
		t.Fatal(err)
	}
	saved := time.Now()
	mustSave(t, s, store.Room{ID: "game", Seq: 1, Players: []string{p.ID}, Live: true, UpdatedAt: t0})
	// The opponent moves now and then; the player says nothing.
	sleepUntil(saved.Add(expiryTTL * 2 / 3))
	mustSave(t, s, store.Room{ID: "game", Seq: 2, Players: []string{p.ID}, Live: true, UpdatedAt: t0.Add(time.Second)})
	moved := time.Now()
	sleepUntil(saved.Add(expiryTTL + expiryTTL/4))
	if time.Since(moved) < expiryTTL { // checked only if the machine kept time
		if got, err := s.PlayerByToken(ctx, "seated"); err != nil || got != p {
			t.Fatalf("a seated player's identity past the guest TTL from its save: %+v, %v; want kept by the room's saves", got, err)
		}
		if got := mustPlayerRooms(t, s, p.ID); !slices.Equal(got, []string{"game"}) {
			t.Fatalf("PlayerRooms of the seated player = %v, want [game]", got)
		}
	}
}

// testIdleRoomsExpire: an unfinished room that no save touches for the
// idle-room TTL is gone (snapshot, log, indexes); each save starts the TTL
// again.
func testIdleRoomsExpire(t *testing.T, s store.Store) {
	mustSave(t, s, store.Room{ID: "waiting", Seq: 1, Snapshot: []byte("w"), Append: bs("c"), Players: []string{"a"}, Live: true, UpdatedAt: t0})
	mustSave(t, s, store.Room{ID: "playing", Seq: 1, Snapshot: []byte("p1"), Append: bs("m1"), Players: []string{"a"}, Live: true, UpdatedAt: t0})
	saved := time.Now()
	sleepUntil(saved.Add(expiryTTL / 2))
	mustSave(t, s, store.Room{ID: "playing", Seq: 2, Snapshot: []byte("p2"), Append: bs("m2"), Players: []string{"a"}, Live: true, UpdatedAt: t0.Add(time.Second)})
	moved := time.Now()
	sleepUntil(saved.Add(expiryTTL + expiryTTL/4))
	if _, err := s.LoadRoom(ctxT(t), "waiting"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LoadRoom of a room idle past the TTL: error %v, want ErrNotFound", err)
	}
	if _, err := s.RoomLog(ctxT(t), "waiting"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RoomLog of a room idle past the TTL: error %v, want ErrNotFound", err)
	}
	if time.Since(moved) < expiryTTL { // checked only if the machine kept time
		if got := mustLoad(t, s, "playing"); string(got.Snapshot) != "p2" {
			t.Fatalf("a room saved within the TTL: %+v", got)
		}
		if got := mustLive(t, s, 10); !slices.Equal(got, []string{"playing"}) {
			t.Fatalf("LiveRooms = %v, want [playing]", got)
		}
		if got := mustPlayerRooms(t, s, "a"); !slices.Equal(got, []string{"playing"}) {
			t.Fatalf("PlayerRooms(a) = %v, want [playing]", got)
		}
	}
	sleepUntil(moved.Add(expiryTTL + expiryTTL/4))
	if _, err := s.LoadRoom(ctxT(t), "playing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LoadRoom of a room idle past the TTL after its last save: error %v, want ErrNotFound", err)
	}
	checkNothingLive(t, s, "a", "every room expired")
}

// testDerivedPlayerIDs: PlayerID is a function of the token hash alone, ids
// of different hashes differ, and a player saved under its derived id is
// found by token; so is one saved under another id (made before).

// testSeatedAccountsLast checks that the saves of a room an account is
// seated in leave the account without an expiry: it outlives the guest TTL
// with nothing renewing it.
func testSeatedAccountsLast(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	g := players.Identity{ID: players.GuestID("acct"), Name: "ana", TokenHash: "acct"}
	if err := s.SavePlayer(ctx, g, false); err != nil {
		t.Fatal(err)
	}
	a := players.Identity{ID: g.ID, Name: "ana", PasswordHash: "$argon2id$x", Joined: 1}
	if err := s.CreateAccount(ctx, a, g.TokenHash); err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, store.Room{ID: "game", Seq: 1, Players: []string{a.ID}, Live: true, UpdatedAt: t0})
	sleepUntil(time.Now().Add(expiryTTL + expiryTTL/4))
	if got, err := s.PlayerByID(ctx, a.ID); err != nil || got != a {
		t.Fatalf("an account seated in a saved room, past the guest TTL: %+v, %v; want it kept", got, err)
	}
}
