package cluster

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Remote rooms: the rooms served by other nodes in which this node has
// connections. Their owner's links say who joined and left (frames), which
// the node reports to the hub's one membership index (JoinedElsewhere,
// LeftElsewhere); it keeps of each room only its owner and its link's
// sequence. It watches their leases and owners (watch) and joins the
// members the hub lists (Hub.MembersElsewhere) again (rejoin) when a room changes
// hands or its frames skip one.

// remoteRoom is what a node knows of a room served elsewhere in which it has
// connections: who serves it, and the last message of its link.
type remoteRoom struct {
	owner string
	link  uint64
	seq   uint64
}

// watch checks the lease of every room served elsewhere in which this node
// has connections: when its holder changed (takeover, or a lease run out
// with nobody to take it) the connections join again, which routes them to
// the new owner or takes the room over here. With Liveness it also checks
// the owners' liveness keys every LiveEvery: a dead owner's room is taken
// over at once (takeOver), without waiting for its lease to run out.
func (n *Node) watch() {
	defer n.wg.Done()
	every := n.cfg.TTL / 3
	if n.cfg.Liveness != nil {
		every = min(every, n.cfg.LiveEvery)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var leasesAt time.Time
	for {
		select {
		case <-n.quit:
			return
		case <-t.C:
		}
		type check struct {
			room, owner string
		}
		var cs []check
		for _, id := range n.remoteRooms() {
			n.mu.Lock()
			if rr := n.remote[id]; rr != nil {
				cs = append(cs, check{id, rr.owner})
			}
			n.mu.Unlock()
		}
		leases := now().Sub(leasesAt) >= n.cfg.TTL/3
		if leases {
			leasesAt = now()
		}
		// One fresh look at each owner's key per tick (not one per room):
		// takeOver below then reads these answers.
		checked := map[string]bool{}
		for _, c := range cs {
			if !checked[c.owner] {
				checked[c.owner] = true
				n.keyAlive(c.owner, true)
			}
		}
		for _, c := range cs {
			if n.takeOver(c.room, c.owner, false) {
				n.rejoinAll(c.room)
				continue
			}
			if !leases {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), n.cfg.AckTimeout)
			holder, _, err := n.cfg.Leases.LeaseHolder(ctx, c.room)
			cancel()
			if err != nil && !errors.Is(err, store.ErrNotFound) || holder == c.owner {
				continue
			}
			n.log.Info("room changed hands: joining again", zap.String("room", c.room),
				zap.String("from", c.owner), zap.String("to", holder))
			n.rejoinAll(c.room)
		}
	}
}

// remoteRooms returns the remote rooms this node has members in, and
// forgets those it has none in any more.
func (n *Node) remoteRooms() []string {
	n.mu.Lock()
	ids := make([]string, 0, len(n.remote))
	for id := range n.remote {
		ids = append(ids, id)
	}
	n.mu.Unlock()
	in := ids[:0]
	for _, id := range ids {
		if len(n.h.MembersElsewhere(id)) > 0 {
			in = append(in, id)
			continue
		}
		n.mu.Lock()
		delete(n.remote, id)
		n.mu.Unlock()
	}
	return in
}

// rejoinAll joins this node's connections in room again (after a takeover
// or a gap in its frames).
func (n *Node) rejoinAll(room string) {
	n.mu.Lock()
	delete(n.remote, room)
	n.mu.Unlock()
	for _, m := range n.h.MembersElsewhere(room) {
		n.rejoin(m.Client, room, m.As)
	}
}

// rejoinLater is rejoin on a goroutine of its own, which stop waits for.
func (n *Node) rejoinLater(c hub.Client, room, as string) {
	select {
	case <-n.quit:
		return // stopping: the connections are closed, or closing
	default:
	}
	n.rwg.Add(1)
	go func() {
		defer n.rwg.Done()
		n.rejoin(c, room, as)
	}()
}

// rejoin joins c to room again as as, wherever the room runs now.
func (n *Node) rejoin(c hub.Client, room, as string) {
	if c.Closed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), hub.StoreTimeout)
	defer cancel()
	m := &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: as}
	if perr := (router{n}).Route(ctx, c, m); perr != nil {
		n.log.Info("join again failed", zap.String("room", room), zap.Uint64("conn", c.ConnID()), zap.String("error", perr.Msg))
		// The room could not be reached: keep it known, so that the
		// watch tries again; a room that is no more is left.
		if perr.Code == protocol.CodeInternal {
			n.member(room, "", c, as)
		} else {
			c.LeftElsewhere(room)
		}
	}
}

// OnFenced is the rooms' Cluster.OnFenced: it joins the local members of a
// room taken over by another node again, there; the members on other nodes
// follow by themselves (watch).
func (n *Node) OnFenced(room string, members []rooms.JoinAs) {
	for _, j := range members {
		if c, ok := j.M.(hub.Client); ok {
			n.rejoinLater(c, room, j.As)
		}
	}
}

// member reports to the hub that c is (as != "-") or is no longer a member
// of the room served by owner, and keeps the room known (watch) while c is.
// A room left by every member is forgotten by the next watch.
func (n *Node) member(room, owner string, c hub.Client, as string) {
	if as == "-" {
		c.LeftElsewhere(room)
		return
	}
	n.mu.Lock()
	rr := n.remote[room]
	if rr == nil {
		rr = &remoteRoom{owner: owner}
		n.remote[room] = rr
	}
	if owner != "" {
		rr.owner = owner
	}
	n.mu.Unlock()
	c.JoinedElsewhere(room, as)
}

// frames delivers a link message to the connections it names.
func (n *Node) frames(w *wire) {
	gap := false
	n.mu.Lock()
	rr := n.remote[w.Room]
	if rr != nil {
		switch {
		case rr.link != w.Link:
			rr.link, rr.seq, rr.owner = w.Link, w.Seq, w.Node
		case w.Seq != rr.seq+1:
			gap = true
		default:
			rr.seq = w.Seq
		}
	}
	n.mu.Unlock()
	if gap {
		n.log.Info("gap in a room's frames: joining again", zap.String("room", w.Room))
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.rejoinAll(w.Room)
		}()
		return
	}
	for _, it := range w.Items {
		if it.J != "" {
			for _, id := range it.Conns {
				if c := n.h.Client(id); c != nil {
					n.member(w.Room, w.Node, c, it.J)
				}
			}
			n.mu.Lock()
			if rr := n.remote[w.Room]; rr != nil && rr.link == 0 {
				rr.link, rr.seq = w.Link, w.Seq
			}
			n.mu.Unlock()
			continue
		}
		f := protocol.NewFrame(it.Frame)
		for _, id := range it.Conns {
			if c := n.h.Client(id); c != nil {
				c.Send(f)
			}
		}
	}
}
