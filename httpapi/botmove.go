package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// botMoveBodyLimit bounds a POST /api/bot/move body (a 19x19 setup is far
// smaller).
const botMoveBodyLimit = 64 << 10

// botMove answers POST /api/bot/move: the move the named bot plays for the
// side to move in the setup. It is stateless; the turn runs in the bot
// pool's Stateless class, below every live room's bot, and each client may
// have BotAPIPerClient requests in flight.
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
