package broker

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Redis is the Broker on Redis pub/sub: each Redis broker keeps one pub/sub
// connection, subscribed to the channels its process listens to, and one
// goroutine that hands each message to the local subscriptions. go-redis
// reconnects and subscribes again after a connection loss; what was
// published meanwhile is lost (at most once).
type Redis struct {
	c      redis.UniversalClient
	prefix string
	reg    *registry
	ps     *redis.PubSub
	done   chan struct{}

	// subMu orders (un)subscriptions so that a channel's SUBSCRIBE and
	// UNSUBSCRIBE reach Redis in the order the registry changed.
	subMu sync.Mutex
}

var _ Broker = (*Redis)(nil)

// NewRedis returns a Redis broker on c, with channel names under prefix and
// subscriptions that hold buffer messages each (DefaultBuffer if <= 0). The
// caller keeps c: Close does not close it.
func NewRedis(c redis.UniversalClient, prefix string, buffer int) *Redis {
	b := &Redis{c: c, prefix: prefix, reg: newRegistry(buffer), ps: c.Subscribe(context.Background()),
		done: make(chan struct{})}
	msgs := b.ps.Channel(redis.WithChannelSize(4 * b.reg.size))
	go b.loop(msgs)
	return b
}

// loop hands every message to the local subscriptions until the pub/sub
// connection is closed.
func (b *Redis) loop(msgs <-chan *redis.Message) {
	defer close(b.done)
	for m := range msgs {
		if ch, ok := strings.CutPrefix(m.Channel, b.prefix); ok {
			b.reg.deliver(ch, []byte(m.Payload))
		}
	}
}

// Publish implements Broker: one PUBLISH.
func (b *Redis) Publish(ctx context.Context, channel string, data []byte) error {
	if err := b.c.Publish(ctx, b.prefix+channel, data).Err(); err != nil {
		return fmt.Errorf("publish on %s: %w", channel, err)
	}
	return nil
}

// Subscribe implements Broker. The first local subscription of a channel
// subscribes the connection; Subscribe returns once Redis confirmed it, so
// messages published afterwards are received.
func (b *Redis) Subscribe(ctx context.Context, channel string) (*Subscription, error) {
	b.subMu.Lock()
	defer b.subMu.Unlock()
	s, first := b.reg.add(channel, b.remove)
	if s == nil {
		return nil, fmt.Errorf("subscribe to %s: %w", channel, ErrClosed)
	}
	if first {
		if err := b.ps.Subscribe(ctx, b.prefix+channel); err != nil {
			b.reg.drop(s)
			return nil, fmt.Errorf("subscribe to %s: %w", channel, err)
		}
	}
	return s, nil
}

// remove is a subscription's Close: the last local one unsubscribes the
// connection (best effort: a failed UNSUBSCRIBE only costs messages that
// nobody here reads).
func (b *Redis) remove(s *Subscription) {
	b.subMu.Lock()
	defer b.subMu.Unlock()
	if b.reg.drop(s) {
		_ = b.ps.Unsubscribe(context.Background(), b.prefix+s.channel)
	}
}

// Close implements Broker: it closes the pub/sub connection, waits for the
// delivery goroutine and closes every subscription.
func (b *Redis) Close() error {
	err := b.ps.Close()
	<-b.done
	b.reg.close()
	if err != nil {
		return fmt.Errorf("close broker: %w", err)
	}
	return nil
}
