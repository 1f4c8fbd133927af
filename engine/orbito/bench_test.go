package orbito

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// BenchmarkApply measures one turn (parse, place, rotate, judge) on a board
// half full, per variant.
func BenchmarkApply(b *testing.B) {
	for n := minOrbits; n <= maxOrbits; n++ {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := randomPosition(n, rand.New(rand.NewPCG(1, 1)), 2*n*n-2)
			seat := s.toMove.seat()
			move := s.Legal(seat)[0]
			for b.Loop() {
				c := s.Clone()
				if err := c.Apply(seat, move); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLegal measures listing the legal moves of the empty board.
func BenchmarkLegal(b *testing.B) {
	for n := minOrbits; n <= maxOrbits; n++ {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s, _ := Game().New(strconv.Itoa(n), nil, 0)
			for b.Loop() {
				if len(s.Legal(0)) != 4*n*n {
					b.Fatal("wrong number of legal moves")
				}
			}
		})
	}
}

// BenchmarkRandomGame measures a whole random game from the empty board.
func BenchmarkRandomGame(b *testing.B) {
	for n := minOrbits; n <= maxOrbits; n++ {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(2, 2))
			for b.Loop() {
				if s := randomPosition(n, rng, 4*n*n); !s.outcome.Over {
					b.Fatal("game not over")
				}
			}
		})
	}
}

// BenchmarkBot measures each bot's answer on a board half full.
func BenchmarkBot(b *testing.B) {
	for _, l := range levels {
		for n := minOrbits; n <= maxOrbits; n++ {
			b.Run(l.id+"/"+strconv.Itoa(n), func(b *testing.B) {
				s := randomPosition(n, rand.New(rand.NewPCG(1, 1)), 2*n*n-2)
				bot, _ := Game().Bot(l.id)
				deadline := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
				for b.Loop() {
					if _, err := bot(s, s.toMove.seat(), nil, deadline); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
