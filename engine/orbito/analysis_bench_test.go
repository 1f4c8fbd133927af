package orbito

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// BenchmarkAnalysis is the CPU time of analysing every position of a game
// at the default budget (docs/engines/orbito.md):
//
//	go test -run '^$' -bench Analysis -benchtime 1x ./engine/orbito/
func BenchmarkAnalysis(b *testing.B) {
	WarmUp()
	for _, v := range []string{"2", "3", "4", "5"} {
		b.Run(v, func(b *testing.B) {
			enginetest.BenchmarkAnalysis(b, Game(), v, engine.Budget{}, 1, 0)
		})
	}
}
