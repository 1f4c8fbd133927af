// Package broker carries messages between lobby nodes: a room's owner
// publishes its state frames and the nodes with members in that room
// receive them; commands for a room go to its owner the same way.
//
// Two implementations stand side by side, as with the store: Memory (one
// process: tests, and a single node) and Redis (pub/sub on a go-redis
// UniversalClient: one server, Sentinel or Cluster). Both pass the same
// tests.
//
// Delivery is at most once, in publish order per channel, to the
// subscriptions that exist when the message arrives: Redis pub/sub keeps
// nothing for a subscriber that is disconnected, and a subscription whose
// buffer is full drops messages (counted by Dropped) rather than block the
// others. Receivers must detect gaps themselves (room frames carry seq) and
// resync from the store.
package broker

import (
	"context"
	"sync"
	"sync/atomic"
)

// Broker publishes messages on named channels and subscribes to them.
// Implementations are safe for concurrent use.
type Broker interface {
	// Publish sends data to every current subscription of channel, on every
	// node. It returns once the message is handed to the transport.
	Publish(ctx context.Context, channel string, data []byte) error
	// Subscribe starts receiving channel. Close the subscription to stop.
	Subscribe(ctx context.Context, channel string) (*Subscription, error)
	// Close ends every subscription and releases the connections.
	Close() error
}

// DefaultBuffer is the number of messages a subscription holds before it
// drops.
const DefaultBuffer = 1024

// Subscription receives one channel's messages on C until closed.
type Subscription struct {
	channel string
	ch      chan []byte
	dropped atomic.Uint64
	once    sync.Once
	remove  func(*Subscription)
}

// C delivers the messages. It is closed when the subscription or its
// broker is closed.
func (s *Subscription) C() <-chan []byte { return s.ch }

// Channel is the subscribed channel's name.
func (s *Subscription) Channel() string { return s.channel }

// Dropped counts the messages lost because C was full.
func (s *Subscription) Dropped() uint64 { return s.dropped.Load() }

// Close stops the subscription and closes C. It is idempotent.
func (s *Subscription) Close() { s.once.Do(func() { s.remove(s) }) }

// registry fans messages out to a process's subscriptions. Its lock is held
// while delivering, so a subscription is never sent to after its C closed.
type registry struct {
	size int
	mu   sync.RWMutex
	subs map[string]map[*Subscription]struct{}
	done bool
}

func newRegistry(size int) *registry {
	if size <= 0 {
		size = DefaultBuffer
	}
	return &registry{size: size, subs: make(map[string]map[*Subscription]struct{})}
}

// add registers a subscription; first says whether it is the channel's
// first one in this process. It returns nil once the registry is closed.
func (r *registry) add(channel string, remove func(*Subscription)) (s *Subscription, first bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil, false
	}
	s = &Subscription{channel: channel, ch: make(chan []byte, r.size), remove: remove}
	set := r.subs[channel]
	if set == nil {
		set = make(map[*Subscription]struct{})
		r.subs[channel] = set
	}
	set[s] = struct{}{}
	return s, len(set) == 1
}

// drop unregisters s and closes its C; last says whether the channel has no
// subscription left in this process.
func (r *registry) drop(s *Subscription) (last bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	set := r.subs[s.channel]
	if _, ok := set[s]; !ok {
		return false
	}
	delete(set, s)
	close(s.ch)
	if len(set) == 0 {
		delete(r.subs, s.channel)
		return true
	}
	return false
}

// deliver hands data to every subscription of channel without blocking.
func (r *registry) deliver(channel string, data []byte) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for s := range r.subs[channel] {
		select {
		case s.ch <- data:
		default:
			s.dropped.Add(1)
		}
	}
}

// close closes every subscription; later adds fail.
func (r *registry) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	for _, set := range r.subs {
		for s := range set {
			s.once.Do(func() {}) // a later Close does nothing
			close(s.ch)
		}
	}
	r.subs = nil
}
