package engine

import (
	"runtime"
	"sync"
)

// Bots' searches are CPU-bound goroutines in the same process as the
// service, whose goroutines Go schedules on the same processors (Ps). Go
// preempts a running goroutine only every 10 ms, and a goroutine woken by
// the network waits in the global run queue, which a busy P reads once
// every 61 schedules: two searches on two cores delayed a human's move by
// a tenth of a second. Searches therefore run their work in slices between
// calls to SearchSlot.Yield, and a server may cap how many search threads
// run at once (LimitSearch) so that a processor is always left for the
// service.

var (
	searchMu    sync.Mutex
	searchSlots chan struct{} // nil: no limit
)

// LimitSearch lets at most n search threads run at once in this process,
// the others waiting for a slot; n < 1 removes the limit (the default). A
// server calls it once at start-up, before any bot moves.
func LimitSearch(n int) {
	searchMu.Lock()
	defer searchMu.Unlock()
	if n < 1 {
		searchSlots = nil
		return
	}
	searchSlots = make(chan struct{}, n)
}

// SearchLimit is the limit set by LimitSearch, 0 for none.
func SearchLimit() int {
	searchMu.Lock()
	defer searchMu.Unlock()
	return cap(searchSlots)
}

// SearchSlot is one search thread's right to run. It belongs to the
// goroutine that acquired it.
type SearchSlot struct {
	ch   chan struct{} // nil: no limit
	held bool
}

// AcquireSearch waits for a slot under the limit (at once without one).
// The caller releases it when its search thread ends.
func AcquireSearch() *SearchSlot {
	searchMu.Lock()
	ch := searchSlots
	searchMu.Unlock()
	s := &SearchSlot{ch: ch}
	s.acquire()
	return s
}

func (s *SearchSlot) acquire() {
	if s.ch != nil {
		s.ch <- struct{}{}
		s.held = true
	}
}

// Yield lets waiting goroutines run: it gives the slot back and takes one
// again (a waiting search thread goes first), and gives up the processor.
// Search loops call it every few tens of microseconds of work.
func (s *SearchSlot) Yield() {
	if s.held {
		<-s.ch
		s.held = false
	}
	runtime.Gosched()
	s.acquire()
}

// Release gives the slot back; the slot is not used after it.
func (s *SearchSlot) Release() {
	if s.held {
		<-s.ch
		s.held = false
	}
}
