// Package hub serves the WebSocket endpoint: connections (a reader goroutine
// each, a writer goroutine while there is something to write, a bounded
// outgoing queue, ping/pong, a read limit,
// a rate limit, the origin check), guest identities, the lobby and the
// quick-match queues, and the routing of room messages to the rooms. It
// holds no game state.
//
// A hub serves one node. Package cluster makes it one of several by
// plugging a Router, a Matchmaker and the other nodes' lobbies into it
// (Hooks, host.go); the hub imports none of that code, and a single node
// runs none of it.
package hub

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Config configures a Hub. Zero values take the defaults.
type Config struct {
	Rooms   *rooms.Manager
	Catalog *engine.Catalog
	Store   store.Store
	// Players finds who says hello (by token, by session cookie) and makes
	// guests; default a Directory over Store.
	Players *players.Directory
	Log     *zap.Logger
	Metrics *metrics.Metrics
	// Origins are the allowed Origin values besides the same origin
	// ("*" allows any).
	Origins []string
	// ReadLimit is the largest frame a client may send (default 8 KiB);
	// a larger one closes the connection with 1009.
	ReadLimit int64
	// SendQueue is the number of frames queued for a client before it is
	// dropped as too slow (default 256).
	SendQueue int
	// SendQueueBytes bounds the bytes of the frames queued for a client
	// and of the one being written; a frame that would pass it drops the
	// client as too slow, like a full SendQueue (default
	// DefaultSendQueueBytes). A single frame larger than the bound is
	// still sent when nothing else is held.
	SendQueueBytes int
	// SocketSendBuffer is the kernel send buffer (SO_SNDBUF) of each
	// WebSocket, in bytes (default DefaultSocketSendBuffer; Linux holds up
	// to twice it). A small one makes a client that stops reading fill
	// its queue, and be dropped, after a bounded amount of memory instead
	// of megabytes the kernel would buffer by itself.
	SocketSendBuffer int
	// PingPeriod, PongWait, WriteWait: keep-alive and write deadlines
	// (defaults 25 s, 60 s, 10 s).
	PingPeriod, PongWait, WriteWait time.Duration
	// Rate and Burst: the per-connection token bucket (default 20/s, 40).
	Rate  float64
	Burst int
	// MaxViolations is how many rate_limited answers a client gets before
	// it is disconnected (default 20).
	MaxViolations int
	// LobbyInterval is the least time between two lobby frames pushed to
	// a watcher (default DefaultLobbyInterval): changes within it are
	// sent together.
	LobbyInterval time.Duration
	// MaxRooms is how many rooms a connection may be in at once (default
	// 100). A room stays alive while anyone is in it, finished or not, so
	// without a bound a client that creates games and never leaves them
	// would keep every one in memory; past it a create, join, quick match
	// or rematch is refused until the client leaves a room.
	MaxRooms int
	// Compression negotiates permessage-deflate (no context takeover) with
	// clients that offer it; a broadcast frame is compressed once for all
	// its receivers (PreparedMessage).
	Compression bool
	// MaxConns caps the WebSocket connections open at once; past it an
	// upgrade is answered 503 (busy) with Retry-After. 0 is no cap.
	MaxConns int
	// MaxConnsPerAddr caps the WebSocket connections of one client address
	// (netlimit.Key of ClientAddr); past it an upgrade is answered 429
	// (rate_limited) with Retry-After. 0 is no cap.
	MaxConnsPerAddr int
	// ClientAddr says who the client of a request is, for MaxConnsPerAddr
	// and the logs (default: the peer's address; a netlimit.Resolver
	// trusts a proxy's header).
	ClientAddr func(*http.Request) netip.Addr
	// NewGuests, when not nil, limits how many new guest identities one
	// client address (the key of ClientAddr) may be given: a hello without
	// a known token past it is refused (rate_limited) and creates nothing.
	// Each guest costs the store a player record for the guest TTL.
	NewGuests *netlimit.Rates
	// HelloTimeout: a connection that has not said hello this long after
	// it opened is closed with 1008 (default 10 s). A hello the store
	// could not answer (internal) meets the deadline: the client says it
	// again.
	HelloTimeout time.Duration
	// MatchStep is how often a rated quick-match seeker's range widens
	// (by ratings.SeekWiden) and the waiting seekers are paired again
	// (default DefaultMatchStep, match.go); Now is the quick match's
	// clock (default time.Now).
	MatchStep time.Duration
	Now       func() time.Time
}

