package g2048

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
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
	bot := enginetest.Bot(b, Game(), LevelGuloso)
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
	bot := enginetest.Bot(b, Game(), LevelForte)
	for b.Loop() {
		if _, err := bot(s, 0, nil, time.Now().Add(2*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
}
