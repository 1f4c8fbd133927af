package hub

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Cluster makes the hub one of several lobby nodes on one store and one
// broker (docs/architecture.md, "Several nodes"). A room runs on the node
// holding its lease (rooms.Cluster); a connection on another node reaches it
// through the broker:
//
//   - its commands are published on the owner's channel ("node:<id>") and
//     acknowledged once the room took them;
//   - everything the room sends to it comes back on the connection's node
//     channel, once per frame per node, naming the connections it is for;
//   - every node says it is alive on "nodes"; an owner drops the members of
//     a node it has not heard from for a lease's lifetime, and a node whose
//     connections are in a room served elsewhere watches the room's lease
//     and joins them again on the new owner when it changes.
type Cluster struct {
	// Broker carries the messages between nodes.
	Broker broker.Broker
	// Leases is the store's lease table, the same the rooms use.
	Leases store.Leases
	// Node is this node's id, the rooms' Cluster.Node.
	Node string
	// TTL is the rooms' lease lifetime (default rooms.DefaultLeaseTTL): a
	// node silent for that long is taken for dead.
	TTL time.Duration
	// AckTimeout bounds the wait for the owner to take a command (default
	// 2 s).
	AckTimeout time.Duration
	// Liveness, when not nil, holds this node's liveness key, renewed every
	// LiveEvery for LiveTTL by one goroutine (beat). When the key of a
	// room's owner is gone, this node frees the room's lease at once
	// instead of waiting up to TTL for it to run out (takeOver); the lease
	// epoch still fences the owner's saves, should it only have been slow.
	Liveness broker.Liveness
	// LiveTTL is the liveness key's lifetime (default DefaultLiveTTL).
	LiveTTL time.Duration
	// LiveEvery is how often the key is renewed, and how often the owners
	// of the rooms this node has members in are checked (default
	// LiveTTL/4).
	LiveEvery time.Duration
}

// DefaultLiveTTL is the lifetime of a node's liveness key: a SIGKILLed
// node's rooms move after at most this (plus a check's period).
const DefaultLiveTTL = 2 * time.Second

// kind is the kind of a message between nodes.
type kind string

// The kinds of message between nodes.
const (
	// kindCmd: a client's message for a room served by the receiver,
	// acknowledged with kindAck when Req is not 0.
	kindCmd kind = "cmd"
	// kindAck: the owner took (ackOK) or does not serve (ackGone) a command.
	kindAck kind = "ack"
	// kindFrames: frames and membership changes of one link (room to node).
	kindFrames kind = "frames"
	// kindMatch: the receiver's queued connection was paired in a room.
	kindMatch kind = "match"
	// kindHeartbeat: on "nodes", the sender is alive and serves these
	// public rooms.
	kindHeartbeat kind = "hb"
)

// wire is one message between nodes.
type wire struct {
	// K is the kind.
	K    kind   `json:"k"`
	Node string `json:"n"`
	Room string `json:"r,omitempty"`
	// Req names a command and its ack (0: no ack wanted).
	Req uint64 `json:"q,omitempty"`
	// cmd: the sending connection and the client's message.
	Conn   uint64                  `json:"c,omitempty"`
	Player string                  `json:"p,omitempty"`
	Name   string                  `json:"nm,omitempty"`
	Patch  bool                    `json:"pt,omitempty"`
	Msg    *protocol.ClientMessage `json:"m,omitempty"`
	// ack: ok or gone (the room does not run here).
	Status string `json:"s,omitempty"`
	// frames: the link (one owner room to one node) and its sequence.
	Link  uint64 `json:"l,omitempty"`
	Seq   uint64 `json:"sq,omitempty"`
	Items []item `json:"i,omitempty"`
	// match: the seat of the connection paired by another node.
	Seat int `json:"st,omitempty"`
	// hb: the node's public live rooms, for the other nodes' lobbies.
	Rooms []protocol.RoomSummary `json:"rs,omitempty"`
}

