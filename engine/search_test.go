package engine

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLimitSearch(t *testing.T) {
	defer LimitSearch(0)
	tests := []struct {
		name    string
		limit   int
		threads int
		want    int // the most threads seen running at once, at most
	}{
		{"one slot", 1, 4, 1},
		{"two slots", 2, 6, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			LimitSearch(tt.limit)
			if got := SearchLimit(); got != tt.limit {
				t.Fatalf("SearchLimit() = %d, want %d", got, tt.limit)
			}
			var running, most atomic.Int32
			var wg sync.WaitGroup
			for range tt.threads {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := AcquireSearch()
					defer s.Release()
					for range 50 {
						n := running.Add(1)
						for {
							m := most.Load()
							if n <= m || most.CompareAndSwap(m, n) {
								break
							}
						}
						time.Sleep(50 * time.Microsecond) // work, holding the slot
						running.Add(-1)
						s.Yield()
					}
				}()
			}
			wg.Wait()
			if got := int(most.Load()); got > tt.want {
				t.Errorf("%d threads ran at once under a limit of %d", got, tt.limit)
			}
			if got := int(most.Load()); got < 1 {
				t.Errorf("no thread ran")
			}
		})
	}
}

func TestNoSearchLimit(t *testing.T) {
	LimitSearch(0)
	if got := SearchLimit(); got != 0 {
		t.Fatalf("SearchLimit() = %d, want 0", got)
	}
	// Without a limit nothing waits: many slots at once, each yields.
	slots := make([]*SearchSlot, 100)
	for i := range slots {
		slots[i] = AcquireSearch()
		slots[i].Yield()
	}
	for _, s := range slots {
		s.Release()
	}
}
