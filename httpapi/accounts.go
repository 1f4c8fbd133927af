package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Accounts (docs/protocol.md, "Accounts"): a guest plays at once; it may
// become an account (a name and a password) keeping its id, games, bots
// and rooms, and sign in anywhere. The page is known by an HttpOnly
// session cookie; scripts and bots by their token (identity.go). The
// players themselves, their secrets and the rules live in package
// players; this file is their HTTP side.

// The limits of the accounts' paths.
const (
	// accountBodyLimit bounds an account request's body.
	accountBodyLimit = 4 << 10
	// ClosedName is the name a closed account's seats show, in its
	// games' records and rooms.
	ClosedName = "closed account"
	// forgetTimeout bounds closing an account's rooms and records.
	forgetTimeout = 25 * time.Second
)

func (s *Server) routeAccounts(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/guest", s.newGuest)
	mux.HandleFunc("POST /api/account", s.createAccount)
	mux.HandleFunc("POST /api/session", s.signIn)
	mux.HandleFunc("GET /api/me", s.me)
	mux.HandleFunc("DELETE /api/session", s.signOut)
	mux.HandleFunc("DELETE /api/sessions", s.signOutEverywhere)
	mux.HandleFunc("POST /api/account/password", s.changePassword)
	mux.HandleFunc("GET /api/account/export", s.exportAccount)
	mux.HandleFunc("DELETE /api/account", s.closeAccount)
}

// AccountRequest is the body of POST /api/account and POST /api/session.
type AccountRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// Me answers GET /api/me, POST /api/guest, and (id and name only) POST
// /api/account and POST /api/session.
type Me struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Account *bool  `json:"account,omitempty"`
	// Bot is set for a bot account's token; Joined (Unix ms) is when an
	// account was made (additions).
	Bot    bool  `json:"bot,omitempty"`
	Joined int64 `json:"joined,omitempty"`
}

func meOf(p players.Identity) Me {
	acct := p.Account()
	return Me{ID: p.ID, Name: p.Name, Account: &acct, Bot: players.IsBotID(p.ID), Joined: p.Joined}
}

// setCookie gives the browser an HttpOnly, SameSite=Lax cookie, Secure
// whenever the request came over TLS (or a trusted proxy says so).
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(maxAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.https(r)})
}

// clearCookie tells the browser to forget a cookie.
func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.https(r)})
}

// attempt is where a request comes from, for the limits of sign-ins.
func (s *Server) attempt(r *http.Request) players.Attempt {
	a := players.Attempt{Addr: netlimit.Key(s.resolver.ClientAddr(r))}
	if ck, err := r.Cookie(players.DeviceCookie); err == nil {
		a.Device = ck.Value
	}
	return a
}

// signedIn gives the browser its session for p (and remembers the device
// when it signed in with a password): the cookies, never the body.
func (s *Server) signedIn(ctx context.Context, w http.ResponseWriter, r *http.Request, p players.Identity, device bool) bool {
	started, err := s.players.StartSession(ctx, p.ID)
	if err != nil {
		s.log.Error("start session", zap.String("player", p.ID), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not start your session, try again"))
		return false
	}
	s.sessionStarted(w, r, p.ID, started)
	if device {
		if d, err := s.players.RememberDevice(ctx, p.ID, s.attempt(r).Device); err == nil {
			s.setCookie(w, r, players.DeviceCookie, d, s.players.DeviceTTL())
		} else {
			s.log.Warn("remember device", zap.String("player", p.ID), zap.Error(err))
		}
	}
	return true
}

// sessionStarted sets the cookie of a session just started and closes the
// WebSockets of the sessions it ended (players.Config.MaxSessions).
func (s *Server) sessionStarted(w http.ResponseWriter, r *http.Request, player string, started players.Started) {
	s.setCookie(w, r, players.SessionCookie, started.Secret, s.players.SessionTTL())
	if len(started.Ended) > 0 {
		s.Hub.SignOut(player, func(hash string) bool { return hash != "" && slices.Contains(started.Ended, hash) })
		s.log.Info("least recently used sessions ended", zap.String("player", player), zap.Int("sessions", len(started.Ended)))
	}
}

// endCookieSession ends the session of the request's cookie, if any (a
// guest's, replaced by an account's).
func (s *Server) endCookieSession(ctx context.Context, r *http.Request) {
	if ck, err := r.Cookie(players.SessionCookie); err == nil {
		if err := s.players.EndSession(ctx, ck.Value); err != nil {
			s.log.Warn("end session", zap.Error(err))
		}
	}
}

// accountError answers a refusal of package players.
func (s *Server) accountError(w http.ResponseWriter, err error) {
	var limited *players.LimitedError
	switch {
	case errors.Is(err, players.ErrBadName), errors.Is(err, players.ErrBadPassword):
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%s", players.Why(err)))
	case errors.Is(err, players.ErrLookAlike):
		s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeNameTaken, "an account has a name that looks like this one: choose another"))
	case errors.Is(err, players.ErrNameTaken):
		s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeNameTaken, "an account has that name already: choose another"))
	case errors.Is(err, players.ErrAlreadyAccount):
		s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "%s", players.Why(err)))
	case errors.Is(err, players.ErrBadCredentials):
		s.httpError(w, http.StatusUnauthorized, protocol.Errorf(protocol.CodeUnauthorized, "wrong name or password"))
	case errors.As(err, &limited) && limited.Failed:
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(limited.RetryAfter.Seconds()))))
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited,
			"too many failed sign-ins: try again in %d minutes", int(math.Ceil(limited.RetryAfter.Minutes()))))
	case errors.As(err, &limited):
		secs := int(math.Ceil(limited.RetryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited,
			"too many sign-ins: try again in %d seconds", secs))
	case errors.Is(err, players.ErrTooManyAtOnce):
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited,
			"too many sign-ins from your address at once: try again in a second"))
	case errors.Is(err, players.ErrBusy):
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "the server is busy, try again"))
	default:
		s.log.Warn("account request", zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
	}
}

