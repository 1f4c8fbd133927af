// Package httpapi is the service's HTTP API (docs/protocol.md, "HTTP";
// docs/bots-api.md; docs/records.md): the catalog and the live rooms, the
// stateless bot move, the game records and their analyses, a player's
// games, guests, accounts and sessions, the bot accounts and their streams
// and commands, the tournaments, and the health checks. internal/server
// makes the services it answers about (the players' directory, the rooms,
// the hub, the bot pool, the tournaments, the other nodes) and routes it
// beside the WebSocket endpoint; the integration tests drive it through
// that server.
package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/internal/jsonbody"
	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// Config is what the API answers about and its limits; zero limits take
// their defaults.
type Config struct {
	Catalog *engine.Catalog
	Store   store.Store
	// Players makes, finds and signs in players (guests, accounts,
	// sessions, bots).
	Players *players.Directory
	Rooms   *rooms.Manager
	// Hub lists the live rooms (GET /api/rooms).
	Hub  *hub.Hub
	Pool *botpool.Pool
	// Torneios runs the tournaments; nil serves no tournament paths.
	Torneios *torneio.Manager
	// Ladder is the bot ladder (ladder.go); nil serves no ladder paths.
	Ladder  *ladder.Ladder
	Metrics *metrics.Metrics
	Log     *zap.Logger
	// Resolver names the client of a request (a trusted proxy's header).
	Resolver *netlimit.Resolver
	// Origins are the pages' origins allowed besides the same one (the
	// cookie's requests that change something, as for /ws).
	Origins []string
	// BotTimeout bounds one bot turn (POST /api/bot/move waits for
	// botAPIWait of them).
	BotTimeout time.Duration
	// BotAPIPerClient caps the POST /api/bot/move requests one client
	// address may have in flight (default DefaultBotAPIPerClient).
	BotAPIPerClient int
	// Replays bounds the game replays the records API runs at once
	// (default runtime.NumCPU()); MaxPositionsBytes bounds the positions
	// of one answer (default DefaultMaxPositionsBytes). See records.go.
	Replays           int
	MaxPositionsBytes int
	// BotAPI bounds the bot accounts' API (botaccounts.go); its zero
	// limits take the WebSocket's (the rate of commands, the queue of a
	// stream) from WebSocket, whose NewGuests also bounds POST /api/guest.
	BotAPI    BotAPIConfig
	WebSocket hub.Config
}

// DefaultBotAPIPerClient is how many bot requests one client may have in
// flight.
const DefaultBotAPIPerClient = 2

// Server serves the HTTP API. Its handlers run on the requests'
// goroutines; what they share is guarded where it is declared (the bots
// online, the games being analysed, the replay slots).
type Server struct {
	cfg      Config
	log      *zap.Logger
	Metrics  *metrics.Metrics
	Pool     *botpool.Pool
	Rooms    *rooms.Manager
	Hub      *hub.Hub
	Torneios *torneio.Manager
	// resolver names the client of a request; botClients counts each
	// client's bot requests in flight.
	resolver   *netlimit.Resolver
	botClients *netlimit.Counter
	players    *players.Directory
	replays    chan struct{} // a slot per replay running (records.go)
	bots       *botHub       // the bot accounts online (bothub.go)
	analyses   analyses      // the games being analysed (analysis.go)
}

// New makes the API on cfg's services; Route serves it.
func New(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.BotAPIPerClient <= 0 {
		cfg.BotAPIPerClient = DefaultBotAPIPerClient
	}
	if cfg.Replays <= 0 {
		cfg.Replays = runtime.NumCPU()
	}
	if cfg.MaxPositionsBytes <= 0 {
		cfg.MaxPositionsBytes = DefaultMaxPositionsBytes
	}
	cfg.BotAPI.defaults(cfg.WebSocket)
	return &Server{cfg: cfg, log: cfg.Log, Metrics: cfg.Metrics, Pool: cfg.Pool, Rooms: cfg.Rooms, Hub: cfg.Hub,
		Torneios: cfg.Torneios, resolver: cfg.Resolver, botClients: netlimit.NewCounter(cfg.BotAPIPerClient), players: cfg.Players,
		replays: make(chan struct{}, cfg.Replays), bots: newBotHub(cfg.BotAPI, cfg.Log.Named("botapi"))}
}

// Route adds the API's paths to mux.
func (s *Server) Route(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/games", s.games)
	mux.HandleFunc("GET /api/rooms", s.rooms)
	mux.HandleFunc("POST /api/bot/move", s.botMove)
	s.routeRecords(mux)
	s.routeBots(mux)
	s.routeAccounts(mux)
	s.routeRatings(mux)
	if s.Torneios != nil {
		s.routeTorneios(mux)
	}
	if s.cfg.Ladder != nil {
		s.routeLadder(mux)
	}
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.ready)
}

// OnGame is the rooms' OnGame hook (rooms.Config.OnGame): the bots' event
// streams hear of their games from it (bothub.go).
func (s *Server) OnGame(ev rooms.GameEvent) { s.bots.onGame(ev) }

// BotsHere lists the bots with an event stream open on this node, for the
// other nodes' lists (cluster.Config.Bots).
func (s *Server) BotsHere() []protocol.BotInfo { return s.bots.onlineHere() }

// BotsOnline lists the bots with an event stream open, on this node or
// another (the ladder pairs them).
func (s *Server) BotsOnline() []protocol.BotInfo { return s.bots.online() }

// DeliverBotEvent queues an event line another node sent on the event
// streams here of bots (cluster.Config.OnBotEvent).
func (s *Server) DeliverBotEvent(bots []string, line []byte) { s.bots.deliver(bots, line) }

// Nodes is what the bot API asks of the other nodes (cluster.Node): their
// bots online, the events of bots whose streams are there, the commands of
// bots whose rooms are there.
type Nodes = otherNodes

// ReachNodes gives the API the other nodes, once, before it serves (a
// single node has none).
func (s *Server) ReachNodes(n Nodes) { s.bots.nodes = n }

// EndStreams ends the bot API's streams, now and from now on: they never
// end by themselves, and http.Server.Shutdown waits for the requests
// running.
func (s *Server) EndStreams() { s.bots.shutdown() }

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

// decodeBody decodes a JSON body of at most limit bytes into v, or
// answers the error: every JSON body of the API is read so (jsonbody:
// exactly one JSON value, nothing after it).
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) bool {
	if err := jsonbody.Read(w, r, limit, v); err != nil {
		s.bodyError(w, err, limit)
		return false
	}
	return true
}

// bodyError answers a body of at most limit bytes that jsonbody refused.
func (s *Server) bodyError(w http.ResponseWriter, err error, limit int64) {
	switch {
	case errors.Is(err, jsonbody.ErrTooLarge):
		s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "the body is over %d bytes", limit))
	case errors.Is(err, jsonbody.ErrTooSlow):
		s.httpError(w, http.StatusRequestTimeout, protocol.Errorf(protocol.CodeBadRequest, "the body came too slowly"))
	default:
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	}
}