// Defaults of the outgoing bounds: a client that stops reading holds at
// most DefaultSendQueueBytes in its queue (or one larger frame) plus up to
// twice DefaultSocketSendBuffer in the kernel before it is dropped with
// 1013.
const (
	DefaultSendQueueBytes   = 256 << 10
	DefaultSocketSendBuffer = 32 << 10
)

// DefaultHelloTimeout is Config.HelloTimeout's default.
const DefaultHelloTimeout = 10 * time.Second

// retryAfter is the Retry-After, in seconds, of a refused upgrade.
const retryAfter = "5"

// readBufferSize is each connection's read buffer, in bytes.
const readBufferSize = 256

// Hub is the WebSocket side of the service.
type Hub struct {
	cfg      Config
	log      *zap.Logger
	upgrader websocket.Upgrader
	nextID   atomic.Uint64
	draining atomic.Bool

	mu      sync.Mutex
	closing bool
	// sweep pairs the rated quick-match seekers as their ranges widen
	// (match.go): armed while any waits.
	sweep *time.Timer
	// sweeping is set while sweepRated runs (it arms the next sweep).
	sweeping bool
	conns    map[*conn]struct{}
	byPlayer map[string]map[*conn]struct{}
	watchers map[*conn]*watcher
	queues   map[QueueKey][]*conn
	byID     map[uint64]*conn
	attached map[uint64]*Attached // clients that are not WebSockets (attached.go)

	// members: which connection is in which room (members.go).
	members *membership

	// peakHeld is the most bytes any connection's queue has held
	// (SendQueuePeak).
	peakHeld atomic.Int64
	// open counts the connections admitted (upgrading or upgraded), for
	// MaxConns; perAddr what each client address holds of them.
	open    atomic.Int64
	perAddr *netlimit.Counter

	// nodes is what a several-nodes layer plugged (Plug; zero on a single
	// node).
	nodes Hooks
	// router reaches the rooms (localRouter; the several-nodes layer's
	// with several nodes). Set by New and Plug, before serving; read-only
	// then.
	router Router

	dirty chan struct{}
	// viewMu guards the last view of the lobby computed (lobby.go,
	// recentView); it is taken alone.
	viewMu     sync.Mutex
	lastView   *lobbyView
	lastViewAt time.Time
	// lastShared is the last lobby frame pushed to the watchers without
	// rooms of their own (the lobby goroutine's).
	lastShared *protocol.Frame
	quit       chan struct{}
	// workers run the connections' writers and message handlers
	// (workers.go); the idle ones return when quit closes.
	workers *workers
	wg      sync.WaitGroup // connections
	lwg     sync.WaitGroup // the lobby goroutine
}

// New returns a hub and starts its lobby goroutine.
func New(cfg Config) *Hub {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Players == nil {
		cfg.Players = players.NewDirectory(players.Config{Store: cfg.Store})
	}
	orDefault(&cfg.ReadLimit, 8<<10)
	orDefault(&cfg.SendQueue, 256)
	orDefault(&cfg.SendQueueBytes, DefaultSendQueueBytes)
	orDefault(&cfg.SocketSendBuffer, DefaultSocketSendBuffer)
	orDefault(&cfg.PingPeriod, 25*time.Second)
	orDefault(&cfg.PongWait, 60*time.Second)
	orDefault(&cfg.WriteWait, 10*time.Second)
	orDefault(&cfg.Rate, 20)
	orDefault(&cfg.Burst, 40)
	orDefault(&cfg.MaxViolations, 20)
	orDefault(&cfg.LobbyInterval, DefaultLobbyInterval)
	orDefault(&cfg.MaxRooms, 100)
	orDefault(&cfg.HelloTimeout, DefaultHelloTimeout)
	orDefault(&cfg.MatchStep, DefaultMatchStep)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = func(r *http.Request) netip.Addr { return netlimit.PeerAddr(r.RemoteAddr) }
	}
	h := &Hub{cfg: cfg, log: cfg.Log, perAddr: netlimit.NewCounter(cfg.MaxConnsPerAddr),
		conns: map[*conn]struct{}{}, byPlayer: map[string]map[*conn]struct{}{},
		watchers: map[*conn]*watcher{}, queues: map[QueueKey][]*conn{}, byID: map[uint64]*conn{}, attached: map[uint64]*Attached{},
		members: newMembership(), dirty: make(chan struct{}, 1), quit: make(chan struct{})}
	h.workers = newWorkers(h.quit)
	// Memory per connection: clients send small messages (a move or a hello
	// is under 200 bytes), so a 256-byte read buffer serves (gorilla's floor
	// is 125, the largest control frame; a larger message is read straight
	// into the message's own buffer, not copied through this one); write
	// buffers come from a pool and are held only while a message is written.
	h.router = localRouter{rooms: cfg.Rooms, log: h.log}
	h.upgrader = websocket.Upgrader{ReadBufferSize: readBufferSize, WriteBufferSize: 4096, WriteBufferPool: &sync.Pool{},
		CheckOrigin: h.checkOrigin, EnableCompression: cfg.Compression}
	h.lwg.Add(1)
	go h.lobbyLoop()
	return h
}

