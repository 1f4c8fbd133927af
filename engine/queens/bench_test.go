package queens

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// midgame returns a position of variant after half of a random game.
func midgame(b *testing.B, variant string) *state {
	b.Helper()
	s := mustNew(b, variant, "")
	rng := rand.New(rand.NewPCG(1, 2))
	total := len(s.hands[0]) + len(s.hands[1])
	for range total / 2 {
		ms := s.moves(s.toMove)
		s.play(s.toMove, ms[rng.IntN(len(ms))])
	}
	if s.outcome.Over {
		b.Fatalf("%s: random half game already over", variant)
	}
	return s
}

// BenchmarkApply parses, checks and plays one move on a clone of a
// middle-game position (the clone is part of the cost).
func BenchmarkApply(b *testing.B) {
	for _, v := range variants {
		b.Run(v.id, func(b *testing.B) {
			s := midgame(b, v.id)
			mv := s.Legal(s.toMove)[0]
			b.ReportAllocs()
			for b.Loop() {
				c := s.clone()
				if err := c.Apply(c.toMove, mv); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLegal lists the legal moves of a middle-game position.
func BenchmarkLegal(b *testing.B) {
	for _, v := range variants {
		b.Run(v.id, func(b *testing.B) {
			s := midgame(b, v.id)
			b.ReportAllocs()
			for b.Loop() {
				if len(s.Legal(s.toMove)) == 0 {
					b.Fatal("no legal moves")
				}
			}
		})
	}
}

// BenchmarkRandomGame plays a whole game with uniformly random moves
// through the public API.
func BenchmarkRandomGame(b *testing.B) {
	for _, v := range variants {
		b.Run(v.id, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			b.ReportAllocs()
			var seed uint64
			for b.Loop() {
				seed++
				s, _ := Game().New(v.id, nil, seed)
				for {
					seat, ok := s.Turn()
					if !ok {
						break
					}
					legal := s.Legal(seat)
					if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkBot asks each bot for a move in a middle-game position.
func BenchmarkBot(b *testing.B) {
	for _, v := range []string{"tradicional", "grande"} {
		for _, lv := range Game().Info().Levels {
			b.Run(fmt.Sprintf("%s/%s", v, lv.ID), func(b *testing.B) {
				s := midgame(b, v)
				bot, _ := Game().Bot(lv.ID)
				rng := rand.New(rand.NewPCG(5, 6))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bot(s.Clone(), s.toMove, rng, time.Time{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSnapshot marshals and restores a middle-game position.
func BenchmarkSnapshot(b *testing.B) {
	s := midgame(b, "grande")
	b.ReportAllocs()
	for b.Loop() {
		snap, err := s.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Game().Restore(snap); err != nil {
			b.Fatal(err)
		}
	}
}