// countSignIn counts a sign-in's outcome (tabuleiro_signins_total).
func (s *Server) countSignIn(err error) {
	var limited *players.LimitedError
	result := "ok"
	switch {
	case err == nil:
	case errors.Is(err, players.ErrBadCredentials):
		result = "wrong"
	case errors.As(err, &limited):
		result = "limited"
	case errors.Is(err, players.ErrBusy), errors.Is(err, players.ErrTooManyAtOnce):
		result = "busy"
	default:
		result = "error"
	}
	s.Metrics.SignIns.WithLabelValues(result).Inc()
}

// fromSite answers 403 when the request's Origin is another site's (a
// form of another site signing the browser in or up).
func (s *Server) fromSite(w http.ResponseWriter, r *http.Request) bool {
	if !s.sameSite(r, false) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "this request did not come from this site's page"))
		return false
	}
	return true
}

// newGuests takes a place among the new identities the client's address
// may be given (hub.Config.NewGuests), or answers 429.
func (s *Server) newGuests(w http.ResponseWriter, r *http.Request) bool {
	if g := s.cfg.WebSocket.NewGuests; g != nil && !g.Allow(netlimit.Key(s.resolver.ClientAddr(r))) {
		w.Header().Set("Retry-After", "60")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "too many new players from your address, try again in a minute"))
		return false
	}
	return true
}

// newGuest answers POST /api/guest {"name"?}: the page's guest, in a
// session cookie. With a guest's token (Authorization: Bearer), that
// guest (a page that kept its token in localStorage moves it to the
// cookie); with a live session cookie, its player; else a new guest (201).
func (s *Server) newGuest(w http.ResponseWriter, r *http.Request) {
	if !s.fromSite(w, r) {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, accountBodyLimit))
	if err != nil || len(body) > 0 && !s.decodeBytes(w, body, &req) {
		if err != nil {
			s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "body too large"))
		}
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	if r.Header.Get("Authorization") != "" {
		p, ok := s.bearer(w, r)
		if !ok {
			return
		}
		if players.IsBotID(p.ID) {
			s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a bot account has no session: it sends its token"))
			return
		}
		if p.ID != players.GuestID(p.TokenHash) {
			// A guest made before ids were derived is found by its token
			// only, not by the id a session keeps: the page starts anew.
			s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "this old guest cannot move to a session"))
			return
		}
		started, err := s.players.MoveToSession(ctx, p)
		switch {
		case errors.Is(err, players.ErrMoved):
			s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeConflict, "this guest's token was moved to a session already: it moves once"))
			return
		case err != nil:
			s.accountError(w, err)
			return
		}
		s.sessionStarted(w, r, p.ID, started)
		writeJSON(w, http.StatusOK, meOf(p))
		return
	}
	if ck, err := r.Cookie(players.SessionCookie); err == nil {
		if p, _, err := s.players.BySession(ctx, ck.Value); err == nil {
			writeJSON(w, http.StatusOK, meOf(p))
			return
		}
	}
	if !s.newGuests(w, r) {
		return
	}
	p, _, err := s.players.NewGuest(ctx, req.Name)
	if err != nil {
		s.accountError(w, err)
		return
	}
	if s.signedIn(ctx, w, r, p, false) {
		writeJSON(w, http.StatusCreated, meOf(p))
	}
}