// item is one frame for some connections of a node, or a change of one
// connection's membership (J: "player", "spectator", or "-" for left).
type item struct {
	Conns []uint64        `json:"c"`
	Frame json.RawMessage `json:"f,omitempty"`
	J     string          `json:"j,omitempty"`
}

// typeGone is the pseudo message a node forwards when a connection closes.
const typeGone = "x.gone"

const (
	ackOK   = "ok"
	ackGone = "gone"
)

type linkKey struct{ room, node string }

// cluster is the hub's side of Cluster.
type cluster struct {
	h   *Hub
	cfg Cluster
	log *zap.Logger

	nextReq  atomic.Uint64
	nextLink atomic.Uint64

	sub, nodes *broker.Subscription
	matcher    store.Matcher // nil: quick match stays local

	// mu guards the maps below; a conn's mu may be taken while holding it
	// (member), never the other way round.
	mu      sync.Mutex
	pending map[uint64]chan string
	links   map[linkKey]*link
	remote  map[string]*remoteRoom
	seen    map[string]time.Time
	started time.Time
	// lobbies: the public rooms each other node last said it serves.
	lobbies map[string][]protocol.RoomSummary
	// live caches the liveness of rooms' owners for LiveEvery (at most
	// one check per owner per period); sweep drops old entries.
	live map[string]liveCheck

	dirtyMu sync.Mutex
	dirty   []*link
	wake    chan struct{}

	quit     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// remoteRoom is what a node knows of a room served elsewhere in which it has
// connections.
type remoteRoom struct {
	owner   string
	link    uint64
	seq     uint64
	members map[*conn]string // role asked for
}

// liveCheck is the last answer about one node's liveness key.
type liveCheck struct {
	alive bool
	at    time.Time
}

func nodeChannel(node string) string { return "node:" + node }

const nodesChannel = "nodes"

// StartCluster subscribes the hub to its node's channel and starts the
// cluster's goroutines; Shutdown stops them. Call it once, before serving.
func (h *Hub) StartCluster(ctx context.Context) error {
	cfg := h.cfg.Cluster
	if cfg == nil {
		return nil
	}
	if cfg.TTL <= 0 {
		cfg.TTL = rooms.DefaultLeaseTTL
	}
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = 2 * time.Second
	}
	if cfg.LiveTTL <= 0 {
		cfg.LiveTTL = DefaultLiveTTL
	}
	if cfg.LiveEvery <= 0 {
		cfg.LiveEvery = cfg.LiveTTL / 4
	}
	cl := &cluster{h: h, cfg: *cfg, log: h.log.With(zap.String("node", cfg.Node)),
		pending: map[uint64]chan string{}, links: map[linkKey]*link{}, remote: map[string]*remoteRoom{},
		seen: map[string]time.Time{}, started: now(), lobbies: map[string][]protocol.RoomSummary{}, live: map[string]liveCheck{}, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	cl.matcher, _ = h.cfg.Store.(store.Matcher)
	if cfg.Liveness != nil {
		// Alive before serving: another node must not take this node's
		// first rooms for a dead node's.
		if err := cfg.Liveness.Beat(ctx, cfg.Node, broker.KindCluster, cfg.LiveTTL); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
	}
	var err error
	if cl.sub, err = cfg.Broker.Subscribe(ctx, nodeChannel(cfg.Node)); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if cl.nodes, err = cfg.Broker.Subscribe(ctx, nodesChannel); err != nil {
		cl.sub.Close()
		return fmt.Errorf("cluster: %w", err)
	}
	h.mu.Lock()
	h.cl = cl
	h.router = clusterRouter{cl}
	h.mu.Unlock()
	cl.wg.Add(5)
	if cfg.Liveness != nil {
		cl.wg.Add(1)
		go cl.beat()
	}
	go cl.receive()
	go cl.heard()
	go cl.heartbeat()
	go cl.watch()
	go cl.flusher()
	return nil
}

func (cl *cluster) stop() {
	cl.stopOnce.Do(cl.stopNow)
}

func (cl *cluster) stopNow() {
	close(cl.quit)
	cl.sub.Close()
	cl.nodes.Close()
	cl.wg.Wait()
	if lv := cl.cfg.Liveness; lv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.AckTimeout)
		defer cancel()
		if err := lv.Forget(ctx, cl.cfg.Node); err != nil {
			cl.log.Warn("forget liveness", zap.Error(err))
		}
	}
}

