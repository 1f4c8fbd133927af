package httpapi

import (
	"context"
	"errors"
	"net/http"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// The bot ladder's paths (docs/bots-api.md, "The ladder"): a bot account
// enters a pool's ladder with its own token and leaves it; anyone reads a
// pool's ladder. The pairing is package ladder's.

func (s *Server) routeLadder(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/bot/ladder/{game}/{variant}", s.ladderJoin)
	mux.HandleFunc("DELETE /api/bot/ladder/{game}/{variant}", s.ladderLeave)
	mux.HandleFunc("GET /api/ladder/{game}/{variant}", s.ladderBoard)
}

// LadderAnswer answers POST and DELETE /api/bot/ladder/{game}/{variant}.
type LadderAnswer struct {
	Pool   string `json:"pool"`
	Joined bool   `json:"joined"`
}

func (s *Server) ladderJoin(w http.ResponseWriter, r *http.Request) {
	s.ladderEntry(w, r, true)
}

func (s *Server) ladderLeave(w http.ResponseWriter, r *http.Request) {
	s.ladderEntry(w, r, false)
}

// ladderEntry enters the bot of the request's token in the ladder (join)
// or takes it out.
func (s *Server) ladderEntry(w http.ResponseWriter, r *http.Request, join bool) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	do := s.cfg.Ladder.Leave
	if join {
		do = s.cfg.Ladder.Join
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	pool, err := do(ctx, p.ID, r.PathValue("game"), r.PathValue("variant"))
	if !s.ladderError(w, err) {
		return
	}
	writeJSON(w, http.StatusOK, LadderAnswer{Pool: pool, Joined: join})
}

// ladderBoard answers GET /api/ladder/{game}/{variant}: the pool's ladder
// (ladder.Board).
func (s *Server) ladderBoard(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	b, err := s.cfg.Ladder.Board(ctx, r.PathValue("game"), r.PathValue("variant"))
	if !s.ladderError(w, err) {
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// ladderError answers err, if any, and reports whether there was none.
func (s *Server) ladderError(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, ladder.ErrNoPool):
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
	case errors.Is(err, ladder.ErrNotBot):
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "%v", err))
	default:
		s.log.Warn("ladder", zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not reach the ladder, try again"))
	}
	return false
}
