package netlimit

import "time"

// Limit is the shape of a token bucket: it holds at most Burst tokens and
// gains Rate tokens every Per.
type Limit struct {
	Rate  float64
	Per   time.Duration
	Burst float64
}

// PerSecond is a Limit of rate tokens a second, burst at once.
func PerSecond(rate, burst float64) Limit { return Limit{Rate: rate, Per: time.Second, Burst: burst} }

// Bucket is one token bucket: its tokens as of the time it last changed.
// The zero Bucket is full. A Bucket is a value its owner guards (one
// goroutine, or a lock): the service's rate limits are all Buckets, alone
// (a connection's messages, a room's chat) or by key under a bound (Rates).
type Bucket struct {
	tokens float64
	at     time.Time // zero: full
}

// Level returns the tokens the bucket holds at now under l.
func (b *Bucket) Level(now time.Time, l Limit) float64 {
	if b.at.IsZero() {
		return l.Burst
	}
	return min(l.Burst, b.tokens+float64(now.Sub(b.at))/float64(l.Per)*l.Rate)
}

// Full reports whether the bucket is full again at now: forgetting it
// would change nothing.
func (b *Bucket) Full(now time.Time, l Limit) bool { return b.Level(now, l) >= l.Burst }

// Has reports whether the bucket holds n tokens at now.
func (b *Bucket) Has(now time.Time, l Limit, n float64) bool { return b.Level(now, l) >= n }

// Take takes n tokens at now if the bucket holds them, and reports whether
// it did; a bucket short of them is left as it was.
func (b *Bucket) Take(now time.Time, l Limit, n float64) bool {
	level := b.Level(now, l)
	if level < n {
		return false
	}
	b.tokens, b.at = level-n, now
	return true
}