// beat renews this node's liveness key every LiveEvery until stop. A
// renewal that fails is only logged: if the key runs out, other nodes take
// this node's rooms and its saves are fenced from then on.
func (cl *cluster) beat() {
	defer cl.wg.Done()
	t := time.NewTicker(cl.cfg.LiveEvery)
	defer t.Stop()
	for {
		select {
		case <-cl.quit:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.LiveEvery)
		err := cl.cfg.Liveness.Beat(ctx, cl.cfg.Node, broker.KindCluster, cl.cfg.LiveTTL)
		cancel()
		if err != nil {
			cl.log.Warn("renew liveness", zap.Error(err))
		}
	}
}

// keyAlive reports whether node's liveness key is there, from a check at most
// LiveEvery old unless fresh. Without Liveness, or when the check fails,
// every node is taken for alive (its rooms wait for their leases).
func (cl *cluster) keyAlive(node string, fresh bool) bool {
	lv := cl.cfg.Liveness
	if lv == nil || node == cl.cfg.Node {
		return true
	}
	t := now()
	cl.mu.Lock()
	c, ok := cl.live[node]
	cl.mu.Unlock()
	if ok && !fresh && t.Sub(c.at) < cl.cfg.LiveEvery {
		return c.alive
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.LiveEvery)
	alive, err := lv.Alive(ctx, node)
	cancel()
	if err != nil {
		cl.log.Warn("liveness check", zap.String("of", node), zap.Error(err))
		return true
	}
	cl.mu.Lock()
	cl.live[node] = liveCheck{alive: alive, at: t}
	cl.mu.Unlock()
	return alive
}

// takeOver frees room's lease when owner holds it and owner's liveness key
// is gone, so that the next Lookup takes the room over on this node at
// once. The release is a compare-and-delete at the owner's epoch: if the
// room moved meanwhile, nothing changes. It reports whether the dead
// owner no longer holds the room (freed here, or moved already).
func (cl *cluster) takeOver(room, owner string, fresh bool) bool {
	if owner == "" || owner == cl.cfg.Node || cl.keyAlive(owner, fresh) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.AckTimeout)
	defer cancel()
	holder, epoch, err := cl.cfg.Leases.LeaseHolder(ctx, room)
	if err != nil {
		return errors.Is(err, store.ErrNotFound) // already free
	}
	if holder != owner {
		return true // taken over already
	}
	if err := cl.cfg.Leases.ReleaseLease(ctx, room, owner, epoch); err != nil {
		cl.log.Info("lease of a dead node's room moved meanwhile", zap.String("room", room), zap.Error(err))
		return false
	}
	cl.log.Warn("node's liveness key gone: its room's lease freed", zap.String("room", room),
		zap.String("dead", owner), zap.Int64("epoch", epoch))
	return true
}

func (cl *cluster) publish(node string, w *wire) {
	w.Node = cl.cfg.Node
	b, err := json.Marshal(w)
	if err != nil {
		cl.log.Error("encode cluster message", zap.Error(err))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.AckTimeout)
	defer cancel()
	ch := nodesChannel
	if node != "" {
		ch = nodeChannel(node)
	}
	if err := cl.cfg.Broker.Publish(ctx, ch, b); err != nil {
		cl.log.Warn("publish", zap.String("to", node), zap.Error(err))
	}
}

