package fakeclock_test

import (
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
)

func TestAdvance(t *testing.T) {
	c := fakeclock.New()
	start := c.Now()
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("the clock moved by itself: %v then %v", start, got)
	}
	c.Advance(1500 * time.Millisecond)
	if got := c.Now().Sub(start); got != 1500*time.Millisecond {
		t.Fatalf("after Advance(1.5s): moved %v", got)
	}
}
