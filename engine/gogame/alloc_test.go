package gogame

import (
	"runtime"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// roomCalls is what a room asks of the engine for one move: Apply, then
// Turn, Legal of the side to move, Score, Board, Extra and Outcome.
func roomCalls(tb testing.TB, st engine.State, move string) {
	seat, _ := st.Turn()
	if err := st.Apply(seat, move); err != nil {
		tb.Fatalf("%s: %v", move, err)
	}
	roomReads(tb, st)
}

// roomReads is the reading part of roomCalls.
func roomReads(tb testing.TB, st engine.State) {
	if t, ok := st.Turn(); ok && len(st.Legal(t)) == 0 {
		tb.Fatal("no legal moves")
	}
	_, _, _ = st.Score(), st.Board(), st.Extra()
	_ = st.Outcome()
}

// TestRoomMoveAllocations plays the fixed 19x19 game of BenchmarkReplay19
// with a room's calls after every move and counts the allocations of each
// move. The first move makes the state's lists and maps; after it a move
// allocates nothing but the amortized growth of what a game keeps (the
// move list and its JSON, the set of positions seen, the board rows'
// arena, the captures' buffer): a few moves in a hundred, one or two
// objects each. The move that ends the game is not counted: it makes the
// final area view once (Extra's "area").
func TestRoomMoveAllocations(t *testing.T) {
	moves := fixedGame19(t)
	st, err := Game().New("19", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as testing.AllocsPerRun
	per := make([]uint64, len(moves))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for i, m := range moves {
		before := ms.Mallocs
		roomCalls(t, st, m)
		runtime.ReadMemStats(&ms)
		per[i] = ms.Mallocs - before
	}
	total, allocating := uint64(0), 0
	for i, n := range per[1 : len(per)-1] {
		total += n
		if n > 0 {
			allocating++
		}
		if n > 3 {
			t.Errorf("move %d (%s) allocated %d objects", i+2, moves[i+1], n)
		}
	}
	t.Logf("first move %d allocations; the %d others but the last %d in all (%.3f a move), in %d moves",
		per[0], len(moves)-2, total, float64(total)/float64(len(moves)-2), allocating)
	if total > uint64(len(moves))/8 || allocating > len(moves)/10 {
		t.Errorf("%d allocations in %d of %d moves: more than the amortized growth of a game's records", total, allocating, len(moves)-1)
	}
}

// TestRoomMoveAllocsPerRun is testing.AllocsPerRun's view of the same: a
// move with a room's calls allocates less than one object on average, in
// the middle and at the end of the game; and once read after a move, the
// reads allocate nothing at all.
func TestRoomMoveAllocsPerRun(t *testing.T) {
	moves := fixedGame19(t)
	for _, window := range []struct {
		name       string
		start, end int
	}{{"opening", 1, 100}, {"middle", 100, 250}, {"end", 250, len(moves)}} {
		st, err := Game().New("19", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves[:window.start] {
			roomCalls(t, st, m)
		}
		i := window.start
		// AllocsPerRun calls the function once more than runs.
		if n := testing.AllocsPerRun(window.end-window.start-1, func() {
			roomCalls(t, st, moves[i])
			i++
		}); n != 0 {
			t.Errorf("%s: %v allocations a move", window.name, n)
		}
		if n := testing.AllocsPerRun(10, func() { roomReads(t, st) }); n != 0 {
			t.Errorf("%s: the reads again allocate %v", window.name, n)
		}
	}
}
