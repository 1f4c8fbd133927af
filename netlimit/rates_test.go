package netlimit

import (
	"fmt"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
)

func TestRates(t *testing.T) {
	clock := fakeclock.New()
	r := NewRates(Limit{Rate: 1, Per: time.Second, Burst: 3}, 100, clock.Now)
	take := func(key string, n int) (got int) {
		for range n {
			if r.Allow(key) {
				got++
			}
		}
		return got
	}
	if got := take("a", 5); got != 3 {
		t.Fatalf("a fresh key took %d of 5, want the burst 3", got)
	}
	if got := take("b", 1); got != 1 {
		t.Fatalf("another key took %d, want 1: keys are apart", got)
	}
	clock.Advance(1500 * time.Millisecond)
	if got := take("a", 5); got != 1 {
		t.Fatalf("after 1.5 s a took %d, want 1", got)
	}
	clock.Advance(time.Hour)
	if got := take("a", 5); got != 3 {
		t.Fatalf("after an hour a took %d, want the burst 3, no more", got)
	}
}

// TestRatesBounded: a client that comes from ever new keys grows the map
// to MaxKeys and no further, and a key that is still spending is kept
// while full buckets are forgotten.
func TestRatesBounded(t *testing.T) {
	clock := fakeclock.New()
	r := NewRates(Limit{Rate: 1, Per: time.Minute, Burst: 2}, 10, clock.Now)
	r.Allow("busy")
	r.Allow("busy")
	for i := range 1000 {
		r.Allow(fmt.Sprint("k", i))
		if r.Keys() > 10 {
			t.Fatalf("%d keys tracked after %d new ones, want at most 10", r.Keys(), i+1)
		}
	}
	// The new keys each spent one of two tokens, so none is full: the
	// bound held by dropping arbitrary keys. Once they refill, a new key
	// forgets them all and keeps a spending one.
	clock.Advance(2 * time.Minute)
	r.Allow("busy")
	r.Allow("busy")
	r.Allow("new")
	if r.Allow("busy") {
		t.Fatal("busy got a third token within its minute: its bucket was forgotten")
	}
}
