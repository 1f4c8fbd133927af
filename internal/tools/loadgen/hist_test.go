package loadgen

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func exactQuantile(sorted []time.Duration, q float64) time.Duration {
	rank := int(q*float64(len(sorted)) + 0.999999999)
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// TestHistogramQuantilesWithinOneSixtyFourth compares every reported
// quantile with the exact nearest-rank one, on several distributions.
func TestHistogramQuantilesWithinOneSixtyFourth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		gen  func() time.Duration
		n    int
	}{
		{"tiny exact values", func() time.Duration { return time.Duration(rng.IntN(128)) }, 1000},
		{"uniform ms", func() time.Duration { return time.Duration(rng.Int64N(int64(50 * time.Millisecond))) }, 20000},
		{"long tail", func() time.Duration { return time.Duration(rng.ExpFloat64() * float64(time.Millisecond)) }, 50000},
		{"hours", func() time.Duration { return time.Duration(rng.Int64N(int64(5 * time.Hour))) }, 5000},
		{"one value", func() time.Duration { return 1234567 }, 10},
		{"twenty samples", func() time.Duration { return time.Duration(rng.Int64N(int64(time.Second))) }, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h Histogram
			vals := make([]time.Duration, tc.n)
			for i := range vals {
				vals[i] = tc.gen()
				h.Record(vals[i])
			}
			slices.Sort(vals)
			if h.Count() != uint64(tc.n) || h.Min() != vals[0] || h.Max() != vals[len(vals)-1] {
				t.Fatalf("count %d min %v max %v, want %d %v %v", h.Count(), h.Min(), h.Max(), tc.n, vals[0], vals[len(vals)-1])
			}
			for _, q := range []float64{0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1} {
				got, want := h.Quantile(q), exactQuantile(vals, q)
				if got < want || float64(got-want) > float64(want)/subCount+1 {
					t.Errorf("q%.3f = %v, exact %v: off by more than 1/64", q, got, want)
				}
			}
		})
	}
}

func TestHistogramMergeEqualsRecordingAll(t *testing.T) {
	var a, b, all Histogram
	for i := range 1000 {
		d := time.Duration(i*i) * time.Microsecond
		all.Record(d)
		if i%3 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	var m Histogram
	m.Merge(&a)
	m.Merge(&b)
	m.Merge(&Histogram{})
	if m != all {
		t.Fatalf("merged %v, want %v", m.Summary(), all.Summary())
	}
}

func TestHistogramEmptyAndNegative(t *testing.T) {
	var h Histogram
	if s := h.Summary(); s != (Summary{}) || h.Mean() != 0 || s.String() != "no samples" {
		t.Fatalf("empty histogram summary %+v mean %v", s, h.Mean())
	}
	h.Record(-5)
	h.Record(1<<63 - 1)
	if h.Min() != 0 || h.Quantile(0.5) != 0 || h.Quantile(1) != 1<<63-1 {
		t.Fatalf("min %v p50 %v max %v", h.Min(), h.Quantile(0.5), h.Quantile(1))
	}
}

func TestBucketsAreContiguous(t *testing.T) {
	prev := -1
	for _, v := range []int64{0, 1, 63, 64, 127, 128, 129, 255, 256, 1 << 20, 1<<20 + 1, 1<<62 + 12345, 1<<63 - 1} {
		i := bucketOf(v)
		if i < prev || i >= nBuckets || bucketTop(i) < v || (i > 0 && bucketTop(i-1) >= v) {
			t.Fatalf("value %d: bucket %d (top %d, previous top %d)", v, i, bucketTop(i), bucketTop(i-1))
		}
		prev = i
	}
}
