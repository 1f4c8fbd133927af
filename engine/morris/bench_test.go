package morris

import (
	"math/rand/v2"
	"testing"
	"time"
)

// transcriptMoves is the seed's transcript (section 2.2.3).
var transcriptMoves = []string{"a2", "b2", "a1", "a3", "c1", "b1", "c1c2", "b1c1", "a1b1", "b2a1", "b1b2"}

// BenchmarkApply replays the seed's transcript from a new game; ns/move is
// the cost of one Apply (the new game included).
func BenchmarkApply(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s := newState(initialPosition)
		for i, m := range transcriptMoves {
			if err := s.Apply(i%2, m); err != nil {
				b.Fatal(err)
			}
		}
		n += len(transcriptMoves)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/move")
}

// BenchmarkLegal lists the legal moves of a movement position.
func BenchmarkLegal(b *testing.B) {
	s := mustNew(b, `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`)
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Legal(0)) == 0 {
			b.Fatal("no legal moves")
		}
	}
}

// BenchmarkRandomGame plays a uniformly random game from the start to its
// end (a line or a repetition).
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		s := newState(initialPosition)
		for !s.outcome.Over {
			seat := s.pos.toMove.seat()
			legal := s.Legal(seat)
			if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSnapshot marshals and restores a game after the transcript's
// first eight moves.
func BenchmarkSnapshot(b *testing.B) {
	s := newState(initialPosition)
	for i, m := range transcriptMoves[:8] {
		if err := s.Apply(i%2, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		snap, _ := s.MarshalJSON()
		if _, err := Game().Restore(snap); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBot asks each bot for its move in the seed's dificil example.
func BenchmarkBot(b *testing.B) {
	s := mustNew(b, `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`)
	solved() // perfeito's table is built once per process, not per move
	for _, level := range []string{LevelFacil, LevelNormal, LevelDificil, LevelPerfeito} {
		bot, _ := Game().Bot(level)
		b.Run(level, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bot(s, 0, nil, time.Time{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSolve works out the whole game, as perfeito's first use does.
func BenchmarkSolve(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		solve()
	}
}
