package hub

import "sync/atomic"

// maxIdleWorkers is how many workers wait for work at most; the others
// return when their function does.
const maxIdleWorkers = 64

// workers runs the hub's short-lived goroutines (a connection's writer
// while something is due, the handler of one message) on goroutines that
// are kept, up to maxIdleWorkers idle ones, after their function returns.
// A new goroutine starts with a small stack, and the writer's socket write
// and the handler's way into a room both grow it: in the 200-room run
// growing stacks (runtime.newstack) was 7% of the server's CPU, for two
// goroutines a move per player. A kept worker keeps its grown stack; an
// idle one costs a few KiB, and there are never more than maxIdleWorkers
// of them, so an idle connection still holds no goroutine but its reader.
//
// Workers waiting for work return when quit is closed (Hub.Shutdown).
type workers struct {
	work chan func()
	quit <-chan struct{}
	idle atomic.Int32
}

func newWorkers(quit <-chan struct{}) *workers {
	return &workers{work: make(chan func()), quit: quit}
}

// Go runs f on an idle worker, or on a new one when none is idle; it does
// not wait for f.
func (w *workers) Go(f func()) {
	select {
	case w.work <- f:
	default:
		go w.loop(f)
	}
}

// loop runs f, then waits for more work while fewer than maxIdleWorkers
// wait.
func (w *workers) loop(f func()) {
	for {
		f()
		f = nil // nothing of the last message is kept while idle
		if w.idle.Add(1) > maxIdleWorkers {
			w.idle.Add(-1)
			return
		}
		select {
		case f = <-w.work:
			w.idle.Add(-1)
		case <-w.quit:
			w.idle.Add(-1)
			return
		}
	}
}
