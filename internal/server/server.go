// Package server wires the service together: the store, the bot pool, the
// rooms, the hub and the HTTP API. cmd/lobby and the integration tests build
// the same server through New, so what the tests drive is what runs.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Config is the server's configuration; zero values take defaults.
type Config struct {
	Catalog *engine.Catalog
	Store   store.Store
	Log     *zap.Logger
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
}

// Cluster is the configuration of a node among several.
type Cluster struct {
	// Broker carries commands and frames between the nodes; the caller
	// owns it.
	Broker broker.Broker
	// Node is this node's id, unique among the nodes.
	Node string
	// TTL is the rooms' lease lifetime (default rooms.DefaultLeaseTTL).
	TTL time.Duration
}

// Server is the running service.
type Server struct {
	cfg     Config
	log     *zap.Logger
	Metrics *metrics.Metrics
	Pool    *botpool.Pool
	Rooms   *rooms.Manager
	Hub     *hub.Hub
	mux     *http.ServeMux
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
	s := &Server{cfg: cfg, log: cfg.Log, Metrics: metrics.New()}
	s.Pool = botpool.New(cfg.Bots, cfg.BotQueue, cfg.BotTimeout, cfg.Log.Named("bots"), s.Metrics)
	var h *hub.Hub
	var rc *rooms.Cluster
	var hcl *hub.Cluster
	if c := cfg.Cluster; c != nil {
		leases, ok := cfg.Store.(store.Leases)
		if !ok || c.Broker == nil || c.Node == "" {
			return nil, errors.New("server: a cluster needs a store with leases, a broker and a node id")
		}
		rc = &rooms.Cluster{Leases: leases, Node: c.Node, TTL: c.TTL,
			OnFenced: func(room string, members []rooms.JoinAs) { h.OnFenced()(room, members) }}
		hcl = &hub.Cluster{Broker: c.Broker, Leases: leases, Node: c.Node, TTL: c.TTL}
	}
	s.Rooms = rooms.NewManager(rooms.Config{Cluster: rc, Catalog: cfg.Catalog, Store: cfg.Store, Pool: s.Pool,
		Log: cfg.Log.Named("rooms"), Metrics: s.Metrics, BotTimeout: cfg.BotTimeout, WatchDelay: cfg.WatchDelay,
		Grace: cfg.Grace, AdjournFactor: cfg.AdjournFactor, Now: cfg.Now,
		OnChange: func() {
			if h != nil {
				h.LobbyChanged()
			}
		}})
	hc := cfg.Hub
	hc.Rooms, hc.Catalog, hc.Store, hc.Log, hc.Metrics, hc.Origins = s.Rooms, cfg.Catalog, cfg.Store, cfg.Log.Named("hub"), s.Metrics, cfg.Origins
	hc.Cluster = hcl
	h = hub.New(hc)
	s.Hub = h
	if hcl != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := h.StartCluster(ctx)
		cancel()
		if err != nil {
			_ = h.Shutdown(context.Background(), protocol.CloseRestart, "")
			s.Pool.Close()
			return nil, err
		}
	}
	mux := http.NewServeMux()
	mux.Handle("GET /ws", h)
	mux.HandleFunc("GET /api/games", s.games)
	mux.HandleFunc("GET /api/rooms", s.rooms)
	mux.HandleFunc("POST /api/bot/move", s.botMove)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", s.ready)
	mux.Handle("GET /metrics", s.Metrics.Handler())
	if cfg.Root != nil {
		mux.Handle("/", cfg.Root)
	} else {
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "404 page not found (the web client is not built in)", http.StatusNotFound)
		})
	}
	s.mux = mux
	return s, nil
}

// Handler is the service's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Shutdown stops the service gracefully: no new connections, every room
// finishes its current command (its state is saved after every change) and
// stops, then every socket is closed with 1012 so clients come back, and
// the bot pool stops. The HTTP listener is the caller's to close first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.Hub.Drain()
	err := s.Rooms.Shutdown(ctx)
	if herr := s.Hub.Shutdown(ctx, protocol.CloseRestart, "server restart"); err == nil {
		err = herr
	}
	s.Pool.Close()
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

func (s *Server) rooms(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rooms": s.Hub.RoomSummaries()})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		http.Error(w, "store unreachable", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ready\n"))
}

// botMove answers POST /api/bot/move: the move the named bot plays for the
// side to move in the setup. It is stateless; the turn runs in the bot pool.
func (s *Server) botMove(w http.ResponseWriter, r *http.Request) {
	var req protocol.BotMoveRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "body too large"))
			return
		}
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "malformed JSON body"))
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
	res, err := s.Pool.Move(r.Context(), botpool.Job{Game: req.Game, Level: req.Level, Bot: bot, State: st, Seat: seat, Seed: 1})
	if err != nil || res.Err != nil {
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the bot could not answer, try again"))
		return
	}
	writeJSON(w, http.StatusOK, protocol.BotMoveResponse{Move: res.Move})
}
