package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// The API's callers: a person or a bot, by the token it was given, in
// "Authorization: Bearer" (docs/bots-api.md).

// bearer returns the player whose token the request carries in
// "Authorization: Bearer", or answers 401 and returns false.
func (s *Server) bearer(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 256 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, `send your token as "Authorization: Bearer <token>"`))
		return store.Player{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	p, err := s.cfg.Store.PlayerByToken(ctx, hub.HashToken(token))
	switch {
	case errors.Is(err, store.ErrNotFound):
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro", error="invalid_token"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, "unknown token"))
		return store.Player{}, false
	case err != nil:
		s.log.Warn("player by token", zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not look up the token, try again"))
		return store.Player{}, false
	}
	return p, true
}

// bearerBot is bearer for the paths only a bot account may use.
func (s *Server) bearerBot(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	p, ok := s.bearer(w, r)
	if ok && !store.IsBotID(p.ID) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "this path is for bot accounts: register one with POST /api/bots"))
		return store.Player{}, false
	}
	return p, ok
}