// orDefault sets *v to def when it is zero or negative (not configured).
func orDefault[T int | int64 | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// checkOrigin allows requests without Origin (non-browser clients), the
// same origin, and the configured allow-list.
func (h *Hub) checkOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") == "" || OriginAllowed(h.cfg.Origins, r)
}

// OriginAllowed reports whether the request's Origin is the site's own
// (its host is the request's) or one of origins ("*" allows any). The HTTP
// API checks it too, for requests the session cookie authenticates.
func OriginAllowed(origins []string, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	for _, o := range origins {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// ServeHTTP upgrades /ws requests, within the caps on connections.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	closing := h.closing
	h.mu.Unlock()
	if closing {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	addr := h.cfg.ClientAddr(r)
	key, ok := h.admit(w, addr)
	if !ok {
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		h.release(key)
		h.log.Info("websocket upgrade refused", zap.String("remote", r.RemoteAddr),
			zap.String("origin", r.Header.Get("Origin")), zap.Error(err))
		return
	}
	if sb, ok := ws.NetConn().(interface{ SetWriteBuffer(int) error }); ok {
		if err := sb.SetWriteBuffer(h.cfg.SocketSendBuffer); err != nil {
			h.log.Warn("socket send buffer", zap.Error(err))
		}
	}
	c := &conn{h: h, ws: ws, id: h.nextID.Add(1), remote: r.RemoteAddr, client: addr, addrKey: key, start: time.Now(),
		deflate: h.cfg.Compression && offersDeflate(r.Header), readerDone: make(chan struct{})}
	if ck, err := r.Cookie(players.SessionCookie); err == nil {
		c.session = ck.Value // the page's identity (hello): never logged
	}
	// Set before anyone can close c (closeSocket stops it).
	c.mu.Lock()
	c.pinger = time.AfterFunc(h.cfg.PingPeriod, c.pingTick)
	c.mu.Unlock()
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		c.pinger.Stop()
		h.release(key)
		_ = ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(protocol.CloseRestart, "server restart"), time.Now().Add(time.Second))
		ws.Close()
		return
	}
	h.conns[c] = struct{}{}
	h.byID[c.id] = c
	h.wg.Add(2) // the reader, and the writer that closes the socket
	h.mu.Unlock()
	if h.cfg.Metrics != nil {
		h.cfg.Metrics.Connections.Inc()
		h.cfg.Metrics.ConnTotal.Inc()
	}
	h.log.Info("connection opened", zap.Uint64("conn", c.id), zap.String("remote", c.remote), zap.Stringer("client", addr))
	c.helloTimer = time.AfterFunc(h.cfg.HelloTimeout, c.noHello)
	go c.reader() // the writer starts when there is something to write
}

