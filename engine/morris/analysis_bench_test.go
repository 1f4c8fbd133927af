package morris

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// BenchmarkAnalysis is the CPU time of analysing every position of a game
// (docs/engines/morris.md):
//
//	go test -run '^$' -bench Analysis -benchtime 100x ./engine/morris/
func BenchmarkAnalysis(b *testing.B) {
	solved()
	enginetest.BenchmarkAnalysis(b, Game(), variant3, engine.Budget{}, 1, 0)
}
