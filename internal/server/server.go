// Package server wires the service together: the store, the bot pool, the
// rooms, the hub and the HTTP API. cmd/lobby and the integration tests build
// the same server through New, so what the tests drive is what runs.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/cluster"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
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
	// address may have in flight (default DefaultBotAPIPerClient); past
	// it the endpoint answers 429 with Retry-After.
	BotAPIPerClient int
	// Replays bounds the game replays the records API runs at once
	// (default runtime.NumCPU()); MaxPositionsBytes bounds the positions
	// of one answer (default DefaultMaxPositionsBytes). See records.go.
	Replays           int
	MaxPositionsBytes int
	// BotAPI bounds the bot accounts' API (botaccounts.go, botapi.go).
	BotAPI BotAPIConfig
	// Accounts bounds accounts, sessions and the hashing of passwords
	// (accounts.go).
	Accounts AccountsConfig
	// TorneioParallel bounds the games of one tournament played at once
	// (default torneio.DefaultParallel); MaxTorneios the tournaments
	// running at once (default torneio.DefaultMaxLive).
	TorneioParallel, MaxTorneios int
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

// Defaults of HTTPConfig and of the bot endpoint's limits.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 20 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxHeaderBytes    = 16 << 10
	// DefaultBotAPIPerClient is how many bot requests one client may have
	// in flight.
	DefaultBotAPIPerClient = 2
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
	// Torneios runs the tournaments (torneios.go); nil when the store
	// cannot keep them.
	Torneios *torneio.Manager
	// resolver names the client of a request; botClients counts each
	// client's bot requests in flight.
	resolver   *netlimit.Resolver
	botClients *netlimit.Counter
	replays    chan struct{} // a slot per replay running (records.go)
	bots       *botHub       // the bot accounts online (botapi.go)
	// players makes, finds and signs in players; hasher is its password
	// hashing pool (accounts.go), closed by Shutdown.
	players  *players.Directory
	hasher   *players.Hasher
	analyses analyses     // the games being analysed (analysis.go)
	handler  http.Handler // the routes, with the write deadline and the header limit (httpBounds)
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
	if cfg.BotAPIPerClient <= 0 {
		cfg.BotAPIPerClient = DefaultBotAPIPerClient
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
	if cfg.Replays <= 0 {
		cfg.Replays = runtime.NumCPU()
	}
	if cfg.MaxPositionsBytes <= 0 {
		cfg.MaxPositionsBytes = DefaultMaxPositionsBytes
	}
	s := &Server{cfg: cfg, log: cfg.Log, Metrics: metrics.New(), resolver: netlimit.NewResolver(cfg.HTTP.TrustedProxies),
		botClients: netlimit.NewCounter(cfg.BotAPIPerClient), replays: make(chan struct{}, cfg.Replays)}
	cfg.BotAPI.defaults(cfg.Hub)
	s.cfg.BotAPI = cfg.BotAPI
	cfg.Accounts.defaults()
	s.cfg.Accounts = cfg.Accounts
	a := cfg.Accounts
	s.hasher = players.NewHasher(a.HashWorkers, a.HashQueue, a.Hash)
	s.players = players.NewDirectory(players.Config{Store: cfg.Store, Hasher: s.hasher, Now: cfg.Now,
		SessionTTL: a.SessionTTL, NameHold: a.NameHold, MaxFailures: a.MaxFailures, FailureWindow: a.FailureWindow})
	s.bots = newBotHub(cfg.BotAPI, cfg.Log.Named("botapi"))
	s.Pool = botpool.New(cfg.Bots, cfg.BotQueue, cfg.BotTimeout, cfg.Log.Named("bots"), s.Metrics)
	var h *hub.Hub
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
			Log: cfg.Log.Named("cluster"), Bots: s.bots.onlineHere, OnBotEvent: s.bots.deliver}
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
		OnGame: []func(rooms.GameEvent){s.bots.onGame}})
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
	if ncfg != nil {
		ncfg.Hub, ncfg.Rooms = h, s.Rooms
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var err error
		node, err = cluster.Start(ctx, *ncfg)
		cancel()
		if err != nil {
			_ = h.Shutdown(context.Background(), protocol.CloseRestart, "")
			s.Pool.Close()
			s.hasher.Close()
			return nil, err
		}
		s.bots.nodes = node
	}
	mux := http.NewServeMux()
	mux.Handle("GET /ws", h)
	mux.HandleFunc("GET /api/games", s.games)
	mux.HandleFunc("GET /api/rooms", s.rooms)
	mux.HandleFunc("POST /api/bot/move", s.botMove)
	s.routeRecords(mux)
	s.routeBots(mux)
	s.routeAccounts(mux)
	s.startTorneios(mux)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", s.ready)
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
	hs.RegisterOnShutdown(s.bots.shutdown)
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
	s.bots.shutdown()
	s.Hub.Drain()
	var err error
	if s.Torneios != nil {
		err = s.Torneios.Shutdown(ctx) // first: it creates rooms
	}
	if rerr := s.Rooms.Shutdown(ctx); err == nil {
		err = rerr
	}
	if herr := s.Hub.Shutdown(ctx, protocol.CloseRestart, "server restart"); err == nil {
		err = herr
	}
	s.Pool.Close()
	s.hasher.Close()
	return err
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) httpError(w http.ResponseWriter, status int, e *protocol.Error) {
	s.Metrics.Errors.WithLabelValues(string(e.Code)).Inc()
	var body protocol.HTTPError
	body.Error.Code, body.Error.Message = e.Code, e.Msg
	writeJSON(w, status, body)
}

