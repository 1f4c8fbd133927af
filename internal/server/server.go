// Package server wires the service together: the store, the players'
// directory, the bot pool, the rooms, the hub (the WebSocket endpoint), the
// tournaments, the several nodes' layer and the HTTP API (package httpapi),
// behind the HTTP server's bounds and the listener's caps. It is the
// composition root: New, Config, Shutdown and the listeners. cmd/lobby and
// the integration tests build the same server through New, so what the
// tests drive is what runs.
package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/cluster"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings/rater"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// Config is the server's configuration; zero values take defaults.
type Config struct {
	Catalog *engine.Catalog
	// Store keeps the rooms, the players and, in its Records, the
	// finished games' records (docs/records.md).
	Store store.Store
	Log   *zap.Logger
	// Origins allowed for /ws besides the same origin.
	Origins []string
	// Bots is the bot pool size (default runtime.NumCPU()).
	Bots int
	// BotQueue bounds the jobs waiting for a bot worker (default 1024).
	BotQueue int
	// BotTimeout bounds one bot turn (default 2 s).
	BotTimeout time.Duration
	// WatchDelay is the pause before each move in bot-only rooms.
	WatchDelay time.Duration
	// Grace is how long a disconnected player's opponent waits before it
	// may claim the win (default 60 s; see rooms.Config).
	Grace time.Duration
	// AdjournFactor: a room nobody is in is adjourned after Grace times
	// this (default 10; see rooms.Config).
	AdjournFactor int
	// AbortAfter is how long each seat of a game with a clock has for its
	// first move before the game is aborted (default 30 s; see
	// rooms.Config).
	AbortAfter time.Duration
	// AdjournAfter is how long every player of a playing game must have
	// been gone before the lobby shows it adjourned (default 30 s; see
	// rooms.Config).
	AdjournAfter time.Duration
	// Chat bounds every room's chat (zero fields: rooms.DefaultChatLimits).
	Chat rooms.ChatLimits
	// MaxPlayerRooms is how many unfinished rooms one player may hold
	// (default rooms.DefaultMaxPlayerRooms): every room made for players
	// (room.create, quick match, a challenge, a rematch, a tournament's
	// game) is refused past it (rooms.Config.MaxPlayerRooms).
	MaxPlayerRooms int
	// Now is the rooms' time source (default time.Now); tests inject one.
	Now func() time.Time
	// Root serves "/" (the web client); nil answers 404.
	Root http.Handler
	// Hub tunes the WebSocket side (limits, keep-alive); its Rooms,
	// Catalog, Store, Log, Metrics and Origins are filled in by New.
	Hub hub.Config
	// Cluster, when not nil, makes this server one of several nodes on one
	// store (which must implement store.Leases) and one broker
	// (docs/architecture.md, "Several nodes"). Nil is a single node.
	Cluster *Cluster
	// HTTP bounds the HTTP side: connections, timeouts, headers.
	HTTP HTTPConfig
	// BotAPIPerClient caps the POST /api/bot/move requests one client
	// address may have in flight (default httpapi.DefaultBotAPIPerClient);
	// past it the endpoint answers 429 with Retry-After.
	BotAPIPerClient int
	// Replays bounds the game replays the records API runs at once
	// (default runtime.NumCPU()); MaxPositionsBytes bounds the positions
	// of one answer (default httpapi.DefaultMaxPositionsBytes). See
	// httpapi/records.go.
	Replays           int
	MaxPositionsBytes int
	// BotAPI bounds the bot accounts' API (httpapi/botaccounts.go); its
	// zero rate and queue take the WebSocket's (Hub).
	BotAPI httpapi.BotAPIConfig
	// Accounts bounds accounts, sessions and the hashing of passwords
	// (accounts.go; their HTTP side is httpapi/accounts.go).
	Accounts AccountsConfig
	// TorneioParallel bounds the games of one tournament played at once
	// (default torneio.DefaultParallel); MaxTorneios the tournaments
	// running at once (default torneio.DefaultMaxLive).
	TorneioParallel, MaxTorneios int
	// LadderGames bounds the bot ladder's games at once (default
	// ladder.DefaultGames); LadderEvery is the time between its rounds of
	// pairing (default ladder.DefaultEvery); LadderClock, when not nil,
	// is every ladder game's clock instead of its pool's (tests).
	LadderGames int
	LadderEvery time.Duration
	LadderClock *protocol.TimeControl
	// RatingsDrainEvery is how often the rater applies the rated games a
	// node left owed (default rater.DefaultDrainEvery).
	RatingsDrainEvery time.Duration
}

