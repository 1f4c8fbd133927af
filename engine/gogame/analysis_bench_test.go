package gogame

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// BenchmarkAnalysis is the CPU time of analysing every position of a game
// at the default budget (docs/engines/go.md):
//
//	go test -run '^$' -bench Analysis -benchtime 1x ./engine/gogame/
func BenchmarkAnalysis(b *testing.B) {
	for _, v := range []string{"9", "13", "19"} {
		b.Run(v, func(b *testing.B) {
			enginetest.BenchmarkAnalysis(b, Game(), v, engine.Budget{Seed: 1}, 1, 0)
		})
	}
}
