package g2048

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// BenchmarkAnalysis is the CPU time of analysing the positions of a solo
// game (its first 1,000 plies) at the default budget and at forte's
// (docs/engines/2048.md):
//
//	go test -run '^$' -bench Analysis -benchtime 1x ./engine/g2048/
func BenchmarkAnalysis(b *testing.B) {
	for _, tc := range []struct {
		name  string
		nodes int
	}{{"default", 0}, {"forte", forteConfig.nodeBudget}} {
		b.Run(tc.name, func(b *testing.B) {
			enginetest.BenchmarkAnalysis(b, Game(), VariantSolo, engine.Budget{Work: tc.nodes}, 1, 1000)
		})
	}
}