// receive handles the node channel. It never blocks on another node: what
// may wait runs on its own goroutine.
func (cl *cluster) receive() {
	defer cl.wg.Done()
	for data := range cl.sub.C() {
		cl.handle(data)
	}
}

// handle runs one message of the node channel.
func (cl *cluster) handle(data []byte) {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		cl.log.Warn("bad cluster message", zap.Error(err))
		return
	}
	cl.alive(w.Node)
	switch w.K {
	case kindCmd:
		cl.wg.Add(1)
		go func() {
			defer cl.wg.Done()
			cl.command(&w)
		}()
	case kindAck:
		cl.mu.Lock()
		ch := cl.pending[w.Req]
		delete(cl.pending, w.Req)
		cl.mu.Unlock()
		if ch != nil {
			ch <- w.Status
		}
	case kindFrames:
		cl.frames(&w)
	case kindMatch:
		cl.matched(&w)
	}
}

func (cl *cluster) alive(node string) {
	if node == "" {
		return
	}
	cl.mu.Lock()
	cl.seen[node] = now()
	cl.mu.Unlock()
}

// heartbeat says this node is alive every third of a lease, and drops the
// members of nodes silent for a whole lease, and the links of rooms that
// stopped.
func (cl *cluster) heartbeat() {
	defer cl.wg.Done()
	t := time.NewTicker(cl.cfg.TTL / 3)
	defer t.Stop()
	for {
		cl.publish("", &wire{K: kindHeartbeat, Rooms: cl.h.cfg.Rooms.Summaries()})
		select {
		case <-cl.quit:
			return
		case <-t.C:
		}
		cl.sweep()
	}
}

func (cl *cluster) heard() {
	defer cl.wg.Done()
	for data := range cl.nodes.C() {
		var w wire
		if json.Unmarshal(data, &w) != nil || w.Node == cl.cfg.Node {
			continue
		}
		cl.alive(w.Node)
		cl.mu.Lock()
		changed := len(w.Rooms) != 0 || len(cl.lobbies[w.Node]) != 0
		cl.lobbies[w.Node] = w.Rooms
		cl.mu.Unlock()
		if changed {
			cl.h.LobbyChanged()
		}
	}
}

func (cl *cluster) sweep() {
	now := now()
	var dead []*link
	cl.mu.Lock()
	for node := range cl.lobbies {
		if now.Sub(cl.seen[node]) > cl.cfg.TTL {
			delete(cl.lobbies, node)
		}
	}
	for node, c := range cl.live {
		if now.Sub(c.at) > cl.cfg.TTL {
			delete(cl.live, node)
		}
	}
	for k, l := range cl.links {
		select {
		case <-l.room.Done():
			delete(cl.links, k)
			continue
		default:
		}
		if seen, ok := cl.seen[k.node]; k.node != cl.cfg.Node && (!ok || now.Sub(seen) > cl.cfg.TTL) {
			delete(cl.links, k)
			dead = append(dead, l)
		}
	}
	cl.mu.Unlock()
	for _, l := range dead {
		cl.log.Warn("node silent: its connections leave the room", zap.String("room", l.room.ID()), zap.String("silent", l.node))
		for _, p := range l.close() {
			l.room.Gone(p)
		}
	}
}

