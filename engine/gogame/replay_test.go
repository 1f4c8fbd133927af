package gogame

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// replayPlies is the length of the fixed game of BenchmarkReplay19 before
// its two closing passes.
const replayPlies = 400

// fixedGame19 returns a fixed 19x19 game: replayPlies moves drawn from a
// seeded random source among the legal stones of each position (a pass only
// when no stone is legal), then two passes. It depends only on the rules,
// so every version of the engine plays the same game.
func fixedGame19(tb testing.TB) []string {
	tb.Helper()
	s, err := Game().New("19", nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20, 19))
	var moves []string
	for range replayPlies {
		seat, _ := s.Turn()
		legal := s.Legal(seat)
		m := legal[len(legal)-1]
		if len(legal) > 1 {
			m = legal[rng.IntN(len(legal)-1)]
		}
		if err := s.Apply(seat, m); err != nil {
			tb.Fatal(err)
		}
		moves = append(moves, m)
	}
	return append(moves, Pass, Pass)
}

// replayRoomCalls plays moves from the empty 19x19 board, asking after each
// move what a room asks of the engine for room.state: Turn, Legal of the
// side to move, Score, Board, Extra and Outcome. It returns the number of
// legal moves listed, so that nothing is optimised away. It is the
// function that callgrind counts (docs/engines/go.md, "Cost per room
// move"), so it is never inlined.
//
//go:noinline
func replayRoomCalls(tb testing.TB, moves []string) int {
	st, err := Game().New("19", nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	listed := 0
	for _, m := range moves {
		seat, _ := st.Turn()
		if err := st.Apply(seat, m); err != nil {
			tb.Fatalf("%s: %v", m, err)
		}
		if t, ok := st.Turn(); ok {
			listed += len(st.Legal(t))
		}
		_ = st.Score()
		_ = st.Board()
		_ = st.Extra()
		if st.Outcome().Over && m != Pass {
			tb.Fatalf("the game ended after %s", m)
		}
	}
	return listed
}

// BenchmarkReplay19 replays the fixed 19x19 game of fixedGame19 with a
// room's calls after every move (replayRoomCalls); ns/move is the cost of a
// move. Under callgrind it counts the instructions of a move, which do not
// depend on the machine's load:
//
//	go test -c -o /tmp/gogame.test ./engine/gogame/
//	GOGC=off valgrind --tool=callgrind --toggle-collect='*gogame.replayRoomCalls' \
//	  /tmp/gogame.test -test.run '^$' -test.bench '^BenchmarkReplay19$' -test.benchtime 1x
func BenchmarkReplay19(b *testing.B) {
	moves := fixedGame19(b)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if replayRoomCalls(b, moves) == 0 {
			b.Fatal("no legal moves listed")
		}
	}
	runtime.ReadMemStats(&after)
	n := float64(b.N * len(moves))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/move")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/move")
}
