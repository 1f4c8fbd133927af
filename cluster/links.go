package cluster

import (
	"encoding/binary"
	"hash/fnv"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Links: what a room served here sends to the connections of another node
// goes on one link per room and node, batched (one message per link at a
// time, by flusher) and numbered, so that the receiving node sees a gap
// and joins its connections again. In the room, each remote connection is
// a proxy, a rooms.Member whose frames go on its link.

type linkKey struct{ room, node string }

// link returns the link from room r to node, making it when needed.
func (n *Node) link(r *rooms.Room, node string) *link {
	k := linkKey{r.ID(), node}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.seen[node]; !ok {
		n.seen[node] = now()
	}
	l := n.links[k]
	if l == nil || l.room != r {
		l = &link{n: n, id: n.nextLink.Add(1)<<16 | uint64(now().UnixNano()&0xffff), room: r, node: node,
			proxies: map[uint64]*proxy{}}
		n.links[k] = l
	}
	return l
}

func (n *Node) markDirty(l *link) {
	n.dirtyMu.Lock()
	n.dirty = append(n.dirty, l)
	n.dirtyMu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// flusher publishes the links' pending items, one message per link at a
// time, in order.
func (n *Node) flusher() {
	defer n.wg.Done()
	for {
		select {
		case <-n.quit:
			return
		case <-n.wake:
		}
		n.dirtyMu.Lock()
		ls := n.dirty
		n.dirty = nil
		n.dirtyMu.Unlock()
		for _, l := range ls {
			if w := l.take(); w != nil {
				n.publish(l.node, w)
			}
		}
	}
}

// maxPending bounds the items waiting on one link.
const maxPending = 4096

// link carries what one room sends to the connections of one other node.
type link struct {
	n    *Node
	id   uint64
	room *rooms.Room
	node string

	mu      sync.Mutex
	seq     uint64
	pending []item
	last    *protocol.Frame
	queued  bool
	closed  bool
	proxies map[uint64]*proxy
}

func (l *link) proxy(conn uint64, player, name string, patch, account bool) *proxy {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.proxies[conn]
	if p == nil {
		p = &proxy{l: l, id: proxyID(l.node, conn), conn: conn, player: player, name: name, patch: patch, account: account}
		l.proxies[conn] = p
	}
	return p
}

// proxyID is the member id of a remote connection: the same in every room
// (a rematch carries its members into a new room), never a local
// connection's (those count up from 1).
func proxyID(node string, conn uint64) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(node))
	_ = binary.Write(h, binary.LittleEndian, conn)
	return 1<<63 | h.Sum64()
}

// adopt makes p this link's proxy for its connection (a member carried
// into this link's room from another room).
func (l *link) adopt(p *proxy) {
	l.mu.Lock()
	if _, ok := l.proxies[p.conn]; !ok {
		l.proxies[p.conn] = p
	}
	l.mu.Unlock()
}

func (l *link) forget(conn uint64) {
	l.mu.Lock()
	delete(l.proxies, conn)
	l.mu.Unlock()
}

// close ends the link and returns its members.
func (l *link) close() []*proxy {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	out := make([]*proxy, 0, len(l.proxies))
	for _, p := range l.proxies {
		out = append(out, p)
	}
	return out
}

// add queues f for conn; frames handed to several members in a row are
// carried once.
func (l *link) add(f *protocol.Frame, conn uint64, j string) bool {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false
	}
	if len(l.pending) >= maxPending {
		// The broker does not keep up: drop what waits and skip a
		// sequence number, so the node joins its connections again
		// (a full state) instead of this queue growing without bound.
		l.pending, l.last = nil, nil
		l.seq++
		l.n.log.Warn("link overflow: frames dropped", zap.String("room", l.room.ID()), zap.String("to", l.node))
	}
	switch {
	case f != nil && f == l.last && len(l.pending) > 0:
		it := &l.pending[len(l.pending)-1]
		it.Conns = append(it.Conns, conn)
	case f != nil:
		l.pending = append(l.pending, item{Conns: []uint64{conn}, Frame: f.Data})
	default:
		l.pending = append(l.pending, item{Conns: []uint64{conn}, J: j})
	}
	l.last = f
	queue := !l.queued
	l.queued = true
	l.mu.Unlock()
	if queue {
		l.n.markDirty(l)
	}
	return true
}

// take returns the next message of the link, or nil.
func (l *link) take() *wire {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.queued = false
	if len(l.pending) == 0 {
		return nil
	}
	l.seq++
	w := &wire{K: kindFrames, Room: l.room.ID(), Link: l.id, Seq: l.seq, Items: l.pending}
	l.pending, l.last = nil, nil
	return w
}

// proxy stands in the owner's room for a connection on another node.
type proxy struct {
	l      *link
	id     uint64
	conn   uint64
	player string
	name   string
	patch  bool
	// account: the connection's player is an account (rated games).
	account bool
	as      atomic.Pointer[string]
}

func (p *proxy) ConnID() uint64              { return p.id }
func (p *proxy) PlayerID() string            { return p.player }
func (p *proxy) PlayerName() string          { return p.name }
func (p *proxy) WantsPatch() bool            { return p.patch }
func (p *proxy) Account() bool               { return p.account }
func (p *proxy) Send(f *protocol.Frame) bool { return p.l.add(f, p.conn, "") }
func (p *proxy) Joined(r *rooms.Room) bool   { return p.linkFor(r).add(nil, p.conn, p.role()) }

// linkFor is the link of room r to p's node: p's own, or, for a member
// carried into a new room (rematch), that room's.
func (p *proxy) linkFor(r *rooms.Room) *link {
	if r == p.l.room {
		return p.l
	}
	l := p.l.n.link(r, p.l.node)
	l.adopt(p)
	return l
}

func (p *proxy) role() string {
	if as := p.as.Load(); as != nil && *as != "" {
		return *as
	}
	return rooms.RoleSpectator
}

// Left tells the connection's node, unless the room is stopping: then its
// node keeps the membership and joins it again wherever the room goes.
func (p *proxy) Left(r *rooms.Room) {
	select {
	case <-r.Done():
	default:
		p.linkFor(r).add(nil, p.conn, "-")
	}
}
