package orbito

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// BenchmarkSearch measures forte's search of a fixed node budget on a
// position a quarter full, per variant; ns/node is the node rate.
func BenchmarkSearch(b *testing.B) {
	const nodes = 100_000
	for n := minOrbits; n <= maxOrbits; n++ {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := openingPosition(n, rand.New(rand.NewPCG(3, 3)), n*n)
			for b.Loop() {
				searchMove(s, nodes, forteMaxDepth, time.Time{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
		})
	}
}
