package netlimit

import (
	"testing"
	"time"
)

// step takes n tokens after a time since the start and expects ok.
type step struct {
	after time.Duration
	n     float64
	ok    bool
}

// TestBucket: a bucket starts full, gives its burst, refills at its rate
// up to its burst, and refuses what it does not hold without changing.
func TestBucket(t *testing.T) {
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	l := Limit{Rate: 20, Per: time.Minute, Burst: 5} // a line every 3 s
	for _, tc := range []struct {
		name  string
		steps []step
		level float64 // at the last step's time, after it
	}{
		{"burst then refusal", []step{{0, 1, true}, {0, 1, true}, {0, 1, true}, {0, 1, true}, {0, 1, true}, {0, 1, false}}, 0},
		{"refill at the rate", []step{{0, 5, true}, {2 * time.Second, 1, false}, {3 * time.Second, 1, true}, {3 * time.Second, 1, false}}, 0},
		{"refill stops at the burst", []step{{0, 5, true}, {time.Hour, 6, false}, {time.Hour, 5, true}}, 0},
		{"a refusal takes nothing", []step{{0, 4, true}, {0, 2, false}, {0, 1, true}}, 0},
		{"more than the burst never", []step{{0, 6, false}}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Bucket
			if !b.Full(t0, l) {
				t.Fatal("a new bucket is not full")
			}
			var now time.Time
			for i, s := range tc.steps {
				now = t0.Add(s.after)
				if got := b.Take(now, l, s.n); got != s.ok {
					t.Fatalf("step %d: Take(%v) at +%v = %v, want %v", i, s.n, s.after, got, s.ok)
				}
			}
			if got := b.Level(now, l); got != tc.level {
				t.Fatalf("level %v, want %v", got, tc.level)
			}
		})
	}
}
