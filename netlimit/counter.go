package netlimit

import "sync"

// Counter counts what each key holds (connections, requests in flight) and
// refuses more than a limit per key. It keeps only the keys that hold
// something, so its memory follows what is held, not who ever came. The
// zero value is not usable: use NewCounter.
type Counter struct {
	limit int

	mu   sync.Mutex
	held map[string]int
}

// NewCounter returns a Counter allowing limit per key; 0 or less allows any
// number (it still counts).
func NewCounter(limit int) *Counter {
	return &Counter{limit: limit, held: map[string]int{}}
}

// Acquire takes one for key, false when key holds its limit already.
func (c *Counter) Acquire(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.limit > 0 && c.held[key] >= c.limit {
		return false
	}
	c.held[key]++
	return true
}

// Release gives back one that Acquire took for key.
func (c *Counter) Release(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.held[key]; n > 1 {
		c.held[key] = n - 1
	} else {
		delete(c.held, key)
	}
}

// Held returns how many key holds.
func (c *Counter) Held(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held[key]
}

// Keys returns how many keys hold something.
func (c *Counter) Keys() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.held)
}