// watch checks the lease of every room served elsewhere in which this node
// has connections: when its holder changed (takeover, or a lease run out
// with nobody to take it) the connections join again, which routes them to
// the new owner or takes the room over here. With Liveness it also checks
// the owners' liveness keys every LiveEvery: a dead owner's room is taken
// over at once (takeOver), without waiting for its lease to run out.
func (cl *cluster) watch() {
	defer cl.wg.Done()
	every := cl.cfg.TTL / 3
	if cl.cfg.Liveness != nil {
		every = min(every, cl.cfg.LiveEvery)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var leasesAt time.Time
	for {
		select {
		case <-cl.quit:
			return
		case <-t.C:
		}
		cl.mu.Lock()
		type check struct {
			room, owner string
		}
		var cs []check
		for id, rr := range cl.remote {
			cs = append(cs, check{id, rr.owner})
		}
		cl.mu.Unlock()
		leases := now().Sub(leasesAt) >= cl.cfg.TTL/3
		if leases {
			leasesAt = now()
		}
		// One fresh look at each owner's key per tick (not one per room):
		// takeOver below then reads these answers.
		checked := map[string]bool{}
		for _, c := range cs {
			if !checked[c.owner] {
				checked[c.owner] = true
				cl.keyAlive(c.owner, true)
			}
		}
		for _, c := range cs {
			if cl.takeOver(c.room, c.owner, false) {
				cl.rejoinAll(c.room)
				continue
			}
			if !leases {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.AckTimeout)
			holder, _, err := cl.cfg.Leases.LeaseHolder(ctx, c.room)
			cancel()
			if err != nil && !errors.Is(err, store.ErrNotFound) || holder == c.owner {
				continue
			}
			cl.log.Info("room changed hands: joining again", zap.String("room", c.room),
				zap.String("from", c.owner), zap.String("to", holder))
			cl.rejoinAll(c.room)
		}
	}
}

// rejoinAll joins this node's connections in room again (after a takeover
// or a gap in its frames).
func (cl *cluster) rejoinAll(room string) {
	cl.mu.Lock()
	rr := cl.remote[room]
	var who map[*conn]string
	if rr != nil {
		delete(cl.remote, room)
		who = rr.members
	}
	cl.mu.Unlock()
	for c, as := range who {
		cl.h.rejoin(c, room, as)
	}
}

// rejoin joins c to room again as as, wherever the room runs now.
func (h *Hub) rejoin(c *conn, room, as string) {
	if c.isClosed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	m := &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: as}
	if perr := h.router.Route(ctx, c, m); perr != nil {
		h.log.Info("join again failed", zap.String("room", room), zap.Uint64("conn", c.id), zap.String("error", perr.Msg))
		// The room could not be reached: keep it known, so that the
		// watch tries again.
		if h.cl != nil && perr.Code == protocol.CodeInternal {
			h.cl.member(room, "", c, as)
		}
	}
}

// member records that c is (as != "-") or is no longer a member of the room
// served by owner.
func (cl *cluster) member(room, owner string, c *conn, as string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	rr := cl.remote[room]
	if as == "-" {
		if rr != nil {
			delete(rr.members, c)
			if len(rr.members) == 0 {
				delete(cl.remote, room)
			}
		}
		c.mu.Lock()
		delete(c.inRemote, room)
		c.mu.Unlock()
		return
	}
	if rr == nil {
		rr = &remoteRoom{owner: owner, members: map[*conn]string{}}
		cl.remote[room] = rr
	}
	if owner != "" {
		rr.owner = owner
	}
	rr.members[c] = as
	c.mu.Lock()
	if c.inRemote == nil {
		c.inRemote = map[string]bool{}
	}
	c.inRemote[room] = true
	c.mu.Unlock()
}

// frames delivers a link message to the connections it names.
func (cl *cluster) frames(w *wire) {
	gap := false
	cl.mu.Lock()
	rr := cl.remote[w.Room]
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
	cl.mu.Unlock()
	if gap {
		cl.log.Info("gap in a room's frames: joining again", zap.String("room", w.Room))
		cl.wg.Add(1)
		go func() {
			defer cl.wg.Done()
			cl.rejoinAll(w.Room)
		}()
		return
	}
	for _, it := range w.Items {
		if it.J != "" {
			for _, id := range it.Conns {
				if c := cl.h.connByID(id); c != nil {
					cl.member(w.Room, w.Node, c, it.J)
				}
			}
			cl.mu.Lock()
			if rr := cl.remote[w.Room]; rr != nil && rr.link == 0 {
				rr.link, rr.seq = w.Link, w.Seq
			}
			cl.mu.Unlock()
			continue
		}
		f := protocol.NewFrame(it.Frame)
		for _, id := range it.Conns {
			if c := cl.h.connByID(id); c != nil {
				c.Send(f)
			}
		}
	}
}

