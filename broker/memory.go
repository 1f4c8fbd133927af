package broker

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrClosed is returned by a closed broker.
var ErrClosed = errors.New("broker closed")

// Memory is the in-process Broker: every subscriber is in this process.
type Memory struct {
	reg  *registry
	live living
}

var _ Broker = (*Memory)(nil)

// NewMemory returns a Memory broker whose subscriptions hold buffer
// messages each (DefaultBuffer if buffer <= 0).
func NewMemory(buffer int) *Memory { return &Memory{reg: newRegistry(buffer)} }

// Publish implements Broker. Subscribers get their own copy of data.
func (m *Memory) Publish(ctx context.Context, channel string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("publish on %s: %w", channel, err)
	}
	m.reg.mu.RLock()
	done := m.reg.done
	m.reg.mu.RUnlock()
	if done {
		return fmt.Errorf("publish on %s: %w", channel, ErrClosed)
	}
	m.reg.deliver(channel, slices.Clone(data))
	return nil
}

// Subscribe implements Broker.
func (m *Memory) Subscribe(ctx context.Context, channel string) (*Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("subscribe to %s: %w", channel, err)
	}
	s, _ := m.reg.add(channel, func(s *Subscription) { m.reg.drop(s) })
	if s == nil {
		return nil, fmt.Errorf("subscribe to %s: %w", channel, ErrClosed)
	}
	return s, nil
}

// Close implements Broker.
func (m *Memory) Close() error {
	m.reg.close()
	return nil
}