// HTTPConfig bounds the HTTP side of the service. Zero values take the
// defaults (no caps on connections).
type HTTPConfig struct {
	// MaxConns caps the connections open at once, WebSockets included; 0
	// is no cap. WebSockets may hold all but a reserve of them
	// (WebSocketShare), so that health checks and the API always find a
	// place.
	MaxConns int
	// MaxConnsPerAddr caps the connections of one client address: TCP
	// connections of a peer that is not a trusted proxy, and WebSockets
	// of a client address however it came; 0 is no cap.
	MaxConnsPerAddr int
	// TrustedProxies are the peers whose X-Forwarded-For or X-Real-IP
	// header names the client; any other peer is the client itself.
	TrustedProxies []netip.Prefix
	// ReadHeaderTimeout bounds reading a request's headers (default
	// 10 s); ReadTimeout the headers and body together (default 20 s: a
	// body trickled slower than that is cut off); WriteTimeout writing an
	// answer, on every route but /ws (default 30 s); IdleTimeout how long
	// a kept-alive connection may wait for its next request (default 60 s).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's line and headers together, in
	// bytes (default 16 KiB, at least 4 KiB): one byte more is answered
	// 431 (HTTPServer, httpBounds).
	MaxHeaderBytes int
}

// Defaults of HTTPConfig.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 20 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxHeaderBytes    = 16 << 10
)

// WebSocketShare is how many of n connections WebSockets may hold: all but
// a sixty-fourth of them, at least 16 (at most half), which stay for plain
// HTTP requests (health checks, the API, the page) when WebSockets hold
// their share: 16 of 768 (ulimit -n 1024 with Redis), 310 of 19,872
// (ulimit -n 20000, where the benchmarks hold 19,000 idle WebSockets).
func WebSocketShare(n int) int {
	return n - min(n/2, max(16, n/64))
}

// DefaultLiveTTL is the default lifetime of a node's liveness key.
const DefaultLiveTTL = cluster.DefaultLiveTTL

// Cluster is the configuration of a node among several.
type Cluster struct {
	// Broker carries commands and frames between the nodes; the caller
	// owns it.
	Broker broker.Broker
	// Node is this node's id, unique among the nodes.
	Node string
	// TTL is the rooms' lease lifetime (default rooms.DefaultLeaseTTL).
	TTL time.Duration
	// LiveTTL is the lifetime of the node's liveness key (default
	// cluster.DefaultLiveTTL), when the broker keeps them (broker.Liveness):
	// a dead node's rooms move after about this instead of TTL. Negative
	// turns liveness off.
	LiveTTL time.Duration
}

// Server is the running service.
type Server struct {
	cfg     Config
	log     *zap.Logger
	Metrics *metrics.Metrics
	Pool    *botpool.Pool
	Rooms   *rooms.Manager
	Hub     *hub.Hub
	// Torneios runs the tournaments; nil when the store cannot keep
	// them.
	Torneios *torneio.Manager
	// Ladder pairs the bots of the ladder (package ladder).
	Ladder *ladder.Ladder
	// Rater applies finished rated games to the ratings (ratings/rater).
	Rater *rater.Rater
	// API is the HTTP API (package httpapi).
	API *httpapi.Server
	// resolver names the client of a request.
	resolver *netlimit.Resolver
	// players makes, finds and signs in players; hasher is its password
	// hashing pool (accounts.go), closed by Shutdown.
	players *players.Directory
	hasher  *players.Hasher
	handler http.Handler // the routes, with the write deadline and the header limit (httpBounds)
}

