package queens

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// BenchmarkAnalysis is the CPU time of analysing every position of a game
// at the default budget (docs/engines/queens.md):
//
//	go test -run '^$' -bench Analysis -benchtime 1x ./engine/queens/
func BenchmarkAnalysis(b *testing.B) {
	for _, v := range []string{"tradicional", "x-random", "impar", "grande"} {
		b.Run(v, func(b *testing.B) {
			enginetest.BenchmarkAnalysis(b, Game(), v, engine.Budget{Seed: 1}, 1, 0)
		})
	}
}
