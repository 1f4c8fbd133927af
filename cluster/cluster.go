// Package cluster makes a hub one of several lobby nodes on one store and
// one broker (docs/architecture.md, "Several nodes"). A room runs on the
// node holding its lease (rooms.Cluster); a connection on another node
// reaches it through the broker:
//
//   - its commands are published on the owner's channel ("node:<id>") and
//     acknowledged once the room took them (router.go);
//   - everything the room sends to it comes back on the connection's node
//     channel, once per frame per node, naming the connections it is for
//     (links.go);
//   - every node says it is alive on "nodes" and which public rooms it
//     serves (lobby.go); an owner drops the members of a node it has not
//     heard from for a lease's lifetime;
//   - a node whose connections are in a room served elsewhere watches the
//     room's lease and its owner's liveness key, takes a dead owner's room
//     over, and joins them again on the new owner when it changes
//     (liveness.go, watch.go);
//   - quick match pairs through the store's shared queues (match.go).
//
// The hub knows nothing of this package: Start plugs the node into it
// (hub.Hooks). Only the wiring (internal/server) imports it.
package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Config configures a node. Zero durations take the defaults.
type Config struct {
	// Hub is this node's hub; Start plugs the node into it.
	Hub *hub.Hub
	// Rooms is this node's rooms' Manager, the hub's.
	Rooms *rooms.Manager
	// Matcher holds the quick-match queues all nodes share; nil keeps
	// quick match within each node.
	Matcher store.Matcher
	Log     *zap.Logger
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
	// Bots, when not nil, lists the bot accounts whose event stream is
	// open on this node: the heartbeat carries them to the other nodes
	// (BotsElsewhere), so that a bot is online on every node.
	Bots func() []protocol.BotInfo
	// OnBotEvent, when not nil, is given the events another node
	// published for bot accounts' event streams (BotEvent): the bots' ids
	// and the line. It must not block.
	OnBotEvent func(bots []string, line []byte)
}

// DefaultLiveTTL is the lifetime of a node's liveness key: a SIGKILLed
// node's rooms move after at most this (plus a check's period).
const DefaultLiveTTL = 2 * time.Second

// Node is one running node of several: the hub's Router, Matchmaker and
// remote lobby (hub.Hooks), and the rooms' OnFenced.
type Node struct {
	h   *hub.Hub
	cfg Config
	log *zap.Logger

	nextReq  atomic.Uint64
	nextLink atomic.Uint64

	sub, nodes *broker.Subscription

	// mu guards the maps below. It, link.mu and dirtyMu are each taken
	// alone (no other lock, the hub's included, is taken while one is
	// held), and none is held across a broker or store call.
	mu sync.Mutex
	// pending: the answers awaited (kindAck, kindRan), by request.
	pending map[uint64]chan *wire
	links   map[linkKey]*link
	remote  map[string]*remoteRoom
	seen    map[string]time.Time
	started time.Time
	// lobbies: the digest of its public rooms each other node last sent.
	lobbies map[string]hub.Digest
	// pages: the answers awaited by a page of GET /api/rooms, by request.
	pages map[uint64]chan []protocol.RoomSummary
	// bots: the bot accounts online on each other node, as its last
	// heartbeat said.
	bots map[string][]protocol.BotInfo
	// beatNow asks the heartbeat to go out at once (BotsChanged).
	beatNow chan struct{}
	// events: the bot events waiting for the announcer (BotEvent).
	events chan *wire
	// live caches the liveness of rooms' owners for LiveEvery (at most
	// one check per owner per period); sweep drops old entries.
	live map[string]liveCheck

	dirtyMu sync.Mutex
	dirty   []*link
	wake    chan struct{}

	quit     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup // the goroutines below and the commands
	rwg      sync.WaitGroup // the joins again (rejoinLater)
}

func nodeChannel(node string) string { return "node:" + node }

const nodesChannel = "nodes"

var now = time.Now

// Start subscribes the node to its channels, starts its goroutines and
// plugs it into cfg.Hub; the hub's Shutdown stops it. Call it once, before
// serving.
func Start(ctx context.Context, cfg Config) (*Node, error) {
	if cfg.Hub == nil || cfg.Rooms == nil || cfg.Broker == nil || cfg.Leases == nil || cfg.Node == "" {
		return nil, fmt.Errorf("cluster: Hub, Rooms, Broker, Leases and Node are required")
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
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
	n := &Node{h: cfg.Hub, cfg: cfg, log: cfg.Log.With(zap.String("node", cfg.Node)),
		pending: map[uint64]chan *wire{}, links: map[linkKey]*link{}, remote: map[string]*remoteRoom{},
		seen: map[string]time.Time{}, started: now(), lobbies: map[string]hub.Digest{},
		pages: map[uint64]chan []protocol.RoomSummary{}, bots: map[string][]protocol.BotInfo{},
		beatNow: make(chan struct{}, 1), events: make(chan *wire, botEvents),
		live: map[string]liveCheck{}, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	if cfg.Liveness != nil {
		// Alive before serving: another node must not take this node's
		// first rooms for a dead node's.
		if err := cfg.Liveness.Beat(ctx, cfg.Node, broker.KindCluster, cfg.LiveTTL); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
	}
	var err error
	if n.sub, err = cfg.Broker.Subscribe(ctx, nodeChannel(cfg.Node)); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if n.nodes, err = cfg.Broker.Subscribe(ctx, nodesChannel); err != nil {
		n.sub.Close()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	hk := hub.Hooks{Router: router{n}, Lobby: n.digests, Rooms: n.roomsElsewhere, Stop: n.stop}
	if cfg.Matcher != nil {
		hk.Match = matchmaker{n}
	}
	cfg.Hub.Plug(hk)
	n.wg.Add(6)
	if cfg.Liveness != nil {
		n.wg.Add(1)
		go n.beat()
	}
	go n.receive()
	go n.heard()
	go n.heartbeat()
	go n.watch()
	go n.flusher()
	go n.announcer()
	return n, nil
}

// stop ends the node's goroutines, then the joins again still running
// (they give up), and forgets its liveness key; once.
func (n *Node) stop() {
	n.stopOnce.Do(n.stopNow)
}

func (n *Node) stopNow() {
	close(n.quit)
	n.sub.Close()
	n.nodes.Close()
	n.wg.Wait()
	n.rwg.Wait()
	if lv := n.cfg.Liveness; lv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.AckTimeout)
		defer cancel()
		if err := lv.Forget(ctx, n.cfg.Node); err != nil {
			n.log.Warn("forget liveness", zap.Error(err))
		}
	}
}
