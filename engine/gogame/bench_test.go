package gogame

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// midgame returns a 9x9 game after 40 random legal moves.
func midgame(b *testing.B) *state {
	s := mustNew(b, "9", "")
	rng := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		seat, _ := s.Turn()
		legal := s.Legal(seat)
		legal = legal[:len(legal)-1] // no pass: keep the game going
		if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkApply plays one legal move on a clone of a 9x9 middle game
// (the clone is outside the timing).
func BenchmarkApply(b *testing.B) {
	s := midgame(b)
	seat, _ := s.Turn()
	move := s.Legal(seat)[0]
	for b.Loop() {
		b.StopTimer()
		c := s.Clone()
		b.StartTimer()
		if err := c.Apply(seat, move); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegal lists the legal moves of a 9x9 middle game.
func BenchmarkLegal(b *testing.B) {
	s := midgame(b)
	seat, _ := s.Turn()
	for b.Loop() {
		if len(s.Legal(seat)) == 0 {
			b.Fatal("no legal moves")
		}
	}
}

// BenchmarkRandomGame plays a whole 9x9 game on the rules board (superko
// included) with uniformly random legal moves, passes included.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	for b.Loop() {
		s := mustNew(b, "9", "")
		for ply := 0; !s.over() && ply < 1000; ply++ {
			seat, _ := s.Turn()
			legal := s.Legal(seat)
			if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMCTS9x9 is one move of the MCTS bot from the empty 9x9 board
// with 10,000 playouts on one thread; playouts/s = 10,000 / (s/op).
func BenchmarkMCTS9x9(b *testing.B) {
	s := mustNew(b, "9", "")
	bot := mctsBot(mctsLevel{playouts: 10000, threads: 1})
	i := 0
	for b.Loop() {
		if _, err := bot(s.Clone(), 0, rand.New(rand.NewPCG(uint64(i), 3)), time.Time{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(10000*i)/b.Elapsed().Seconds(), "playouts/s")
}

// roomGame returns a 19x19 game after plies random legal moves (passes
// left out so the game goes on), as a room of two humans would reach it,
// and the next window moves of the game.
func roomGame(b *testing.B, plies, window int) (*state, []string) {
	s := mustNew(b, "19", "")
	rng := rand.New(rand.NewPCG(19, uint64(plies)))
	var start *state
	for ply := 0; ply < plies+window; ply++ {
		if ply == plies {
			start = s.Clone().(*state)
		}
		seat, _ := s.Turn()
		legal := s.Legal(seat)
		legal = legal[:len(legal)-1] // no pass: keep the game going
		if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return start, s.moves[plies:]
}

// roomPositions are the stages of a 19x19 game the room benchmarks time:
// the window of moves after the middle game's 100 moves or the late
// game's 280.
var roomPositions = []struct {
	name          string
	plies, window int
}{{"mid", 100, 40}, {"late", 280, 40}}

// BenchmarkRoomMove19 is what a room asks of the engine on every move of a
// 19x19 game (rooms/room.go): Apply, then Turn, Legal for the side to
// move, Score, Board, Extra, Outcome and the snapshot (MarshalJSON). The
// ops play the 40 moves of the window one after the other on one state,
// as a room does; after the window the state is cloned again from its
// start, outside the timing. The 200rooms variants play the window on 200
// states in turn, one move each, so that each state is as cold in the
// caches as a room's among 200 busy ones.
func BenchmarkRoomMove19(b *testing.B) {
	for _, pos := range roomPositions {
		for _, rooms := range []int{1, 200} {
			name := pos.name
			if rooms > 1 {
				name += fmt.Sprintf("/%drooms", rooms)
			}
			b.Run(name, func(b *testing.B) {
				start, moves := roomGame(b, pos.plies, pos.window)
				states := make([]*state, rooms)
				i, r := len(moves), 0
				for b.Loop() {
					if i == len(moves) {
						b.StopTimer()
						for k := range states {
							states[k] = start.Clone().(*state)
						}
						i, r = 0, 0
						b.StartTimer()
					}
					roomMove(b, states[r], moves[i])
					if r++; r == rooms {
						r, i = 0, i+1
					}
				}
			})
		}
	}
}

// roomMove is what a room asks of the engine for one move.
func roomMove(b *testing.B, s *state, move string) {
	seat, _ := s.Turn()
	if err := s.Apply(seat, move); err != nil {
		b.Fatal(err)
	}
	t, _ := s.Turn()
	if len(s.Legal(t)) == 0 {
		b.Fatal("no legal moves")
	}
	_ = s.Score()
	_ = s.Board()
	_ = s.Extra()
	if s.Outcome().Over {
		b.Fatal("game over")
	}
	if _, err := s.MarshalJSON(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRoomCalls19 breaks BenchmarkRoomMove19 down: each read-only
// call alone on the position after the first move of the window, and
// Clone (bots search on clones; rooms cloned before every Apply until
// they restored a failed move from their last save instead).
func BenchmarkRoomCalls19(b *testing.B) {
	for _, pos := range roomPositions {
		s, moves := roomGame(b, pos.plies, pos.window)
		seat, _ := s.Turn()
		if err := s.Apply(seat, moves[0]); err != nil {
			b.Fatal(err)
		}
		t, _ := s.Turn()
		for _, call := range []struct {
			name string
			f    func()
		}{
			{"Legal", func() { s.Legal(t) }},
			{"Score", func() { s.Score() }},
			{"Board", func() { s.Board() }},
			{"Extra", func() { s.Extra() }},
			{"MarshalJSON", func() { s.MarshalJSON() }},
			{"Clone", func() { s.Clone() }},
		} {
			b.Run(pos.name+"/"+call.name, func(b *testing.B) {
				for b.Loop() {
					call.f()
				}
			})
		}
	}
}
