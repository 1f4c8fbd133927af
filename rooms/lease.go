package rooms

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/store"
)

// DefaultLeaseTTL is how long a room's lease lasts unless renewed; the room
// renews it every third of that.
const DefaultLeaseTTL = 10 * time.Second

// Cluster makes a Manager one of several nodes on one store: a room runs on
// the node that holds its lease (store.Leases), renews it from its own
// goroutine, fences every save with the lease's epoch, and stops at once when
// another node has taken it over.
type Cluster struct {
	// Leases is the store's lease table (both stores implement it).
	Leases store.Leases
	// Node is this node's id, unique among the nodes.
	Node string
	// TTL is the lease's lifetime (default DefaultLeaseTTL).
	TTL time.Duration
	// RenewTimeout bounds one renewal of a room's lease, which the room
	// goroutine makes every third of TTL (default TTL/3: the next renewal
	// is due then). A renewal without an answer is not a loss of the
	// lease: the room goes on, and its saves stay fenced.
	RenewTimeout time.Duration
	// ReleaseTimeout bounds the release of a room's lease when it stops
	// cleanly (default Config.SaveTimeout); a release without an answer
	// leaves the lease to run out.
	ReleaseTimeout time.Duration
	// OnFenced is called from the room goroutine, after the room stopped
	// because another node took it over, with the members it had: their
	// connections must join the room again, on its new owner. It must not
	// block.
	OnFenced func(room string, members []JoinAs)
}

// OwnedElsewhere is the error of Lookup when another node holds the room's
// lease: commands for the room go to that node.
type OwnedElsewhere struct {
	Room, Node string
}

func (e *OwnedElsewhere) Error() string {
	return fmt.Sprintf("room %s is served by node %s", e.Room, e.Node)
}

// Node is this node's id ("" for a single node).
func (m *Manager) Node() string {
	if m.cfg.Cluster == nil {
		return ""
	}
	return m.cfg.Cluster.Node
}

// Running returns the room when it runs on this node, without loading it.
func (m *Manager) Running(id string) (*Room, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	return r, ok
}

// acquire takes the room's lease for this node, or says who holds it.
func (m *Manager) acquire(ctx context.Context, id string) (int64, error) {
	c := m.cfg.Cluster
	epoch, err := c.Leases.AcquireLease(ctx, id, c.Node, c.TTL)
	if errors.Is(err, store.ErrLeaseHeld) {
		holder, _, herr := c.Leases.LeaseHolder(ctx, id)
		if herr == nil && holder != c.Node {
			return 0, &OwnedElsewhere{Room: id, Node: holder}
		}
		return 0, fmt.Errorf("lease of room %s: %w", id, err) // it moved meanwhile: try again
	}
	if err != nil {
		return 0, fmt.Errorf("lease of room %s: %w", id, err)
	}
	return epoch, nil
}

// release frees the room's lease after the room stopped cleanly.
func (m *Manager) release(id string, epoch int64) {
	c := m.cfg.Cluster
	ctx, cancel := context.WithTimeout(context.Background(), c.ReleaseTimeout)
	defer cancel()
	if err := c.Leases.ReleaseLease(ctx, id, c.Node, epoch); err != nil {
		m.log.Warn("release lease", zap.String("room", id), zap.Error(err))
	}
}

// armLease renews the room's lease every third of its lifetime, from the
// room goroutine.
func (r *Room) armLease() {
	c := r.m.cfg.Cluster
	if c == nil || r.epoch == 0 {
		return
	}
	r.later(c.TTL/3, r.renewLease)
}

func (r *Room) renewLease() {
	c := r.m.cfg.Cluster
	ctx, cancel := context.WithTimeout(context.Background(), c.RenewTimeout)
	defer cancel()
	err := c.Leases.RenewLease(ctx, r.id, c.Node, r.epoch, c.TTL)
	switch {
	case errors.Is(err, store.ErrFenced):
		r.lostLease("renew")
		return
	case err != nil:
		// The store did not answer: keep serving; if the lease runs out
		// meanwhile and another node takes the room, the next save is
		// refused (ErrFenced) and the room stops then.
		r.log.Warn("renew lease", zap.String("room", r.id), zap.Error(err))
	}
	r.armLease()
}

// lostLease stops the room: another node serves it now.
func (r *Room) lostLease(what string) {
	if !r.fenced {
		r.log.Warn("room taken over by another node: stopping", zap.String("room", r.id),
			zap.Int64("epoch", r.epoch), zap.String("on", what))
	}
	r.fenced = true
}
