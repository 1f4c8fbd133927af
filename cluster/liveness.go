package cluster

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/store"
)

// Liveness: two signs that another node is alive. Hearing from it (any
// message, a heartbeat at least every third of a lease) decides whether its
// members and queued players still count (alive, isAlive); its liveness key
// (Config.Liveness) decides whether its rooms may be taken over before
// their leases run out (keyAlive, takeOver).

// liveCheck is the last answer about one node's liveness key.
type liveCheck struct {
	alive bool
	at    time.Time
}

// alive records that node was heard from.
func (n *Node) alive(node string) {
	if node == "" {
		return
	}
	n.mu.Lock()
	n.seen[node] = now()
	n.mu.Unlock()
}

// isAlive says whether node was heard from within a lease's lifetime (a
// node this one has not heard of yet is given the benefit of the doubt for
// that long after this one started).
func (n *Node) isAlive(node string) bool {
	if node == n.cfg.Node {
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	seen, ok := n.seen[node]
	if !ok {
		seen = n.started
	}
	return now().Sub(seen) <= n.cfg.TTL
}

// beat renews this node's liveness key every LiveEvery until stop. A
// renewal that fails is only logged: if the key runs out, other nodes take
// this node's rooms and its saves are fenced from then on.
func (n *Node) beat() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.LiveEvery)
	defer t.Stop()
	for {
		select {
		case <-n.quit:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.LiveEvery)
		err := n.cfg.Liveness.Beat(ctx, n.cfg.Node, broker.KindCluster, n.cfg.LiveTTL)
		cancel()
		if err != nil {
			n.log.Warn("renew liveness", zap.Error(err))
		}
	}
}

// keyAlive reports whether node's liveness key is there, from a check at most
// LiveEvery old unless fresh. Without Liveness, or when the check fails,
// every node is taken for alive (its rooms wait for their leases).
func (n *Node) keyAlive(node string, fresh bool) bool {
	lv := n.cfg.Liveness
	if lv == nil || node == n.cfg.Node {
		return true
	}
	t := now()
	n.mu.Lock()
	c, ok := n.live[node]
	n.mu.Unlock()
	if ok && !fresh && t.Sub(c.at) < n.cfg.LiveEvery {
		return c.alive
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.LiveEvery)
	alive, err := lv.Alive(ctx, node)
	cancel()
	if err != nil {
		n.log.Warn("liveness check", zap.String("of", node), zap.Error(err))
		return true
	}
	n.mu.Lock()
	n.live[node] = liveCheck{alive: alive, at: t}
	n.mu.Unlock()
	return alive
}

// takeOver frees room's lease when owner holds it and owner's liveness key
// is gone, so that the next Lookup takes the room over on this node at
// once. The release is a compare-and-delete at the owner's epoch: if the
// room moved meanwhile, nothing changes. It reports whether the dead
// owner no longer holds the room (freed here, or moved already).
func (n *Node) takeOver(room, owner string, fresh bool) bool {
	if owner == "" || owner == n.cfg.Node || n.keyAlive(owner, fresh) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.AckTimeout)
	defer cancel()
	holder, epoch, err := n.cfg.Leases.LeaseHolder(ctx, room)
	if err != nil {
		return errors.Is(err, store.ErrNotFound) // already free
	}
	if holder != owner {
		return true // taken over already
	}
	if err := n.cfg.Leases.ReleaseLease(ctx, room, owner, epoch); err != nil {
		n.log.Info("lease of a dead node's room moved meanwhile", zap.String("room", room), zap.Error(err))
		return false
	}
	n.log.Warn("node's liveness key gone: its room's lease freed", zap.String("room", room),
		zap.String("dead", owner), zap.Int64("epoch", epoch))
	return true
}