// decodeBytes decodes a JSON body already read, or answers 400.
func (s *Server) decodeBytes(w http.ResponseWriter, body []byte, v any) bool {
	if err := json.Unmarshal(body, v); err != nil {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "malformed JSON body"))
		return false
	}
	return true
}

// createAccount answers POST /api/account {"name","password"}: the
// caller's guest (its session cookie or its token) becomes the account,
// keeping its id; without either, a new account. 201 {"id","name"} and
// the session cookie.
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request) {
	if !s.fromSite(w, r) {
		return
	}
	var guest caller
	if r.Header.Get("Authorization") != "" || hasCookie(r, players.SessionCookie) {
		c, ok := s.caller(w, r)
		if !ok {
			return
		}
		if players.IsBotID(c.ID) {
			s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a bot account cannot become an account"))
			return
		}
		if c.Account() {
			s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "you are signed in to an account: sign out first"))
			return
		}
		guest = c
	} else if !s.newGuests(w, r) {
		return
	}
	var req AccountRequest
	if !s.decodeBody(w, r, accountBodyLimit, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	a, err := s.players.CreateAccount(ctx, guest.Identity, req.Name, req.Password, s.attempt(r))
	if err != nil {
		s.accountError(w, err)
		return
	}
	if guest.ID != "" {
		// Every session of the guest ends, this browser's included (a new
		// one for the account below), and so does every WebSocket of the
		// guest but this browser's: someone else who knew the guest (its
		// token, a session minted from it) is not let into the account.
		if err := s.players.EndSessions(ctx, a.ID, ""); err != nil {
			// Rare (the store did not answer): the guest's other sessions
			// would go on as the account's until they expire or a sign-out
			// everywhere ends them. Logged as an error to be seen.
			s.log.Error("account made: the guest's other sessions were not ended", zap.String("player", a.ID), zap.Error(err))
		}
		mine := guest.session.Hash
		s.Hub.SignOut(a.ID, func(hash string) bool { return !guest.byCookie || hash != mine })
	}
	s.Hub.BecameAccount(a.ID, a.Name)
	s.log.Info("account made", zap.String("player", a.ID), zap.Bool("from guest", guest.ID != ""))
	if s.signedIn(ctx, w, r, a, true) {
		writeJSON(w, http.StatusCreated, Me{ID: a.ID, Name: a.Name})
	}
}

func hasCookie(r *http.Request, name string) bool {
	_, err := r.Cookie(name)
	return err == nil
}

// signIn answers POST /api/session {"name","password"}: 200 {"id","name"}
// and the session cookie; a wrong name or password 401; too many failures
// 429 with Retry-After.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	if !s.fromSite(w, r) {
		return
	}
	var req AccountRequest
	if !s.decodeBody(w, r, accountBodyLimit, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	a, err := s.players.SignIn(ctx, req.Name, req.Password, s.attempt(r))
	s.countSignIn(err)
	if err != nil {
		s.accountError(w, err)
		return
	}
	s.endCookieSession(ctx, r)
	s.log.Info("signed in", zap.String("player", a.ID))
	if s.signedIn(ctx, w, r, a, true) {
		writeJSON(w, http.StatusOK, Me{ID: a.ID, Name: a.Name})
	}
}

// me answers GET /api/me: who the session or token is.
func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	c, ok := s.caller(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, meOf(c.Identity))
}

// cookieCaller is caller for the paths of a browser's session: a token is
// no session (400).
func (s *Server) cookieCaller(w http.ResponseWriter, r *http.Request) (caller, bool) {
	if r.Header.Get("Authorization") != "" {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "a token is not a session: this path is the page's"))
		return caller{}, false
	}
	return s.caller(w, r)
}

// signOut answers DELETE /api/session: this browser's session ends.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	s.endSessions(w, r, func(ctx context.Context, c caller) error {
		return s.players.Store().DeleteSession(ctx, c.session.Hash)
	}, func(c caller, hash string) bool { return hash == c.session.Hash })
}

