package hub

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkersRunEverythingAndKeepFewIdle: every function handed to Go runs,
// many at once when they block; afterwards at most maxIdleWorkers wait for
// work, they take new work, and they all return once quit closes.
func TestWorkersRunEverythingAndKeepFewIdle(t *testing.T) {
	quit := make(chan struct{})
	w := newWorkers(quit)
	const n = 4 * maxIdleWorkers
	var (
		ran     atomic.Int32
		started sync.WaitGroup
		done    sync.WaitGroup
	)
	release := make(chan struct{})
	started.Add(n)
	done.Add(n)
	for range n {
		w.Go(func() {
			defer done.Done()
			ran.Add(1)
			started.Done()
			<-release // all n run at once
		})
	}
	started.Wait()
	close(release)
	done.Wait()
	if got := ran.Load(); got != n {
		t.Fatalf("ran %d functions, want %d", got, n)
	}
	// n workers ran; maxIdleWorkers of them stay.
	waitFor(t, "maxIdleWorkers idle workers", func() bool { return w.idle.Load() == maxIdleWorkers })
	// An idle worker takes the next function.
	idle := w.idle.Load()
	got := make(chan int32, 1)
	w.Go(func() { got <- w.idle.Load() })
	if in := <-got; in != idle-1 {
		t.Errorf("idle workers while one runs: %d, want %d (an idle one took it)", in, idle-1)
	}
	close(quit)
	waitFor(t, "idle workers to return", func() bool { return w.idle.Load() == 0 })
}

// waitFor polls cond until it holds, failing after a generous time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
