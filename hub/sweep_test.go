package hub

import (
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// blockingMatch is a shared queue whose Offer waits until released.
type blockingMatch struct {
	offering chan struct{}
	release  chan struct{}
}

func (blockingMatch) Find(Client, *protocol.ClientMessage, QueueKey) *protocol.Error { return nil }
func (blockingMatch) Cancel(Client, []QueueKey)                                      {}
func (m blockingMatch) Offer(Client, QueueKey) *protocol.Error {
	m.offering <- struct{}{}
	<-m.release
	return nil
}

// TestSweepArmsNextAfterItsOffers: while a sweep's offers to the shared
// queue (store calls) are under way no next sweep is armed, so a slow
// store cannot pile up a sweep goroutine every step; once they are done
// the next one is armed, as a rated seeker still waits.
func TestSweepArmsNextAfterItsOffers(t *testing.T) {
	h := testHub(t, Config{MatchStep: time.Hour})
	t.Cleanup(h.Drain) // stops an armed sweep timer
	m := blockingMatch{offering: make(chan struct{}), release: make(chan struct{})}
	h.Plug(Hooks{Match: m})
	key := QueueKey{Game: "orbito", Variant: "classic", Rated: true}
	h.mu.Lock()
	h.queues[key] = []*conn{{h: h, playerID: "a"}}
	h.mu.Unlock()

	done := make(chan struct{})
	go func() { defer close(done); h.sweepRated() }()
	<-m.offering
	h.Enqueue(&conn{h: h, playerID: "b"}, key) // another seeker meanwhile
	h.mu.Lock()
	armed := h.sweep != nil
	h.mu.Unlock()
	if armed {
		t.Error("the next sweep was armed while this one's offers were under way")
	}
	close(m.release)
	<-done
	h.mu.Lock()
	armed = h.sweep != nil
	h.mu.Unlock()
	if !armed {
		t.Error("no next sweep armed once the offers were done, while a rated seeker waits")
	}
}