// forward sends c's message for room to owner and waits until the room took
// it: ackOK, ackGone (not served there), or "" (no answer in time).
func (cl *cluster) forward(ctx context.Context, owner string, c rooms.Member, m *protocol.ClientMessage, wait bool) string {
	patch := false
	if p, ok := c.(interface{ WantsPatch() bool }); ok {
		patch = p.WantsPatch()
	}
	w := &wire{K: kindCmd, Room: m.Room, Conn: c.ConnID(), Player: c.PlayerID(), Name: c.PlayerName(), Patch: patch, Msg: m}
	if !wait {
		cl.publish(owner, w)
		return ackOK
	}
	ch := make(chan string, 1)
	w.Req = cl.nextReq.Add(1)
	cl.mu.Lock()
	cl.pending[w.Req] = ch
	cl.mu.Unlock()
	defer func() {
		cl.mu.Lock()
		delete(cl.pending, w.Req)
		cl.mu.Unlock()
	}()
	cl.publish(owner, w)
	t := time.NewTimer(cl.cfg.AckTimeout)
	defer t.Stop()
	select {
	case s := <-ch:
		return s
	case <-t.C:
	case <-ctx.Done():
	case <-cl.quit:
	}
	return ""
}

// command runs a command forwarded by another node on the room served here.
func (cl *cluster) command(w *wire) {
	status := ackGone
	if r, ok := cl.h.cfg.Rooms.Running(w.Room); ok && w.Msg != nil {
		l := cl.link(r, w.Node)
		p := l.proxy(w.Conn, w.Player, w.Name, w.Patch)
		if w.Msg.Type == protocol.TypeRoomJoin {
			p.as.Store(&w.Msg.As)
		}
		if postToRoom(r, p, w.Msg) {
			status = ackOK
		}
		if w.Msg.Type == typeGone || w.Msg.Type == protocol.TypeRoomLeave {
			l.forget(w.Conn)
		}
	}
	if w.Req != 0 {
		cl.publish(w.Node, &wire{K: kindAck, Req: w.Req, Room: w.Room, Status: status})
	}
}

// link returns the link from room r to node, making it when needed.
func (cl *cluster) link(r *rooms.Room, node string) *link {
	k := linkKey{r.ID(), node}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if _, ok := cl.seen[node]; !ok {
		cl.seen[node] = now()
	}
	l := cl.links[k]
	if l == nil || l.room != r {
		l = &link{cl: cl, id: cl.nextLink.Add(1)<<16 | uint64(now().UnixNano()&0xffff), room: r, node: node,
			proxies: map[uint64]*proxy{}}
		cl.links[k] = l
	}
	return l
}

func (cl *cluster) markDirty(l *link) {
	cl.dirtyMu.Lock()
	cl.dirty = append(cl.dirty, l)
	cl.dirtyMu.Unlock()
	select {
	case cl.wake <- struct{}{}:
	default:
	}
}

// flusher publishes the links' pending items, one message per link at a
// time, in order.
func (cl *cluster) flusher() {
	defer cl.wg.Done()
	for {
		select {
		case <-cl.quit:
			return
		case <-cl.wake:
		}
		cl.dirtyMu.Lock()
		ls := cl.dirty
		cl.dirty = nil
		cl.dirtyMu.Unlock()
		for _, l := range ls {
			if w := l.take(); w != nil {
				cl.publish(l.node, w)
			}
		}
	}
}

// maxPending bounds the items waiting on one link.
const maxPending = 4096

