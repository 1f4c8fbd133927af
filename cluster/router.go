package cluster

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// router is the hub.Router of a node among several: a room served here is
// reached as on a single node; a room another node serves is reached
// through the broker (forward), or taken over here when its node is dead
// (takeOver).
type router struct{ n *Node }

// Route implements hub.Router.
func (r router) Route(ctx context.Context, c rooms.Member, m *protocol.ClientMessage) *protocol.Error {
	return hub.Reach(ctx, r.n.cfg.Rooms, r.n.log, c, m, r.n.elsewhere)
}

// Gone implements hub.Router: it tells the node serving room that c closed
// (the hub has taken c out of its index already).
func (r router) Gone(m rooms.Member, room string) {
	n := r.n
	n.mu.Lock()
	owner := ""
	if rr := n.remote[room]; rr != nil {
		owner = rr.owner
	}
	n.mu.Unlock()
	if owner != "" && owner != n.cfg.Node {
		n.forward(context.Background(), owner, m, &protocol.ClientMessage{Type: typeGone, Room: room}, false)
	}
}

// elsewhere is the node's hub.Elsewhere.
func (n *Node) elsewhere(ctx context.Context, owner string, c rooms.Member, m *protocol.ClientMessage, attempt int) hub.Delivery {
	if n.takeOver(m.Room, owner, attempt > 0) {
		return hub.LookAgain // its node is dead: the next Lookup takes it here
	}
	switch n.forward(ctx, owner, c, m, true) {
	case ackOK:
		return hub.Delivered
	case ackGone:
		return hub.LookAgain // it stopped there as the message came
	default:
		// The node may be dead: the next attempt checks its liveness key
		// afresh, and once the key or the lease has run out, Lookup takes
		// the room over here.
		n.log.Info("no answer from a room's node", zap.String("room", m.Room), zap.String("owner", owner))
		return hub.NoAnswer
	}
}

// forward sends c's message for room to owner and waits until the room took
// it: ackOK, ackGone (not served there), or "" (no answer in time).
func (n *Node) forward(ctx context.Context, owner string, c rooms.Member, m *protocol.ClientMessage, wait bool) string {
	patch := false
	if p, ok := c.(interface{ WantsPatch() bool }); ok {
		patch = p.WantsPatch()
	}
	account := false
	if a, ok := c.(rooms.AccountMember); ok {
		account = a.Account()
	}
	w := &wire{K: kindCmd, Room: m.Room, Conn: c.ConnID(), Player: c.PlayerID(), Name: c.PlayerName(), Patch: patch,
		Account: account, Msg: m}
	if !wait {
		n.publish(owner, w)
		return ackOK
	}
	var ch <-chan *wire
	var done func()
	w.Req, ch, done = n.expect()
	defer done()
	n.publish(owner, w)
	t := time.NewTimer(n.cfg.AckTimeout)
	defer t.Stop()
	select {
	case a := <-ch:
		return a.Status
	case <-t.C:
	case <-ctx.Done():
	case <-n.quit:
	}
	return ""
}

// expect registers a request whose answer (kindAck, kindRan) comes on ch;
// done forgets it.
func (n *Node) expect() (req uint64, ch <-chan *wire, done func()) {
	c := make(chan *wire, 1)
	req = n.nextReq.Add(1)
	n.mu.Lock()
	n.pending[req] = c
	n.mu.Unlock()
	return req, c, func() {
		n.mu.Lock()
		delete(n.pending, req)
		n.mu.Unlock()
	}
}

// command runs a command forwarded by another node on the room served here.
func (n *Node) command(w *wire) {
	status := ackGone
	if r, ok := n.cfg.Rooms.Running(w.Room); ok && w.Msg != nil {
		l := n.link(r, w.Node)
		p := l.proxy(w.Conn, w.Player, w.Name, w.Patch, w.Account)
		if w.Msg.Type == protocol.TypeRoomJoin {
			p.as.Store(&w.Msg.As)
		}
		var posted bool
		if w.Msg.Type == typeGone {
			posted = r.Gone(p)
		} else {
			posted = hub.Post(r, p, w.Msg)
		}
		if posted {
			status = ackOK
		}
		if w.Msg.Type == typeGone || w.Msg.Type == protocol.TypeRoomLeave {
			l.forget(w.Conn)
		}
	}
	if w.Req != 0 {
		n.publish(w.Node, &wire{K: kindAck, Req: w.Req, Room: w.Room, Status: status})
	}
}
