package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// Who a request comes from (docs/protocol.md, "Accounts"): a script or a
// bot sends its token in "Authorization: Bearer"; the page sends nothing
// but its HttpOnly session cookie, which the browser adds. A request that
// changes something on the strength of the cookie alone must come from the
// page's own origin (Origin, checked as the WebSocket's is): another site
// cannot make a signed-in browser act (cross-site request forgery).

// caller is a request's player and how it proved it.
type caller struct {
	players.Identity
	// session is the session of the cookie, when the cookie proved it.
	session players.Session
	// byCookie: the session cookie proved it (no Authorization header).
	byCookie bool
}

// bearerToken returns the token of "Authorization: Bearer <token>".
func bearerToken(r *http.Request) (token string, ok bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != "" && len(token) <= 256
}

// bearer returns the player whose token the request carries in
// "Authorization: Bearer", or answers 401 and returns false.
func (s *Server) bearer(w http.ResponseWriter, r *http.Request) (players.Identity, bool) {
	token, ok := bearerToken(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, `send your token as "Authorization: Bearer <token>"`))
		return players.Identity{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	p, err := s.players.ByToken(ctx, token)
	switch {
	case errors.Is(err, players.ErrNotFound):
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro", error="invalid_token"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, "unknown token"))
		return players.Identity{}, false
	case errors.Is(err, players.ErrRetired):
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro", error="invalid_token"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, "this guest is now an account: sign in with its name and password"))
		return players.Identity{}, false
	case err != nil:
		s.log.Warn("player by token", zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not look up the token, try again"))
		return players.Identity{}, false
	}
	return p, true
}

// bearerBot is bearer for the paths only a bot account may use.
func (s *Server) bearerBot(w http.ResponseWriter, r *http.Request) (players.Identity, bool) {
	p, ok := s.bearer(w, r)
	if ok && !players.IsBotID(p.ID) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "this path is for bot accounts: register one with POST /api/bots"))
		return players.Identity{}, false
	}
	return p, ok
}

// caller returns the request's player: the Bearer token's when the request
// has an Authorization header, else the session cookie's, a request that
// changes something then coming from an allowed Origin (403 otherwise).
// Without either it answers 401.
func (s *Server) caller(w http.ResponseWriter, r *http.Request) (caller, bool) {
	if r.Header.Get("Authorization") != "" {
		p, ok := s.bearer(w, r)
		return caller{Identity: p}, ok
	}
	ck, err := r.Cookie(players.SessionCookie)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tabuleiro"`)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized,
			`sign in, play as a guest, or send your token as "Authorization: Bearer <token>"`))
		return caller{}, false
	}
	if changes(r) && !s.sameSite(r, true) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "this request did not come from this site's page"))
		return caller{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	p, se, err := s.players.BySession(ctx, ck.Value)
	switch {
	case errors.Is(err, players.ErrNotFound):
		s.clearCookie(w, r, players.SessionCookie)
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, "your session has ended: sign in again"))
		return caller{}, false
	case err != nil:
		s.log.Warn("session lookup", zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not look up your session, try again"))
		return caller{}, false
	}
	return caller{Identity: p, session: se, byCookie: true}, true
}

// changes reports whether the request may change something (not a GET,
// HEAD or OPTIONS).
func changes(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// sameSite reports whether the request's Origin is this site's or an
// allowed one (Config.Origins, as for /ws). Without an Origin it is
// required's opposite: a browser sends Origin with every request that
// changes something, so a cookie-authenticated one without it is refused.
func (s *Server) sameSite(r *http.Request, required bool) bool {
	if r.Header.Get("Origin") == "" {
		return !required
	}
	return hub.OriginAllowed(s.cfg.Origins, r)
}

// https reports whether the client reached us over TLS: directly, or
// through a trusted proxy that says so (X-Forwarded-Proto: https).
func (s *Server) https(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return s.resolver.Trusted(netlimit.PeerAddr(r.RemoteAddr)) && strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}