// New builds the service. The caller owns cfg.Store.
func New(cfg Config) (*Server, error) {
	if cfg.Catalog == nil || cfg.Store == nil {
		return nil, errors.New("server: Catalog and Store are required")
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Bots <= 0 {
		cfg.Bots = runtime.NumCPU()
	}
	if cfg.BotQueue <= 0 {
		cfg.BotQueue = 1024
	}
	if cfg.BotTimeout <= 0 {
		cfg.BotTimeout = 2 * time.Second
	}
	hc := &cfg.HTTP
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&hc.ReadHeaderTimeout, DefaultReadHeaderTimeout}, {&hc.ReadTimeout, DefaultReadTimeout},
		{&hc.WriteTimeout, DefaultWriteTimeout}, {&hc.IdleTimeout, DefaultIdleTimeout}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if hc.MaxHeaderBytes <= 0 {
		hc.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	hc.MaxHeaderBytes = max(hc.MaxHeaderBytes, headerReadSlop+1)
	s := &Server{cfg: cfg, log: cfg.Log, Metrics: metrics.New(), resolver: netlimit.NewResolver(cfg.HTTP.TrustedProxies)}
	cfg.Accounts.defaults()
	s.cfg.Accounts = cfg.Accounts
	a := cfg.Accounts
	s.hasher = players.NewHasher(a.HashWorkers, a.HashQueue, a.HashPerAddr, a.Hash)
	s.players = players.NewDirectory(players.Config{Store: cfg.Store, Hasher: s.hasher, Now: cfg.Now,
		SessionTTL: a.SessionTTL, NameHold: a.NameHold, MaxFailures: a.MaxFailures, FailureWindow: a.FailureWindow,
		MaxSessions: a.SessionsPerPlayer, SignInsPerAddr: a.SignInsPerAddr, SignInsPerAccount: a.SignInsPerAccount})
	{
		// The look-alike names' index of the accounts made before it was
		// kept: once per store (the store marks it done).
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		n, err := cfg.Store.IndexSkeletons(ctx)
		cancel()
		switch {
		case err != nil:
			s.log.Error("index the skeletons of the accounts' names (tried again at the next start)", zap.Error(err))
		case n > 0:
			s.log.Info("skeletons of the accounts' names indexed", zap.Int("accounts", n))
		}
	}
	s.Pool = botpool.New(cfg.Bots, cfg.BotQueue, cfg.BotTimeout, cfg.Log.Named("bots"), s.Metrics)
	var h *hub.Hub
	var api *httpapi.Server // set before any room runs
	var rc *rooms.Cluster
	var ncfg *cluster.Config
	var node *cluster.Node // set before any room runs
	if c := cfg.Cluster; c != nil {
		leases, ok := cfg.Store.(store.Leases)
		if !ok || c.Broker == nil || c.Node == "" {
			return nil, errors.New("server: a cluster needs a store with leases, a broker and a node id")
		}
		rc = &rooms.Cluster{Leases: leases, Node: c.Node, TTL: c.TTL,
			OnFenced: func(room string, members []rooms.JoinAs) {
				if node != nil {
					node.OnFenced(room, members)
				}
			}}
		ncfg = &cluster.Config{Broker: c.Broker, Leases: leases, Node: c.Node, TTL: c.TTL, LiveTTL: c.LiveTTL,
			Log: cfg.Log.Named("cluster"), Bots: func() []protocol.BotInfo { return api.BotsHere() },
			OnBotEvent: func(bots []string, line []byte) { api.DeliverBotEvent(bots, line) }}
		ncfg.Matcher, _ = cfg.Store.(store.Matcher)
		if lv, ok := c.Broker.(broker.Liveness); ok && c.LiveTTL >= 0 {
			ncfg.Liveness = lv
		}
	}
	s.Rooms = rooms.NewManager(rooms.Config{Cluster: rc, Catalog: cfg.Catalog, Store: cfg.Store, Pool: s.Pool,
		Log: cfg.Log.Named("rooms"), Metrics: s.Metrics, BotTimeout: cfg.BotTimeout, WatchDelay: cfg.WatchDelay,
		Grace: cfg.Grace, AdjournFactor: cfg.AdjournFactor, AbortAfter: cfg.AbortAfter, AdjournAfter: cfg.AdjournAfter, Now: cfg.Now, Chat: cfg.Chat,
		MaxPlayerRooms: cfg.MaxPlayerRooms,
		OnChange: func() {
			if h != nil {
				h.LobbyChanged()
			}
		},
		OnGame: []func(rooms.GameEvent){func(ev rooms.GameEvent) { api.OnGame(ev) }, func(ev rooms.GameEvent) { s.Rater.OnGame(ev) },
			func(ev rooms.GameEvent) { s.Ladder.GameEnded(ev) }}})
	s.Rater = rater.New(rater.Config{Store: cfg.Store, Post: s.Rooms.PostRatings, Log: cfg.Log.Named("rater"),
		DrainEvery: cfg.RatingsDrainEvery})
	hubc := cfg.Hub
	hubc.Rooms, hubc.Catalog, hubc.Store, hubc.Log, hubc.Metrics, hubc.Origins = s.Rooms, cfg.Catalog, cfg.Store, cfg.Log.Named("hub"), s.Metrics, cfg.Origins
	hubc.Players = s.players
	if hubc.MaxConns <= 0 && cfg.HTTP.MaxConns > 0 {
		hubc.MaxConns = WebSocketShare(cfg.HTTP.MaxConns)
	}
	if hubc.MaxConnsPerAddr <= 0 {
		hubc.MaxConnsPerAddr = cfg.HTTP.MaxConnsPerAddr
	}
	if hubc.ClientAddr == nil {
		hubc.ClientAddr = s.resolver.ClientAddr
	}
	h = hub.New(hubc)
	s.Hub = h
	// The tournaments and the API, before any room can run: a room's
	// OnGame, the node's bots and a tournament's names call the API.
	tm, err := torneio.New(torneio.Config{Rooms: s.Rooms, Store: cfg.Store, Catalog: cfg.Catalog,
		Log: cfg.Log.Named("torneio"), Parallel: cfg.TorneioParallel, MaxLive: cfg.MaxTorneios,
		Names: func(ctx context.Context, ids []string) map[string]string { return api.PlayerNames(ctx, ids) }})
	if err != nil {
		s.log.Warn("no tournaments", zap.Error(err))
	} else {
		s.Torneios = tm
	}
	lc := ladder.Config{Catalog: cfg.Catalog, Store: cfg.Store, Records: cfg.Store.Records(), Rooms: s.Rooms,
		Online: func() []protocol.BotInfo { return api.BotsOnline() }, Games: cfg.LadderGames, Every: cfg.LadderEvery,
		Clock: cfg.LadderClock, Rated: true, Log: cfg.Log.Named("ladder")}
	if c := cfg.Cluster; c != nil {
		lc.Lead = ladderLead(cfg.Store.(store.Leases), c.Node, cfg.LadderEvery)
	}
	s.Ladder = ladder.New(lc)
	api = httpapi.New(httpapi.Config{Catalog: cfg.Catalog, Store: cfg.Store, Players: s.players, Rooms: s.Rooms,
		Hub: h, Pool: s.Pool, Torneios: s.Torneios, Ladder: s.Ladder, Metrics: s.Metrics, Log: cfg.Log, Resolver: s.resolver,
		Origins: cfg.Origins, BotTimeout: cfg.BotTimeout, BotAPIPerClient: cfg.BotAPIPerClient, Replays: cfg.Replays,
		MaxPositionsBytes: cfg.MaxPositionsBytes, BotAPI: cfg.BotAPI, WebSocket: cfg.Hub})
	s.API = api
	if ncfg != nil {
		ncfg.Hub, ncfg.Rooms = h, s.Rooms
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		node, err = cluster.Start(ctx, *ncfg)
		cancel()
		if err != nil {
			_ = h.Shutdown(context.Background(), protocol.CloseRestart, "")
			s.Pool.Close()
			s.hasher.Close()
			return nil, err
		}
		api.ReachNodes(node)
	}
	if s.Torneios != nil { // once the node is up: their games are rooms like any other
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		n, err := s.Torneios.Resume(ctx)
		cancel()
		if err != nil {
			s.log.Error("resume tournaments", zap.Error(err))
		} else if n > 0 {
			s.log.Info("tournaments resumed", zap.Int("n", n))
		}
	}
	s.Ladder.Start() // once the node is up: its games are rooms like any other
	mux := http.NewServeMux()
	mux.Handle("GET /ws", h)
	api.Route(mux)
	if cfg.Root != nil {
		mux.Handle("/", cfg.Root)
	} else {
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "404 page not found (the web client is not built in)", http.StatusNotFound)
		})
	}
	s.handler = s.httpBounds(mux)
	return s, nil
}

