package g2048

import (
	"math/rand/v2"
	"testing"
	"time"
)

// midGame returns a solo game after 150 random moves (or at its end).
func midGame(b *testing.B) *state {
	b.Helper()
	s := newState(b, VariantSolo, "", 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 150 {
		legal := s.Legal(0)
		if len(legal) == 0 {
			break
		}
		if err := s.Apply(0, legal[rng.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkApply plays moves for seat 0, trying N, E, S, W in turn
// (refusals included) and starting a new game when one ends.
func BenchmarkApply(b *testing.B) {
	s := newState(b, VariantSolo, "", 1)
	moves := [4]string{"N", "E", "S", "W"}
	i := 0
	for b.Loop() {
		if s.Apply(0, moves[i&3]) != nil && s.Outcome().Over {
			s = newState(b, VariantSolo, "", uint64(i))
		}
		i++
	}
}

func BenchmarkLegal(b *testing.B) {
	s := midGame(b)
	for b.Loop() {
		if len(s.Legal(0)) == 0 {
			b.Fatal("no legal move")
		}
	}
}

// BenchmarkRandomGame plays a whole solo game with random legal moves.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	seed := uint64(0)
	for b.Loop() {
		s := newState(b, VariantSolo, "", seed)
		seed++
		for {
			legal := s.Legal(0)
			if len(legal) == 0 {
				break
			}
			if err := s.Apply(0, legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkMarshalJSON(b *testing.B) {
	s := midGame(b)
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRestore(b *testing.B) {
	snap := snapshot(b, midGame(b))
	for b.Loop() {
		if _, err := Game().Restore(snap); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBitboardMove(b *testing.B) {
	s := midGame(b)
	bb := bitboardOf(&s.boards[0].grid)
	i := 0
	for b.Loop() {
		next, _ := bb.Move(directions[i&3])
		bb ^= next & 1 // keep the result alive without changing the position much
		i++
	}
}

func BenchmarkGuloso(b *testing.B) {
	s := midGame(b)
	bot := gulosoBot(b)
	for b.Loop() {
		if _, err := bot(s, 0, nil, time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkForte is one decision of level forte on the position of
// BenchmarkGuloso, with the service's deadline far away.
func BenchmarkForte(b *testing.B) {
	s := midGame(b)
	bot := forteBot(b)
	for b.Loop() {
		if _, err := bot(s, 0, nil, time.Now().Add(2*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkForteGame plays b.N whole solo games of level forte (seeds 0,
// 1, ...; run it with -benchtime 20x for 20 games) and reports the mean
// score, the share of games reaching 8192 and 16384, and the mean
// milliseconds a move (the bot's own time, the engine's excluded).
func BenchmarkForteGame(b *testing.B) {
	bot := forteBot(b)
	var games, score, reach8192, reach16384, moves int
	var thinking time.Duration
	for b.Loop() {
		s := newState(b, VariantSolo, "", uint64(games))
		for !s.Outcome().Over {
			start := time.Now()
			m, err := bot(s.Clone(), 0, nil, start.Add(2*time.Second))
			thinking += time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Apply(0, m); err != nil {
				b.Fatal(err)
			}
			moves++
		}
		g := s.boards[0].grid
		score += g.score
		if g.maxTileValue() >= 8192 {
			reach8192++
		}
		if g.maxTileValue() >= 16384 {
			reach16384++
		}
		games++
	}
	b.ReportMetric(float64(score)/float64(games), "score/game")
	b.ReportMetric(float64(reach8192)/float64(games), "reach8192")
	b.ReportMetric(float64(reach16384)/float64(games), "reach16384")
	b.ReportMetric(float64(thinking.Microseconds())/1000/float64(moves), "ms/move")
	b.ReportMetric(float64(moves)/float64(games), "moves/game")
}
