package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Bot accounts (docs/bots-api.md): a player registers a bot with its own
// token (POST /api/bots) and gets the bot's id and secret token, shown this
// once. A bot is a player whose id begins with players.BotIDPrefix; its
// identity is saved like a guest's (players.Identity, the token hashed),
// and its owner's list of bots (players.Bots) bounds how many one player
// has. The owner is who the request says (a token, or the page's session
// cookie: caller).

// BotAPIConfig bounds the bot API. Zero values take the defaults.
type BotAPIConfig struct {
	// MaxBotsPerPlayer is how many bot accounts one player may register
	// (default DefaultMaxBotsPerPlayer).
	MaxBotsPerPlayer int
	// MaxClassBotsPerPlayer is how many class bots (a teacher's bots for
	// a class tournament, `"turma":true`, counted apart) one player may
	// register (default DefaultMaxClassBotsPerPlayer).
	MaxClassBotsPerPlayer int
	// MaxStreams caps the bot API's streams open at once, event and game
	// streams of every bot together (default DefaultMaxBotStreams); past
	// it a stream is answered 503 (busy).
	MaxStreams int
	// EventStreamsPerBot is how many event streams one bot may hold; a
	// new one past it closes the bot's oldest (a bot that reconnects
	// before the server saw its old connection go) (default 2).
	EventStreamsPerBot int
	// GameStreamsPerBot caps one bot's game streams (default 32); past
	// it a stream is answered 429.
	GameStreamsPerBot int
	// Heartbeat is how often an idle stream sends an empty line, so that
	// the bot and the proxies between know it is alive (default
	// DefaultBotHeartbeat).
	Heartbeat time.Duration
	// QueueBytes bounds the bytes waiting to be written on one stream; a
	// bot that reads slower than its stream fills is cut off, as a slow
	// WebSocket is (default hub.DefaultSendQueueBytes).
	QueueBytes int
	// Rate and Burst: the token bucket of each bot's moves and
	// resignations over HTTP, as a WebSocket's messages have theirs
	// (defaults: the hub's, 20/s and 40).
	Rate  float64
	Burst int
}

// Defaults of BotAPIConfig.
const (
	DefaultMaxBotsPerPlayer = 5
	// DefaultMaxClassBotsPerPlayer is room for a class of 60 and its
	// projects' second strategies, and for the bots of a run whose tokens
	// file was lost.
	DefaultMaxClassBotsPerPlayer = 128
	DefaultMaxBotStreams         = 1024
	DefaultBotHeartbeat          = 10 * time.Second
	// botBodyLimit bounds a bot API request body.
	botBodyLimit = 4 << 10
	// maxBuckets bounds the rate-limit buckets kept (one per bot that
	// moved lately).
	maxBuckets = 10000
)

func (c *BotAPIConfig) defaults(h hub.Config) {
	if c.MaxBotsPerPlayer <= 0 {
		c.MaxBotsPerPlayer = DefaultMaxBotsPerPlayer
	}
	if c.MaxClassBotsPerPlayer <= 0 {
		c.MaxClassBotsPerPlayer = DefaultMaxClassBotsPerPlayer
	}
	if c.MaxStreams <= 0 {
		c.MaxStreams = DefaultMaxBotStreams
	}
	if c.EventStreamsPerBot <= 0 {
		c.EventStreamsPerBot = 2
	}
	if c.GameStreamsPerBot <= 0 {
		c.GameStreamsPerBot = 32
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = DefaultBotHeartbeat
	}
	if c.QueueBytes <= 0 {
		c.QueueBytes = h.SendQueueBytes
		if c.QueueBytes <= 0 {
			c.QueueBytes = hub.DefaultSendQueueBytes
		}
	}
	if c.Rate <= 0 {
		c.Rate = h.Rate
		if c.Rate <= 0 {
			c.Rate = 20
		}
	}
	if c.Burst <= 0 {
		c.Burst = h.Burst
		if c.Burst <= 0 {
			c.Burst = 40
		}
	}
}

func (s *Server) routeBots(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/bots", s.registerBot)
	mux.HandleFunc("GET /api/bots", s.listBots)
	mux.HandleFunc("GET /api/bots/mine", s.myBots)
	mux.HandleFunc("PATCH /api/bots/{id}", s.setBot)
	mux.HandleFunc("POST /api/bots/{id}/challenge", s.challengeBot)
	mux.HandleFunc("GET /api/bot/account", s.botAccount)
	mux.HandleFunc("GET /api/bot/stream/event", s.botEventStream)
	mux.HandleFunc("GET /api/bot/game/{room}/stream", s.botGameStream)
	mux.HandleFunc("POST /api/bot/game/{room}/move/{move}", s.botGameMove)
	mux.HandleFunc("POST /api/bot/game/{room}/resign", s.botGameResign)
}

// RegisterBotRequest is the body of POST /api/bots.
type RegisterBotRequest struct {
	Name string `json:"name"`
	// Turma registers a class's bot (docs/bots-api.md, "Your project as a
	// bot"): counted apart from the player's own bots, against
	// MaxClassBotsPerPlayer.
	Turma bool `json:"turma,omitempty"`
}

