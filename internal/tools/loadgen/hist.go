package loadgen

import (
	"fmt"
	"math/bits"
	"time"
)

// subBits sets the histogram's precision: each power of two is split into
// 2^subBits linear buckets, so a recorded value is reported within 1/64
// (1.6%) of itself.
const subBits = 6

const subCount = 1 << subBits

// nBuckets covers every non-negative int64.
const nBuckets = (64 - subBits) * subCount

// Histogram is an HDR-style log-linear histogram of durations: constant
// memory, constant time per value, every quantile within 1/64 of the true
// value (exact below 64 ns), exact minimum and maximum. The zero value is
// empty and ready. It is not safe for concurrent use: give each goroutine its
// own and Merge them.
type Histogram struct {
	counts   [nBuckets]uint64
	n        uint64
	sum      float64
	min, max int64
}

func bucketOf(v int64) int {
	u := uint64(v)
	if u < 2*subCount {
		return int(u)
	}
	e := bits.Len64(u) - subBits - 1 // u>>e is in [64, 128)
	return (e+1)*subCount + int(u>>e) - subCount
}

// bucketTop is the largest value that falls in bucket i.
func bucketTop(i int) int64 {
	if i < 2*subCount {
		return int64(i)
	}
	e := i/subCount - 1
	m := uint64(i%subCount + subCount)
	top := (m+1)<<e - 1
	if top > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(top)
}

// Record adds one duration; negative ones count as zero.
func (h *Histogram) Record(d time.Duration) {
	v := int64(d)
	if v < 0 {
		v = 0
	}
	h.counts[bucketOf(v)]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += float64(v)
}

// Merge adds every value of o.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.n += o.n
	h.sum += o.sum
}

// Count is the number of values recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Max is the largest value recorded (0 when empty).
func (h *Histogram) Max() time.Duration { return time.Duration(h.max) }

// Min is the smallest value recorded (0 when empty).
func (h *Histogram) Min() time.Duration { return time.Duration(h.min) }

// Mean is the average of the values recorded (0 when empty).
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return time.Duration(h.sum / float64(h.n))
}

// Quantile returns the nearest-rank q-quantile (0 < q <= 1): the top of
// the bucket that holds the value of rank ceil(q*n), never above Max and
// never below Min. It is 0 when the histogram is empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n) + 0.999999999)
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			v := min(bucketTop(i), h.max)
			return time.Duration(max(v, h.min))
		}
	}
	return time.Duration(h.max)
}

// Summary is the usual quantiles of a histogram.
type Summary struct {
	N                  uint64
	P50, P90, P99, Max time.Duration
}

// Summary returns p50, p90, p99 and max.
func (h *Histogram) Summary() Summary {
	return Summary{N: h.n, P50: h.Quantile(0.50), P90: h.Quantile(0.90), P99: h.Quantile(0.99), Max: h.Max()}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }

// String prints the summary in milliseconds.
func (s Summary) String() string {
	if s.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s p90 %s p99 %s max %s ms (n=%d)", ms(s.P50), ms(s.P90), ms(s.P99), ms(s.Max), s.N)
}