// Handler is the service's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// MetricsHandler serves the metrics in the Prometheus text format. It is
// not on Handler: cmd/lobby serves it on a listener of its own
// (-metrics-addr), never on the public one.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.Metrics.Handler())
	return mux
}

// HTTPServer returns the http.Server that serves Handler (the write
// deadline and the header limit included) with the configured timeouts.
// Serve it on Listen's listener: cmd/lobby and the tests do.
func (s *Server) HTTPServer() *http.Server {
	hc := s.cfg.HTTP
	hs := &http.Server{Handler: s.handler, ReadHeaderTimeout: hc.ReadHeaderTimeout, ReadTimeout: hc.ReadTimeout,
		IdleTimeout: hc.IdleTimeout, MaxHeaderBytes: hc.MaxHeaderBytes - headerReadSlop,
		ErrorLog: zap.NewStdLog(s.log.Named("http"))}
	// Shutdown waits for the requests running: the bot API's streams,
	// which never end by themselves, end as it begins.
	hs.RegisterOnShutdown(s.API.EndStreams)
	return hs
}

// Listen wraps ln with the caps on connections (HTTPConfig.MaxConns and
// MaxConnsPerAddr): one over a cap is refused before anything is read.
func (s *Server) Listen(ln net.Listener) net.Listener {
	return &netlimit.Listener{Listener: ln, Max: s.cfg.HTTP.MaxConns, PerAddr: s.cfg.HTTP.MaxConnsPerAddr,
		Resolver: s.resolver, OnRefuse: func(reason string) { s.Metrics.Refused.WithLabelValues(reason).Inc() }}
}

