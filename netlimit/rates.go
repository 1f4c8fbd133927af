package netlimit

import (
	"sync"
	"time"
)

// Rates is a token bucket per key (a Bucket of one Limit each). It tracks at most MaxKeys keys: a new key past
// that first forgets the keys whose buckets are full again (they lose
// nothing by it), then, if none is, an arbitrary one, so memory stays
// bounded whoever comes. The zero value is not usable: use NewRates.
type Rates struct {
	limit Limit
	max   int
	now   func() time.Time

	mu   sync.Mutex
	keys map[string]*Bucket
}

// NewRates returns Rates giving each key a bucket of limit l (a burst of
// at least 1), for at most maxKeys keys (at least 1); now is the clock
// (nil: time.Now).
func NewRates(l Limit, maxKeys int, now func() time.Time) *Rates {
	if now == nil {
		now = time.Now
	}
	l.Burst = max(l.Burst, 1)
	return &Rates{limit: l, max: max(maxKeys, 1), now: now, keys: map[string]*Bucket{}}
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
		b = &Bucket{}
		r.keys[key] = b
	}
	return b.Take(now, r.limit, 1)
}

// forget drops the keys whose buckets are full by now or, when none is,
// one arbitrary key. r.mu is held.
func (r *Rates) forget(now time.Time) {
	for k, b := range r.keys {
		if b.Full(now, r.limit) {
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