// signOutEverywhere answers DELETE /api/sessions: every session of the
// player ends, this one and a stolen one included.
func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request) {
	s.endSessions(w, r, func(ctx context.Context, c caller) error {
		return s.players.EndSessions(ctx, c.ID, "")
	}, func(_ caller, hash string) bool { return hash != "" })
}

// endSessions ends the caller's sessions end says, closes the player's
// WebSockets on this node whose session which picks, clears the cookie
// and answers 204.
func (s *Server) endSessions(w http.ResponseWriter, r *http.Request, end func(context.Context, caller) error, which func(caller, string) bool) {
	c, ok := s.cookieCaller(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	if err := end(ctx, c); err != nil {
		s.accountError(w, err)
		return
	}
	s.Hub.SignOut(c.ID, func(hash string) bool { return which(c, hash) })
	s.clearCookie(w, r, players.SessionCookie)
	w.WriteHeader(http.StatusNoContent)
}

// accountCaller is cookieCaller for an account's paths (a guest: 403).
func (s *Server) accountCaller(w http.ResponseWriter, r *http.Request) (caller, bool) {
	c, ok := s.cookieCaller(w, r)
	if ok && !c.Account() {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a guest has no password: make an account first"))
		return caller{}, false
	}
	return c, ok
}

// changePassword answers POST /api/account/password {"old","new"}: the
// password changes and every other session ends.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	c, ok := s.accountCaller(w, r)
	if !ok {
		return
	}
	var req struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	if !s.decodeBody(w, r, accountBodyLimit, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	err := s.players.ChangePassword(ctx, c.Identity, req.Old, req.New, c.session.Hash, s.attempt(r))
	if err != nil {
		s.accountError(w, err)
		return
	}
	keep := c.session.Hash
	s.Hub.SignOut(c.ID, func(hash string) bool { return hash != "" && hash != keep })
	s.log.Info("password changed", zap.String("player", c.ID))
	w.WriteHeader(http.StatusNoContent)
}

// Export is GET /api/account/export: everything the service keeps about
// the player (never a secret nor its hash).
type Export struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Account bool   `json:"account"`
	// Joined is when the guest became an account (Unix ms).
	Joined   int64           `json:"joined,omitempty"`
	Sessions []ExportSession `json:"sessions"`
	Bots     []players.Bot   `json:"bots"`
	// Rooms are the unfinished rooms; Games the finished games' records,
	// newest first (at most store.MaxPlayerRecords).
	Rooms []string      `json:"rooms"`
	Games []gameSummary `json:"games"`
}

// ExportSession is a session in an export: when it began and ends.
type ExportSession struct {
	Created int64 `json:"created"`
	Expires int64 `json:"expires"`
	Current bool  `json:"current,omitempty"`
}