// headerReadSlop is what net/http's server reads past MaxHeaderBytes before
// it refuses a request's headers (its "bufio slop", 4 KiB): HTTPServer
// takes it off, so that the line and headers of a request are refused past
// HTTPConfig.MaxHeaderBytes exactly, not 4 KiB later.
const headerReadSlop = 4096

// httpBounds is the handler of every request:
//   - the write deadline bounds how long an answer may take to write, on
//     every path but /ws: a WebSocket sets its own deadline on each write
//     (hub). A long-lived stream (an NDJSON feed, say) lifts it with
//     http.ResponseController and sets a deadline per write itself.
//   - a request whose line and headers are longer than
//     HTTPConfig.MaxHeaderBytes is answered 431. net/http refuses one past
//     it before the handler runs, except for the part of a pipelined
//     request it had read with the one before, which it does not count.
func (s *Server) httpBounds(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws" {
			_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.HTTP.WriteTimeout))
		}
		if headerBytes(r) > s.cfg.HTTP.MaxHeaderBytes {
			w.Header().Set("Connection", "close")
			http.Error(w, "431 Request Header Fields Too Large", http.StatusRequestHeaderFieldsTooLarge)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// headerBytes is the length of r's request line and headers as a client
// writes them ("Name: value" lines, CRLF, the blank line after them); Host
// is the field net/http took out of the header map.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + 2 + 2
	if r.Host != "" {
		n += len("Host: ") + len(r.Host) + 2
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n
}

// Shutdown stops the service gracefully: no new connections, every room
// finishes its current command (its state is saved after every change) and
// stops, then every socket is closed with 1012 so clients come back, and
// the bot pool stops. The HTTP listener is the caller's to close first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.API.EndStreams()
	s.Hub.Drain()
	var err error
	err = s.Ladder.Shutdown(ctx) // first, with the tournaments: they create rooms
	if s.Torneios != nil {
		if terr := s.Torneios.Shutdown(ctx); err == nil {
			err = terr
		}
	}
	if rerr := s.Rooms.Shutdown(ctx); err == nil {
		err = rerr
	}
	if rerr := s.Rater.Shutdown(ctx); err == nil { // after the rooms, whose ends it hears
		err = rerr
	}
	if herr := s.Hub.Shutdown(ctx, protocol.CloseRestart, "server restart"); err == nil {
		err = herr
	}
	s.Pool.Close()
	s.hasher.Close()
	return err
}

// ladderLeaseID names the lease (a room's, store.Leases) whose holder runs
// the bot ladder among several nodes; no room's id has a '.'.
const ladderLeaseID = "ladder.lead"

// ladderLeaseTTL is the least lifetime of the ladder's lease: a node that
// dies leaves the ladder to another within it, and a round that takes
// longer than a few of its ticks (a busy node) does not lose it.
const ladderLeaseTTL = 15 * time.Second

// ladderLead is the ladder's Lead among several nodes: this node runs it
// while it holds the ladder's lease, taken or renewed at each round for
// three rounds (at least ladderLeaseTTL).
func ladderLead(leases store.Leases, node string, every time.Duration) func(context.Context) bool {
	if every <= 0 {
		every = ladder.DefaultEvery
	}
	ttl := max(3*every, ladderLeaseTTL)
	return func(ctx context.Context) bool {
		_, err := leases.AcquireLease(ctx, ladderLeaseID, node, ttl)
		return err == nil
	}
}
