package netlimit

import (
	"sync"
	"time"
)

// Rates is a token bucket per key: a key may take Burst at once and then
// one more every Every. It tracks at most MaxKeys keys: a new key past
// that first forgets the keys whose buckets are full again (they lose
// nothing by it), then, if none is, an arbitrary one, so memory stays
// bounded whoever comes. The zero value is not usable: use NewRates.
type Rates struct {
	every time.Duration
	burst float64
	max   int
	now   func() time.Time

	mu   sync.Mutex
	keys map[string]*rateBucket
}

// rateBucket is one key's tokens as of last.
type rateBucket struct {
	tokens float64
	last   time.Time
}

// NewRates returns Rates giving each key burst tokens, one more every
// every, for at most maxKeys keys (at least 1); now is the clock (nil:
// time.Now).
func NewRates(every time.Duration, burst, maxKeys int, now func() time.Time) *Rates {
	if now == nil {
		now = time.Now
	}
	return &Rates{every: every, burst: float64(max(burst, 1)), max: max(maxKeys, 1), now: now, keys: map[string]*rateBucket{}}
}

// Allow takes a token for key, false (and nothing taken) when it has none.
func (r *Rates) Allow(key string) bool {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.keys[key]
	if b == nil {
		if len(r.keys) >= r.max {
			r.forget(now)
		}
		b = &rateBucket{tokens: r.burst, last: now}
		r.keys[key] = b
	}
	b.tokens = min(r.burst, b.tokens+float64(now.Sub(b.last))/float64(r.every))
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// forget drops the keys whose buckets are full by now or, when none is,
// one arbitrary key. r.mu is held.
func (r *Rates) forget(now time.Time) {
	for k, b := range r.keys {
		if b.tokens+float64(now.Sub(b.last))/float64(r.every) >= r.burst {
			delete(r.keys, k)
		}
	}
	if len(r.keys) < r.max {
		return
	}
	for k := range r.keys {
		delete(r.keys, k)
		return
	}
}

// Keys returns how many keys are tracked.
func (r *Rates) Keys() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.keys)
}