// admit takes a place for a new connection of the client at addr within
// MaxConns and MaxConnsPerAddr, or answers the refusal. The place is the
// connection's until release(key).
func (h *Hub) admit(w http.ResponseWriter, addr netip.Addr) (key string, ok bool) {
	if n := h.open.Add(1); h.cfg.MaxConns > 0 && n > int64(h.cfg.MaxConns) {
		h.open.Add(-1)
		h.refuse(w, http.StatusServiceUnavailable, "ws_global",
			protocol.Errorf(protocol.CodeBusy, "the server holds all the connections it can, try again later"))
		return "", false
	}
	key = netlimit.Key(addr)
	if !h.perAddr.Acquire(key) {
		h.open.Add(-1)
		h.refuse(w, http.StatusTooManyRequests, "ws_per_addr",
			protocol.Errorf(protocol.CodeRateLimited, "too many connections from your address (at most %d)", h.cfg.MaxConnsPerAddr))
		return "", false
	}
	return key, true
}

// release gives back the place admit took.
func (h *Hub) release(key string) {
	h.perAddr.Release(key)
	h.open.Add(-1)
}

// refuse answers a refused upgrade as the HTTP API answers errors.
func (h *Hub) refuse(w http.ResponseWriter, status int, reason string, e *protocol.Error) {
	if h.cfg.Metrics != nil {
		h.cfg.Metrics.Refused.WithLabelValues(reason).Inc()
	}
	var body protocol.HTTPError
	body.Error.Code, body.Error.Message = e.Code, e.Msg
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", retryAfter)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// SendQueuePeak returns the most bytes any connection's outgoing queue has
// held since the hub started (frames queued and the one being written).
func (h *Hub) SendQueuePeak() int { return int(h.peakHeld.Load()) }

// notePeak records that a queue holds held bytes.
func (h *Hub) notePeak(held int) {
	for {
		p := h.peakHeld.Load()
		if int64(held) <= p || h.peakHeld.CompareAndSwap(p, int64(held)) {
			return
		}
	}
}

// Conns returns how many WebSocket connections are open or upgrading.
func (h *Hub) Conns() int { return int(h.open.Load()) }

// forget removes a closed connection from every index.
func (h *Hub) forget(c *conn) {
	h.mu.Lock()
	delete(h.conns, c)
	delete(h.byID, c.id)
	delete(h.watchers, c)
	if set := h.byPlayer[c.playerID]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(h.byPlayer, c.playerID)
		}
	}
	keys := h.unqueueLocked(c)
	h.mu.Unlock()
	if len(keys) > 0 {
		h.cancelShared(c, keys)
		h.LobbyChanged()
	}
}

// cancelShared takes c out of the shared queues keys, if a Matchmaker is
// plugged.
func (h *Hub) cancelShared(c *conn, keys []QueueKey) {
	if m := h.hooks().Match; m != nil && len(keys) > 0 {
		m.Cancel(c, keys)
	}
}

// unqueueLocked takes c out of the local queues and returns their keys.
func (h *Hub) unqueueLocked(c *conn) []QueueKey {
	var found []QueueKey
	for k, q := range h.queues {
		if i := slices.Index(q, c); i >= 0 {
			q = slices.Delete(q, i, i+1)
			found = append(found, k)
			if len(q) == 0 {
				delete(h.queues, k)
			} else {
				h.queues[k] = q
			}
		}
	}
	return found
}

// Drain stops accepting connections and messages.
func (h *Hub) Drain() {
	h.draining.Store(true)
	h.mu.Lock()
	h.closing = true
	if h.sweep != nil {
		h.sweep.Stop()
		h.sweep = nil
	}
	h.mu.Unlock()
}

// Shutdown closes every connection with code (1012 on a restart) and waits
// for their goroutines until ctx ends.
func (h *Hub) Shutdown(ctx context.Context, code int, reason string) error {
	h.Drain()
	h.mu.Lock()
	cs := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		cs = append(cs, c)
	}
	h.mu.Unlock()
	for _, c := range cs {
		c.kill(code, reason)
	}
	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	select {
	case <-h.quit:
	default:
		close(h.quit)
	}
	h.lwg.Wait()
	if stop := h.hooks().Stop; stop != nil {
		stop()
	}
	return err
}

// connByID returns the open connection with that id, or nil.
func (h *Hub) connByID(id uint64) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byID[id]
}

func (h *Hub) countErr(c protocol.Code) {
	if h.cfg.Metrics != nil {
		h.cfg.Metrics.Errors.WithLabelValues(string(c)).Inc()
	}
}