func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"games": s.cfg.Catalog.Infos()})
}

// rooms answers GET /api/rooms?cursor=&limit=&game=&status=: a page of the
// public unfinished rooms, newest first, and the cursor of the next.
func (s *Server) rooms(w http.ResponseWriter, r *http.Request) {
	q, perr := roomsQuery(r.URL.Query())
	if _, known := s.cfg.Catalog.Game(q.Game); perr == nil && q.Game != "" && !known {
		perr = protocol.Errorf(protocol.CodeUnknownGame, "unknown game %q", q.Game)
	}
	if perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	writeJSON(w, http.StatusOK, s.Hub.Rooms(ctx, q))
}

// roomsQuery reads the query of GET /api/rooms.
func roomsQuery(v url.Values) (hub.Query, *protocol.Error) {
	q := hub.Query{Limit: hub.DefaultRoomsLimit, Cursor: v.Get("cursor"), Game: v.Get("game"), Status: v.Get("status")}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > hub.MaxRoomsLimit {
			return q, protocol.Errorf(protocol.CodeBadRequest, `"limit" must be 1 to %d`, hub.MaxRoomsLimit)
		}
		q.Limit = n
	}
	if err := q.Check(); err != nil {
		return q, protocol.Errorf(protocol.CodeBadRequest, "%v", err)
	}
	return q, nil
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		// The store answers but refuses writes for lack of memory: say
		// so, it is the operator's to fix (maxmemory), not the network.
		msg := "store unreachable"
		if errors.Is(err, store.ErrOutOfMemory) {
			msg = "store out of memory: " + err.Error()
		}
		http.Error(w, msg, http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ready\n"))
}

// botMove answers POST /api/bot/move: the move the named bot plays for the
// side to move in the setup. It is stateless; the turn runs in the bot
// pool's Stateless class, below every live room's bot, and each client may
// have BotAPIPerClient requests in flight.
// botMoveBodyLimit bounds a POST /api/bot/move body (a 19x19 setup is far
// smaller).
const botMoveBodyLimit = 64 << 10

func (s *Server) botMove(w http.ResponseWriter, r *http.Request) {
	client := netlimit.Key(s.resolver.ClientAddr(r))
	if !s.botClients.Acquire(client) {
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited,
			"at most %d bot requests at once from one address", s.cfg.BotAPIPerClient))
		return
	}
	defer s.botClients.Release(client)
	var req protocol.BotMoveRequest
	if !s.decodeBody(w, r, botMoveBodyLimit, &req) {
		return
	}
	for _, f := range []struct{ name, v string }{{"game", req.Game}, {"variant", req.Variant}, {"level", req.Level}} {
		if f.v == "" {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "missing field %q", f.name))
			return
		}
	}
	g, ok := s.cfg.Catalog.Game(req.Game)
	if !ok {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeUnknownGame, "unknown game %q", req.Game))
		return
	}
	bot, ok := g.Bot(req.Level)
	if !ok {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeUnknownGame, "game %s has no bot level %q", req.Game, req.Level))
		return
	}
	st, err := s.cfg.Catalog.New(req.Game, req.Variant, req.Setup, 1)
	if err != nil {
		pe := protocol.AsError(err)
		if pe.Code == protocol.CodeInternal {
			pe = protocol.Errorf(protocol.CodeBadSetup, "bad setup: %v", err)
		}
		s.httpError(w, http.StatusBadRequest, pe)
		return
	}
	seat, ok := st.Turn()
	if !ok {
		if st.Outcome().Over {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeGameOver, "the game in the setup is over"))
			return
		}
		seat = 0
	}
	if len(st.Legal(seat)) == 0 {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeGameOver, "the side to move has no move"))
		return
	}
	// The request waits for a worker at most this long; a client that
	// goes away sooner takes its job out of the queue (r's context).
	ctx, cancel := context.WithTimeout(r.Context(), botAPIWait*s.cfg.BotTimeout)
	defer cancel()
	res, err := s.Pool.Move(ctx, botpool.Job{Class: botpool.Stateless, Game: req.Game, Level: req.Level, Bot: bot, State: st, Seat: seat, Seed: 1})
	switch {
	case errors.Is(err, botpool.ErrBusy), errors.Is(err, context.DeadlineExceeded):
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "the bots are busy, try again"))
	case err != nil || res.Err != nil:
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the bot could not answer, try again"))
	default:
		writeJSON(w, http.StatusOK, protocol.BotMoveResponse{Move: res.Move})
	}
}

// botAPIWait is how many bot timeouts a stateless request may wait for a
// worker and its answer together before it is answered busy.
const botAPIWait = 5