// link carries what one room sends to the connections of one other node.
type link struct {
	cl   *cluster
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

func (l *link) proxy(conn uint64, player, name string, patch bool) *proxy {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.proxies[conn]
	if p == nil {
		p = &proxy{l: l, id: proxyID(l.node, conn), conn: conn, player: player, name: name, patch: patch}
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
		l.cl.log.Warn("link overflow: frames dropped", zap.String("room", l.room.ID()), zap.String("to", l.node))
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
		l.cl.markDirty(l)
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
	as     atomic.Pointer[string]
}

func (p *proxy) ConnID() uint64              { return p.id }
func (p *proxy) PlayerID() string            { return p.player }
func (p *proxy) PlayerName() string          { return p.name }
func (p *proxy) WantsPatch() bool            { return p.patch }
func (p *proxy) Send(f *protocol.Frame) bool { return p.l.add(f, p.conn, "") }
func (p *proxy) Joined(r *rooms.Room) bool   { return p.linkFor(r).add(nil, p.conn, p.role()) }

// linkFor is the link of room r to p's node: p's own, or, for a member
// carried into a new room (rematch), that room's.
func (p *proxy) linkFor(r *rooms.Room) *link {
	if r == p.l.room {
		return p.l
	}
	l := p.l.cl.link(r, p.l.node)
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

// onFenced joins the local members of a room taken over by another node
// again, there; the members on other nodes follow by themselves (watch).
func (h *Hub) onFenced(room string, members []rooms.JoinAs) {
	for _, j := range members {
		c, ok := j.M.(*conn)
		if !ok {
			continue
		}
		h.cwg.Add(1)
		go func() {
			defer h.cwg.Done()
			h.rejoin(c, room, j.As)
		}()
	}
}

// OnFenced is the rooms' Cluster.OnFenced of this hub.
func (h *Hub) OnFenced() func(string, []rooms.JoinAs) { return h.onFenced }

var now = time.Now

// remoteSummaries is the public rooms the other nodes serve, as they last
// said (at most a third of a lease ago).
func (cl *cluster) remoteSummaries() []protocol.RoomSummary {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var out []protocol.RoomSummary
	for _, rs := range cl.lobbies {
		out = append(out, rs...)
	}
	return out
}

// clusterRouter is the Router of a node among several: a room served here
// is reached as on a single node; a room another node serves is reached
// through the broker (forward), or taken over here when its node is dead
// (takeOver).
type clusterRouter struct{ cl *cluster }

// Route implements Router.
func (r clusterRouter) Route(ctx context.Context, c rooms.Member, m *protocol.ClientMessage) *protocol.Error {
	return reach(ctx, r.cl.h.cfg.Rooms, r.cl.h.log, c, m, r.cl.elsewhere)
}

// elsewhere is the cluster's elsewhereFunc.
func (cl *cluster) elsewhere(ctx context.Context, owner string, c rooms.Member, m *protocol.ClientMessage, attempt int) delivery {
	if cl.takeOver(m.Room, owner, attempt > 0) {
		return lookAgain // its node is dead: the next Lookup takes it here
	}
	switch cl.forward(ctx, owner, c, m, true) {
	case ackOK:
		return delivered
	case ackGone:
		return lookAgain // it stopped there as the message came
	default:
		// The node may be dead: the next attempt checks its liveness key
		// afresh, and once the key or the lease has run out, Lookup takes
		// the room over here.
		cl.log.Info("no answer from a room's node", zap.String("room", m.Room), zap.String("owner", owner))
		return noAnswer
	}
}

// Gone implements Router: it tells the node serving room that c closed.
func (r clusterRouter) Gone(m rooms.Member, room string) {
	cl := r.cl
	c, _ := m.(*conn)
	cl.mu.Lock()
	owner := ""
	if rr := cl.remote[room]; rr != nil {
		owner = rr.owner
		delete(rr.members, c)
		if len(rr.members) == 0 {
			delete(cl.remote, room)
		}
	}
	cl.mu.Unlock()
	if owner != "" && owner != cl.cfg.Node {
		cl.forward(context.Background(), owner, m, &protocol.ClientMessage{Type: typeGone, Room: room}, false)
	}
}