// exportAccount answers GET /api/account/export.
func (s *Server) exportAccount(w http.ResponseWriter, r *http.Request) {
	c, ok := s.caller(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), forgetTimeout)
	defer cancel()
	out := Export{ID: c.ID, Name: c.Name, Account: c.Account(), Joined: c.Joined, Sessions: []ExportSession{}, Games: []gameSummary{}}
	sessions, err := s.players.Store().PlayerSessions(ctx, c.ID)
	if err == nil {
		for _, se := range sessions {
			out.Sessions = append(out.Sessions, ExportSession{Created: se.Created.UnixMilli(), Expires: se.Expires.UnixMilli(),
				Current: se.Hash == c.session.Hash})
		}
		out.Bots, err = s.cfg.Store.OwnerBots(ctx, c.ID)
	}
	if err == nil {
		out.Rooms, err = s.cfg.Store.PlayerRooms(ctx, c.ID)
	}
	if err == nil {
		err = s.eachRecord(ctx, c.ID, func(ref store.RecordRef, rec *records.Record) error {
			out.Games = append(out.Games, summarize(rec, ref.Ended))
			return nil
		})
	}
	if err != nil {
		s.accountError(w, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="tabuleiro-`+c.ID+`.json"`)
	writeJSON(w, http.StatusOK, out)
}

// eachRecord calls f with each game of the player's index, newest first.
func (s *Server) eachRecord(ctx context.Context, player string, f func(store.RecordRef, *records.Record) error) error {
	var before time.Time
	for n := 0; n < store.MaxPlayerRecords; {
		refs, err := s.cfg.Store.Records().PlayerRecords(ctx, player, before, MaxPlayerRecordsPage)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			data, err := s.cfg.Store.Records().Record(ctx, ref.Room)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			rec, err := records.Decode(data)
			if err != nil {
				s.log.Error("undecodable record", zap.String("room", ref.Room), zap.Error(err))
				continue
			}
			if err := f(ref, rec); err != nil {
				return err
			}
		}
		n += len(refs)
		if len(refs) < MaxPlayerRecordsPage {
			return nil
		}
		before = refs[len(refs)-1].Ended
	}
	return nil
}

// closeAccount answers DELETE /api/account {"password"}: the account's
// unfinished games end as resigned, its seats in its rooms and records
// show ClosedName, its bots are closed, every session ends, and its name
// is held a while (players.Config.NameHold) so that nobody takes it at
// once.
func (s *Server) closeAccount(w http.ResponseWriter, r *http.Request) {
	c, ok := s.accountCaller(w, r)
	if !ok {
		return
	}
	var req struct {
		Password string `json:"password"`
	}
	if !s.decodeBody(w, r, accountBodyLimit, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), forgetTimeout)
	defer cancel()
	if err := s.players.Confirm(ctx, c.Identity, req.Password, s.attempt(r)); err != nil {
		s.accountError(w, err)
		return
	}
	bots, err := s.cfg.Store.OwnerBots(ctx, c.ID)
	if err != nil {
		s.accountError(w, err)
		return
	}
	if err := s.forget(ctx, c.ID); err != nil {
		s.log.Warn("close account: rooms and records", zap.String("player", c.ID), zap.Error(err))
	}
	if err := s.players.Close(ctx, c.Identity); err != nil {
		s.accountError(w, err)
		return
	}
	for _, b := range bots {
		s.bots.kickEvents(b.ID)
	}
	s.Hub.SignOut(c.ID, func(string) bool { return true })
	s.clearCookie(w, r, players.SessionCookie)
	s.log.Info("account closed", zap.String("player", c.ID))
	w.WriteHeader(http.StatusNoContent)
}

// forget takes the player out of its rooms and records: each room that
// still has a snapshot runs rooms.Room.Forget (its unfinished game
// resigned, its seats renamed, its record written again by the room's
// save); a record whose room is gone is written again here. Rooms served
// by another node are left: their games end by the clock or abandonment.
func (s *Server) forget(ctx context.Context, player string) error {
	ids, err := s.cfg.Store.PlayerRooms(ctx, player)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
		if _, err := s.forgetIn(ctx, id, player); err != nil {
			return err
		}
	}
	var gone []*records.Record
	err = s.eachRecord(ctx, player, func(ref store.RecordRef, rec *records.Record) error {
		if seen[ref.Room] {
			return nil
		}
		seen[ref.Room] = true
		ran, err := s.forgetIn(ctx, ref.Room, player)
		if err == nil && !ran {
			gone = append(gone, rec)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, rec := range gone {
		var ids []string
		for i, p := range rec.Players {
			if p.ID == player {
				rec.Players[i].Name = ClosedName
			}
			if p.ID != "" && p.Bot == "" {
				ids = append(ids, p.ID)
			}
		}
		data, err := records.Encode(rec)
		if err != nil {
			return err
		}
		if err := s.cfg.Store.Records().PutRecord(ctx, store.RecordEntry{Room: rec.Room, Data: data, Players: ids, Ended: rec.Ended, Private: rec.Private}); err != nil {
			return err
		}
	}
	return nil
}

// forgetIn runs Forget in the room if it is here or in the store; ran is
// false when it is in neither (its record alone remains).
func (s *Server) forgetIn(ctx context.Context, id, player string) (ran bool, err error) {
	room, err := s.Rooms.Lookup(ctx, id)
	var elsewhere *rooms.OwnedElsewhere
	switch {
	case errors.Is(err, rooms.ErrUnknownRoom):
		return false, nil
	case errors.As(err, &elsewhere):
		s.log.Info("close account: room on another node left as it is", zap.String("room", id))
		return true, nil
	case err != nil:
		return false, err
	}
	done := make(chan error, 1)
	if !room.Forget(player, ClosedName, func(err error) { done <- err }) {
		return true, nil // closed as we came: it is finished and saved
	}
	select {
	case err := <-done:
		return true, err
	case <-ctx.Done():
		return true, ctx.Err()
	}
}