// RegisterBotResponse answers POST /api/bots: the bot's player id and its
// secret token, which is never shown again.
type RegisterBotResponse struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// registerBot answers POST /api/bots.
func (s *Server) registerBot(w http.ResponseWriter, r *http.Request) {
	owner, ok := s.caller(w, r)
	if !ok {
		return
	}
	if players.IsBotID(owner.ID) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a bot cannot register bots: use your own player token"))
		return
	}
	var req RegisterBotRequest
	if !s.decodeBody(w, r, botBodyLimit, &req) {
		return
	}
	name := players.CleanName(req.Name)
	if name == "" {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `missing field "name"`))
		return
	}
	token, hash := players.NewToken()
	bot := players.Identity{ID: players.BotID(hash), Name: name, TokenHash: hash, Owner: owner.ID}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	// The list first, so that a refused bot leaves nothing behind; an
	// identity whose save fails after leaves a dead entry in the list,
	// which expires with it. An account's bots last as it does.
	lasting := owner.Account()
	max, kind := s.cfg.BotAPI.MaxBotsPerPlayer, "bots"
	if req.Turma {
		max, kind = s.cfg.BotAPI.MaxClassBotsPerPlayer, "class bots"
	}
	err := s.cfg.Store.AddBot(ctx, owner.ID, players.Bot{ID: bot.ID, Name: name, Turma: req.Turma}, max, lasting)
	if errors.Is(err, players.ErrTooManyBots) {
		s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "you have %d %s already, the most one player may have", max, kind))
		return
	}
	if err == nil {
		err = s.cfg.Store.SavePlayer(ctx, bot, lasting)
	}
	if err != nil {
		s.log.Error("register bot", zap.String("owner", owner.ID), zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not save the bot, try again"))
		return
	}
	s.log.Info("bot registered", zap.String("owner", owner.ID), zap.String("bot", bot.ID))
	writeJSON(w, http.StatusCreated, RegisterBotResponse{ID: bot.ID, Name: name, Token: token})
}

// listBots answers GET /api/bots: the bots online (an event stream open).
func (s *Server) listBots(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"bots": s.bots.online()})
}

// ChallengeRequest is the body of POST /api/bots/{id}/challenge: the game
// and its options, as room.create has them.
type ChallengeRequest struct {
	Game    string          `json:"game"`
	Variant string          `json:"variant"`
	Setup   json.RawMessage `json:"setup,omitempty"`
	// Seat is the challenger's seat: 0, 1 or "random" (default 0).
	Seat  json.RawMessage `json:"seat,omitempty"`
	Clock json.RawMessage `json:"clock,omitempty"`
	// Rated asks for a rated or a casual game; nil: rated when the
	// challenger is an account (or a bot account) and the game starts
	// from the initial position (docs/protocol.md, "Ratings").
	Rated *bool `json:"rated,omitempty"`
}

// challengeBot answers POST /api/bots/{id}/challenge: a new room, the
// caller in one seat and the online bot in the other; the caller then
// joins it (room.join) as it would any room of its own.
func (s *Server) challengeBot(w http.ResponseWriter, r *http.Request) {
	p, ok := s.caller(w, r)
	if !ok {
		return
	}
	if !s.bots.allow(p.ID) { // a room each: the commands' bucket
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "slow down: at most %g requests a second", s.cfg.BotAPI.Rate))
		return
	}
	botID := r.PathValue("id")
	name, online := s.bots.name(botID)
	switch {
	case !online:
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeNotAPlayer, "bot %q is not online", botID))
		return
	case botID == p.ID:
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "a bot cannot challenge itself"))
		return
	}
	var req ChallengeRequest
	if !s.decodeBody(w, r, botBodyLimit, &req) {
		return
	}
	if req.Game == "" || req.Variant == "" {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `missing field "game" or "variant"`))
		return
	}
	_, v, perr := rooms.GameVariant(s.cfg.Catalog, req.Game, req.Variant)
	if perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	if v.Seats != 2 {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%s %s is not a two-player game", req.Game, req.Variant))
		return
	}
	seat := 0
	switch strings.TrimSpace(string(req.Seat)) {
	case "", "null", "0":
	case "1":
		seat = 1
	case `"random"`:
		seat = rand.IntN(2)
	default:
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `"seat" must be 0, 1 or "random"`))
		return
	}
	tc, perr := protocol.ParseClock(req.Clock)
	if perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	rated := (p.Account() || players.IsBotID(p.ID)) && rooms.RatedSetup(req.Setup)
	if req.Rated != nil {
		if *req.Rated && !rated {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%s", rooms.NotRatedMsg+"; a game from a set-up position is casual"))
			return
		}
		rated = *req.Rated
	}
	spec := rooms.Spec{Game: req.Game, Variant: req.Variant, Setup: req.Setup, Clock: tc, Seats: make([]players.Player, 2), For: p.ID,
		Rated: rated}
	spec.Seats[seat] = p.Public()
	spec.Seats[1-seat] = players.Of(botID, name)
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	// Create applies the cap on the unfinished rooms of the challenger and
	// of the bot, as to every room made for players.
	room, err := s.Rooms.Create(ctx, spec)
	if err != nil {
		status, perr := http.StatusBadRequest, protocol.AsError(err)
		switch {
		case errors.Is(err, rooms.ErrTooManyRooms):
			status = http.StatusConflict
		case perr.Code == protocol.CodeInternal:
			status = http.StatusServiceUnavailable
		}
		s.httpError(w, status, perr)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"room": room.ID(), "seat": seat})
}

// botAccount answers GET /api/bot/account: the bot's own id and name, so
// that a program holding only its token finds its seat in a room's
// players.
func (s *Server) botAccount(w http.ResponseWriter, r *http.Request) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, p.Public())
}
