package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// The accounts tests run the real server on the memory store and on a real
// Redis, driven by Browsers (a cookie jar each, the page's Origin) and
// WebSocket clients, as the page and outside tests drive it.

// onStores runs f on the memory store and on a real Redis.
func onStores(t *testing.T, f func(t *testing.T, edit func(*server.Config))) {
	t.Run("memory", func(t *testing.T) { f(t, func(*server.Config) {}) })
	t.Run("redis", func(t *testing.T) {
		addr := redistest.Start(t)
		prefix := redistest.Prefix(t, addr)
		f(t, func(c *server.Config) {
			st, err := redisstore.New(context.Background(), addr, prefix)
			if err != nil {
				t.Fatalf("redis store: %v", err)
			}
			c.Store = st
		})
	})
}

// logged starts the server with every log line at debug level kept, for
// the tests that look for what must never be in one.
func logged(logs **observer.ObservedLogs) func(*server.Config) {
	return func(c *server.Config) {
		core, seen := observer.New(zapcore.DebugLevel)
		c.Log = zap.New(core)
		*logs = seen
	}
}

// me is GET /api/me's answer.
type me struct {
	ID, Name string
	Account  bool
}

// guestPlays has a guest (WebSocket, named name) finish one morris game
// (the opponent resigns) and sit in a second one under way; it returns
// the guest and the two rooms.
func guestPlays(t *testing.T, s *testserver.Server, name string) (g *testserver.Client, finished, playing string) {
	t.Helper()
	g = s.Hello(t, name, "")
	rooms := make([]string, 2)
	for i := range rooms {
		opp := s.Hello(t, fmt.Sprintf("opp%d", i), "")
		g.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
		rooms[i] = g.Wait("room.joined", func(m testserver.Msg) bool { return !slices.Contains(rooms, m.Room) }).Room
		opp.Send(map[string]any{"type": "room.join", "room": rooms[i], "as": "player"})
		g.State(rooms[i], func(m testserver.Msg) bool { return m.Status == "playing" })
		if i == 0 {
			opp.Send(map[string]any{"type": "room.resign", "room": rooms[i]})
			g.State(rooms[i], func(m testserver.Msg) bool { return m.Status == "finished" })
		}
	}
	return g, rooms[0], rooms[1]
}

// helloWithCookie says hello over a WebSocket that carries b's cookies and
// nothing else (no token).
func helloWithCookie(t *testing.T, b *testserver.Browser) *testserver.Client {
	t.Helper()
	c, err := b.Dial()
	if err != nil {
		t.Fatalf("dial with the cookie: %v", err)
	}
	c.Send(map[string]any{"type": "hello", "id": "h", "features": []string{"patch"}})
	return c
}

// TestAccountJourney: a guest plays, registers a bot and becomes an
// account; a second browser with nothing of the first signs in and sees
// the same id, games, bot and unfinished room, where the WebSocket with
// the cookie alone seats it again. No answer, frame or log line of it all
// carries the password, a hash or a session.
func TestAccountJourney(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		var logs *observer.ObservedLogs
		s := testserver.Start(t, edit, logged(&logs))
		const password = "correct horse battery"
		g, finished, playing := guestPlays(t, s, "ana")
		web := s.NewBrowser(t)
		var bot struct{ ID, Name, Token string }
		if code, _ := web.Do("POST", "/api/bots", map[string]string{"name": "robo"}, &bot, "Authorization", "Bearer "+g.Token); code != http.StatusCreated {
			t.Fatalf("register a bot: %d", code)
		}

		// The guest becomes the account, with its token.
		var made me
		code, h := web.Do("POST", "/api/account", map[string]string{"name": "Ana_Lima", "password": password}, &made,
			"Authorization", "Bearer "+g.Token)
		if code != http.StatusCreated || made.ID != g.Player.ID || made.Name != "Ana_Lima" {
			t.Fatalf("POST /api/account: %d %+v, want 201 and the guest's id %s", code, made, g.Player.ID)
		}
		checkSessionCookie(t, h, false)
		// Its token retired: the account signs in.
		if code, _ := s.NewBrowser(t).Do("GET", "/api/me", nil, nil, "Authorization", "Bearer "+g.Token); code != http.StatusUnauthorized {
			t.Fatalf("GET /api/me with the retired guest token: %d, want 401", code)
		}
		retired, _ := s.Dial(t, nil)
		retired.Send(map[string]any{"type": "hello", "token": g.Token})
		retired.WaitError("unauthorized")

		// A second browser, nothing shared, signs in (the name in another case).
		other := s.NewBrowser(t)
		var in me
		if code, h := other.Do("POST", "/api/session", map[string]string{"name": "ana_lima", "password": password}, &in); code != http.StatusOK || in.ID != g.Player.ID {
			t.Fatalf("POST /api/session: %d %+v", code, in)
		} else {
			checkSessionCookie(t, h, false)
		}
		var who me
		if code, _ := other.Do("GET", "/api/me", nil, &who); code != http.StatusOK || who != (me{ID: g.Player.ID, Name: "Ana_Lima", Account: true}) {
			t.Fatalf("GET /api/me: %d %+v", code, who)
		}
		var games playerGames
		eventually(t, "the finished game in the account's games", func() bool {
			other.Do("GET", "/api/players/"+who.ID+"/records", nil, &games)
			return len(games.Records) == 1 && games.Records[0].Room == finished
		})
		var bots struct {
			Bots []struct{ ID, Name string }
		}
		if code, _ := other.Do("GET", "/api/bots/mine", nil, &bots); code != http.StatusOK || len(bots.Bots) != 1 || bots.Bots[0].ID != bot.ID {
			t.Fatalf("GET /api/bots/mine: %d %+v, want the guest's bot %s", code, bots, bot.ID)
		}
		var export httpapi.Export
		if code, _ := other.Do("GET", "/api/account/export", nil, &export); code != http.StatusOK ||
			export.ID != who.ID || !export.Account || export.Joined == 0 || !slices.Equal(export.Rooms, []string{playing}) ||
			len(export.Bots) != 1 || len(export.Games) != 1 || len(export.Sessions) != 2 {
			t.Fatalf("GET /api/account/export: %d %+v", code, export)
		}

		// The WebSocket with the cookie alone: the account, seated again.
		ws := helloWithCookie(t, other)
		w := ws.Wait("welcome", nil)
		if w.Player.ID != who.ID || w.Player.Name != "Ana_Lima" || w.Token != "" || !strings.Contains(string(w.Rooms), playing) {
			t.Fatalf("welcome with the cookie: %s", w.Raw)
		}
		ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == playing && m.Role == "player" })
		st := ws.State(playing, nil)
		if st.Players[0].ID != who.ID || !st.Players[0].Connected {
			t.Fatalf("the account's seat in %s: %s", playing, st.Raw)
		}
		// The bot's token still plays as the bot.
		b := s.Hello(t, "", bot.Token)
		if b.Player.ID != bot.ID || !b.Player.BotAccount {
			t.Fatalf("the bot's hello: %+v", b.Player)
		}

		secrets := []string{password, "argon2", web.Cookie(players.SessionCookie), other.Cookie(players.SessionCookie),
			players.HashToken(other.Cookie(players.SessionCookie))}
		checkNoSecret(t, s, logs, secrets, g, retired, ws, b)
	})
}

// checkSessionCookie fails unless h sets the session cookie HttpOnly,
// SameSite=Lax, on the whole site, Secure as secure says.
func checkSessionCookie(t *testing.T, h http.Header, secure bool) {
	t.Helper()
	for _, line := range h.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err != nil || c.Name != players.SessionCookie {
			continue
		}
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != secure || c.MaxAge <= 0 {
			t.Fatalf("session cookie %q: want HttpOnly, SameSite=Lax, Path=/, a Max-Age, Secure %v", line, secure)
		}
		return
	}
	t.Fatalf("no session cookie in %q", h.Values("Set-Cookie"))
}

// checkNoSecret fails if any answer the Browsers got, any frame of the
// clients, any log line or the metrics hold one of secrets.
func checkNoSecret(t *testing.T, s *testserver.Server, logs *observer.ObservedLogs, secrets []string, clients ...*testserver.Client) {
	t.Helper()
	var texts []string
	texts = append(texts, s.Answers()...)
	for _, c := range clients {
		for _, m := range c.Log() {
			texts = append(texts, string(m.Raw))
		}
	}
	for _, e := range logs.All() {
		texts = append(texts, e.Message+" "+fmt.Sprint(e.ContextMap()))
	}
	resp, err := http.Get(s.MetricsURL)
	if err != nil {
		t.Fatal(err)
	}
	var metrics strings.Builder
	_, _ = fmt.Fprint(&metrics, resp.Header)
	buf := make([]byte, 1<<20)
	for {
		n, err := resp.Body.Read(buf)
		metrics.Write(buf[:n])
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	texts = append(texts, metrics.String())
	if len(s.Answers()) < 5 || len(logs.All()) == 0 {
		t.Fatalf("%d answers and %d log lines looked at: too few to mean anything", len(s.Answers()), len(logs.All()))
	}
	for _, secret := range secrets {
		if secret == "" {
			t.Fatal("an empty secret to look for")
		}
		for _, text := range texts {
			if strings.Contains(strings.ToLower(text), strings.ToLower(secret)) {
				t.Fatalf("%q found in:\n%s", secret, text)
			}
		}
	}
}

// TestAccountRefusals: a wrong password, a taken name (without case), a
// forged or missing Origin, a signed-out session and the sessions a
// password change ends are each refused, and change nothing.
func TestAccountRefusals(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		var logs *observer.ObservedLogs
		s := testserver.Start(t, edit, logged(&logs))
		const pw, pw2 = "first password", "second password"
		ana := s.NewBrowser(t)
		if code, _ := ana.Do("POST", "/api/account", map[string]string{"name": "Ana", "password": pw}, nil); code != http.StatusCreated {
			t.Fatalf("a new account: %d", code)
		}
		signIn := func(b *testserver.Browser, name, password string) int {
			t.Helper()
			code, _ := b.Do("POST", "/api/session", map[string]string{"name": name, "password": password}, nil)
			return code
		}
		var e apiError
		// A wrong password: 401, no session.
		wrong := s.NewBrowser(t)
		if code, _ := wrong.Do("POST", "/api/session", map[string]string{"name": "ana", "password": "not it!!"}, &e); code != http.StatusUnauthorized || e.Error.Code != "unauthorized" {
			t.Fatalf("a wrong password: %d %+v", code, e)
		}
		if wrong.Cookie(players.SessionCookie) != "" {
			t.Fatal("a refused sign-in set a session cookie")
		}
		if code, _ := wrong.Do("POST", "/api/session", map[string]string{"name": "nobody", "password": "not it!!"}, &e); code != http.StatusUnauthorized || e.Error.Message != "wrong name or password" {
			t.Fatalf("an unknown name: %d %+v, want the wrong password's answer", code, e)
		}

		// A taken name, in another case: 409, and the guest stays one.
		g := s.Hello(t, "guest", "")
		if code, _ := s.NewBrowser(t).Do("POST", "/api/account", map[string]string{"name": "ANA", "password": "a password"}, &e,
			"Authorization", "Bearer "+g.Token); code != http.StatusConflict || e.Error.Code != "name_taken" {
			t.Fatalf("a taken name: %d %+v", code, e)
		}
		var still me
		if code, _ := s.NewBrowser(t).Do("GET", "/api/me", nil, &still, "Authorization", "Bearer "+g.Token); code != http.StatusOK || still.Account || still.ID != g.Player.ID {
			t.Fatalf("the refused guest: %d %+v", code, still)
		}
		// Bad names and passwords: 400.
		for _, body := range []map[string]string{{"name": "x", "password": "long enough"}, {"name": "bia", "password": "short"},
			{"name": "biabiabia", "password": "BiaBiaBia"}, {"name": "bia lima", "password": "long enough"}} {
			if code, _ := s.NewBrowser(t).Do("POST", "/api/account", body, &e); code != http.StatusBadRequest || e.Error.Code != "bad_request" {
				t.Fatalf("POST /api/account %v: %d %+v, want 400 bad_request", body, code, e)
			}
		}
		// A guest may not take an account's name either.
		g.Send(map[string]any{"type": "player.rename", "name": "aNa", "id": "r"})
		if m := g.WaitError("name_taken"); string(m.ID) != `"r"` {
			t.Fatalf("rename to an account's name: %s", m.Raw)
		}

		// A forged Origin, and none: 403, the password unchanged.
		for _, origin := range []string{"https://evil.example", ""} {
			ana.Origin = origin
			if code, _ := ana.Do("POST", "/api/account/password", map[string]string{"old": pw, "new": pw2}, &e); code != http.StatusForbidden || e.Error.Code != "forbidden" {
				t.Fatalf("a password change from Origin %q: %d %+v", origin, code, e)
			}
			if code, _ := ana.Do("DELETE", "/api/sessions", nil, nil); code != http.StatusForbidden {
				t.Fatalf("DELETE /api/sessions from Origin %q: %d", origin, code)
			}
			if code, _ := ana.Do("POST", "/api/bots", map[string]string{"name": "forged"}, nil); code != http.StatusForbidden {
				t.Fatalf("POST /api/bots with the cookie from Origin %q: %d", origin, code)
			}
		}
		ana.Origin = s.URL
		if code, _ := ana.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
			t.Fatalf("the session after the forged requests: %d", code)
		}
		if signIn(s.NewBrowser(t), "ana", pw) != http.StatusOK {
			t.Fatal("the password changed by a forged request")
		}
		// Another site's form may not sign a browser in.
		evil := s.NewBrowser(t)
		evil.Origin = "https://evil.example"
		if signIn(evil, "ana", pw) != http.StatusForbidden || evil.Cookie(players.SessionCookie) != "" {
			t.Fatal("a sign-in from another site's page")
		}

		// A signed-out session: refused over HTTP and the WebSocket.
		out := s.NewBrowser(t)
		if signIn(out, "ana", pw) != http.StatusOK {
			t.Fatal("sign in")
		}
		old := out.Cookie(players.SessionCookie)
		if code, h := out.Do("DELETE", "/api/session", nil, nil); code != http.StatusNoContent || !strings.Contains(h.Get("Set-Cookie"), "Max-Age=0") {
			t.Fatalf("DELETE /api/session: %d, cookie %q", code, h.Get("Set-Cookie"))
		}
		out.SetCookie(players.SessionCookie, old)
		if code, _ := out.Do("GET", "/api/me", nil, &e); code != http.StatusUnauthorized {
			t.Fatalf("a signed-out session: %d", code)
		}
		out.SetCookie(players.SessionCookie, old)
		helloWithCookie(t, out).WaitError("unauthorized")
		if code, _ := ana.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
			t.Fatalf("another session after one signed out: %d", code)
		}

		// A password change ends the other sessions, and the other
		// sessions' WebSockets.
		keep, lose := s.NewBrowser(t), s.NewBrowser(t)
		for _, b := range []*testserver.Browser{keep, lose} {
			if signIn(b, "ana", pw) != http.StatusOK {
				t.Fatal("sign in")
			}
		}
		losing := helloWithCookie(t, lose)
		losing.Wait("welcome", nil)
		if code, _ := keep.Do("POST", "/api/account/password", map[string]string{"old": "not it!!", "new": pw2}, &e); code != http.StatusUnauthorized {
			t.Fatalf("a password change with a wrong old one: %d", code)
		}
		if code, _ := keep.Do("POST", "/api/account/password", map[string]string{"old": pw, "new": pw2}, nil); code != http.StatusNoContent {
			t.Fatalf("a password change: %d", code)
		}
		if code := losing.WaitClosed(); code != 1008 {
			t.Fatalf("the other session's WebSocket closed with %d, want 1008", code)
		}
		for _, c := range []struct {
			b    *testserver.Browser
			want int
		}{{keep, http.StatusOK}, {lose, http.StatusUnauthorized}, {ana, http.StatusUnauthorized}} {
			if code, _ := c.b.Do("GET", "/api/me", nil, nil); code != c.want {
				t.Fatalf("a session after the password change: %d, want %d", code, c.want)
			}
		}
		if signIn(s.NewBrowser(t), "ana", pw) != http.StatusUnauthorized || signIn(s.NewBrowser(t), "ana", pw2) != http.StatusOK {
			t.Fatal("the old password still works, or the new one not")
		}
		// Everywhere: every session ends, this one too.
		if code, _ := keep.Do("DELETE", "/api/sessions", nil, nil); code != http.StatusNoContent {
			t.Fatalf("DELETE /api/sessions: %d", code)
		}
		if code, _ := keep.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
			t.Fatalf("the session that signed out everywhere: %d", code)
		}
		checkNoSecret(t, s, logs, []string{pw, pw2, "argon2", old}, g, losing)
	})
}

// TestEleventhFailedSignInIsLimited: ten failures from one address are
// answered 401, the eleventh 429 with Retry-After, the right password
// included (it is not checked).
func TestEleventhFailedSignInIsLimited(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit)
		b := s.NewBrowser(t)
		if code, _ := b.Do("POST", "/api/account", map[string]string{"name": "caio", "password": "the password"}, nil); code != http.StatusCreated {
			t.Fatal("a new account")
		}
		var e apiError
		for i := 1; i <= 10; i++ {
			if code, _ := b.Do("POST", "/api/session", map[string]string{"name": "caio", "password": fmt.Sprint("guess ", i)}, &e); code != http.StatusUnauthorized {
				t.Fatalf("failed sign-in %d: %d %+v, want 401", i, code, e)
			}
		}
		for _, pw := range []string{"guess 11", "the password"} {
			code, h := b.Do("POST", "/api/session", map[string]string{"name": "caio", "password": pw}, &e)
			ra, err := strconv.Atoi(h.Get("Retry-After"))
			if code != http.StatusTooManyRequests || e.Error.Code != "rate_limited" || err != nil || ra <= 0 || ra > 15*60 {
				t.Fatalf("the eleventh sign-in: %d %+v Retry-After %q, want 429 within 15 minutes", code, e, h.Get("Retry-After"))
			}
		}
		// The session the account had stays good.
		if code, _ := b.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
			t.Fatalf("the account's session after the lockout: %d", code)
		}
	})
}

// TestStrangerCannotLockOutAKnownDevice: failures against an account from
// many addresses (behind the trusted proxy) lock it for browsers that never
// signed in to it, not for the one that did, from yet another address.
func TestStrangerCannotLockOutAKnownDevice(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	owner := s.NewBrowser(t)
	owner.Header.Set("X-Forwarded-For", "198.51.100.1")
	if code, _ := owner.Do("POST", "/api/account", map[string]string{"name": "duda", "password": "duda's password"}, nil); code != http.StatusCreated {
		t.Fatal("a new account")
	}
	if owner.Cookie(players.DeviceCookie) == "" {
		t.Fatal("no device cookie for the browser that made the account")
	}
	if code, _ := owner.Do("DELETE", "/api/session", nil, nil); code != http.StatusNoContent {
		t.Fatal("sign out")
	}
	stranger := s.NewBrowser(t)
	for i := range 12 {
		stranger.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1))
		stranger.Do("POST", "/api/session", map[string]string{"name": "duda", "password": "guess"}, nil)
	}
	// A new browser, from a new address: locked out for now.
	newcomer := s.NewBrowser(t)
	newcomer.Header.Set("X-Forwarded-For", "192.0.2.50")
	if code, h := newcomer.Do("POST", "/api/session", map[string]string{"name": "duda", "password": "duda's password"}, nil); code != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("a new browser after the stranger's failures: %d, want 429", code)
	}
	// The owner's browser, from another address too: signed in.
	owner.Header.Set("X-Forwarded-For", "192.0.2.99")
	if code, _ := owner.Do("POST", "/api/session", map[string]string{"name": "duda", "password": "duda's password"}, nil); code != http.StatusOK {
		t.Fatalf("the owner's known browser after a stranger's failures: %d, want 200", code)
	}
}

// TestSessionCookieSecure: Secure when the trusted proxy says the client
// came over TLS, not when another peer says so.
func TestSessionCookieSecure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		trusted string
		secure  bool
	}{{"trusted proxy", "127.0.0.1/32", true}, {"untrusted peer", "192.0.2.0/24", false}} {
		t.Run(tc.name, func(t *testing.T) {
			s := testserver.Start(t, func(c *server.Config) {
				c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix(tc.trusted)}
			})
			b := s.NewBrowser(t)
			code, h := b.Do("POST", "/api/guest", nil, nil, "X-Forwarded-Proto", "https")
			if code != http.StatusCreated {
				t.Fatalf("POST /api/guest: %d", code)
			}
			checkSessionCookie(t, h, tc.secure)
		})
	}
}

// TestExpiredSessionRefused: past its lifetime (the server's clock moved),
// a session is refused over HTTP and the WebSocket; signing in again works.
func TestExpiredSessionRefused(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		now := fakeclock.New()
		const ttl = 24 * time.Hour
		s := testserver.Start(t, edit, func(c *server.Config) { c.Now, c.Accounts.SessionTTL = now.Now, ttl })
		b := s.NewBrowser(t)
		if code, _ := b.Do("POST", "/api/account", map[string]string{"name": "eva", "password": "eva's password"}, nil); code != http.StatusCreated {
			t.Fatal("a new account")
		}
		now.Advance(ttl - time.Minute)
		if code, _ := b.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
			t.Fatalf("a session a minute before its end: %d", code)
		}
		now.Advance(2 * time.Minute)
		secret := b.Cookie(players.SessionCookie)
		if code, _ := b.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
			t.Fatalf("an expired session: %d, want 401", code)
		}
		b.SetCookie(players.SessionCookie, secret)
		helloWithCookie(t, b).WaitError("unauthorized")
		b.SetCookie(players.SessionCookie, secret)
		if code, _ := b.Do("POST", "/api/account/password", map[string]string{"old": "eva's password", "new": "a new one!"}, nil); code != http.StatusUnauthorized {
			t.Fatalf("a password change with an expired session: %d, want 401", code)
		}
		if code, _ := s.NewBrowser(t).Do("POST", "/api/session", map[string]string{"name": "eva", "password": "eva's password"}, nil); code != http.StatusOK {
			t.Fatalf("signing in again after the expiry: %d (the refusal changed the password?)", code)
		}
	})
}

// TestGuestSession: the page's guest lives in the session cookie: made by
// POST /api/guest, the WebSocket says hello with it alone (no token in the
// welcome), and a page that kept a token moves it into a cookie.
func TestGuestSession(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	b := s.NewBrowser(t)
	var g me
	if code, _ := b.Do("POST", "/api/guest", map[string]string{"name": "visitante"}, &g); code != http.StatusCreated || g.Account || g.Name != "visitante" {
		t.Fatalf("POST /api/guest: %d %+v", code, g)
	}
	var again me
	if code, _ := b.Do("POST", "/api/guest", nil, &again); code != http.StatusOK || again.ID != g.ID {
		t.Fatalf("POST /api/guest with a live session: %d %+v, want the same guest", code, again)
	}
	c := helloWithCookie(t, b)
	if w := c.Wait("welcome", nil); w.Player.ID != g.ID || w.Token != "" {
		t.Fatalf("welcome of the guest's cookie: %s", w.Raw)
	}
	// A page with a token from before: the token's guest, in a cookie.
	old := s.Hello(t, "antigo", "")
	moved := s.NewBrowser(t)
	if code, _ := moved.Do("POST", "/api/guest", nil, &again, "Authorization", "Bearer "+old.Token); code != http.StatusOK || again.ID != old.Player.ID {
		t.Fatalf("POST /api/guest with a token: %d %+v", code, again)
	}
	if code, _ := moved.Do("GET", "/api/me", nil, &again); code != http.StatusOK || again.ID != old.Player.ID {
		t.Fatalf("GET /api/me of the moved guest: %d %+v", code, again)
	}
	// A guest with the cookie becomes an account: its old session ends.
	guestCookie := b.Cookie(players.SessionCookie)
	if code, _ := b.Do("POST", "/api/account", map[string]string{"name": "visitante", "password": "a password"}, &again); code != http.StatusCreated || again.ID != g.ID {
		t.Fatalf("the cookie's guest becomes an account: %d %+v", code, again)
	}
	if b.Cookie(players.SessionCookie) == guestCookie {
		t.Fatal("the account kept the guest's session")
	}
	if code, _ := b.Do("GET", "/api/me", nil, &again); code != http.StatusOK || !again.Account {
		t.Fatalf("GET /api/me after: %d %+v", code, again)
	}
	// Its open WebSocket shows the account's name and refuses renames.
	c.Send(map[string]any{"type": "player.rename", "name": "other", "id": "r"})
	c.WaitError("bad_request")
}

// TestCloseAccount: a wrong password changes nothing; the right one ends
// the account's game under way (resigned), shows its seats as a closed
// account in its records, closes its bot and every session, and holds its
// name.
func TestCloseAccount(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit)
		g, finished, playing := guestPlays(t, s, "fabi")
		web := s.NewBrowser(t)
		var bot struct{ ID, Token string }
		web.Do("POST", "/api/bots", map[string]string{"name": "robo"}, &bot, "Authorization", "Bearer "+g.Token)
		var a me
		if code, _ := web.Do("POST", "/api/account", map[string]string{"name": "fabi", "password": "fabi's password"}, &a,
			"Authorization", "Bearer "+g.Token); code != http.StatusCreated {
			t.Fatal("the guest becomes an account")
		}
		eventually(t, "the record of "+finished, func() bool {
			code, _ := web.Do("GET", "/api/records/"+finished, nil, nil)
			return code == http.StatusOK
		})
		if code, _ := web.Do("DELETE", "/api/account", map[string]string{"password": "not it!!"}, nil); code != http.StatusUnauthorized {
			t.Fatalf("closing with a wrong password: %d", code)
		}
		if code, _ := web.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
			t.Fatal("the refused closing changed the account")
		}
		if code, _ := web.Do("DELETE", "/api/account", map[string]string{"password": "fabi's password"}, nil); code != http.StatusNoContent {
			t.Fatalf("closing: %d", code)
		}
		if code, _ := web.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
			t.Fatalf("the closed account's session: %d", code)
		}
		if code, _ := s.NewBrowser(t).Do("POST", "/api/session", map[string]string{"name": "fabi", "password": "fabi's password"}, nil); code != http.StatusUnauthorized {
			t.Fatalf("signing in to a closed account: %d", code)
		}
		if code, _ := s.NewBrowser(t).Do("GET", "/api/bot/account", nil, nil, "Authorization", "Bearer "+bot.Token); code != http.StatusUnauthorized {
			t.Fatalf("the closed account's bot: %d", code)
		}
		var e apiError
		if code, _ := s.NewBrowser(t).Do("POST", "/api/account", map[string]string{"name": "Fabi", "password": "a password"}, &e); code != http.StatusConflict || e.Error.Code != "name_taken" {
			t.Fatalf("the closed account's name at once: %d %+v", code, e)
		}
		for _, room := range []string{finished, playing} {
			var rec struct {
				Status  string
				Players []struct{ ID, Name string }
				Result  *struct {
					Winner *int
					Reason string
				}
			}
			eventually(t, "the closed account's record of "+room, func() bool {
				s.NewBrowser(t).Do("GET", "/api/records/"+room, nil, &rec)
				return rec.Status == "finished" && len(rec.Players) == 2 && rec.Players[0].Name == httpapi.ClosedName
			})
			if rec.Players[0].ID != a.ID || room == playing && (rec.Result == nil || rec.Result.Reason != "resign" || rec.Result.Winner == nil || *rec.Result.Winner != 1) {
				t.Fatalf("record of %s after the closing: %+v", room, rec)
			}
		}
	})
}

// TestSessionOnEveryNode: two servers on one Redis: a session made on one
// is the same player on the other, over HTTP and the WebSocket; signed out
// on the second, it is refused on the first.
func TestSessionOnEveryNode(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	a, b := startOnRedis(t, open), startOnRedis(t, open)
	onA := a.NewBrowser(t)
	var made me
	if code, _ := onA.Do("POST", "/api/account", map[string]string{"name": "nodes", "password": "one password"}, &made); code != http.StatusCreated {
		t.Fatalf("a new account on the first node: %d", code)
	}
	onB := b.NewBrowser(t)
	onB.SetCookie(players.SessionCookie, onA.Cookie(players.SessionCookie))
	var who me
	if code, _ := onB.Do("GET", "/api/me", nil, &who); code != http.StatusOK || who.ID != made.ID || !who.Account {
		t.Fatalf("the session on the second node: %d %+v", code, who)
	}
	ws := helloWithCookie(t, onB)
	if w := ws.Wait("welcome", nil); w.Player.ID != made.ID || w.Token != "" {
		t.Fatalf("welcome on the second node: %s", w.Raw)
	}
	if code, _ := onB.Do("DELETE", "/api/session", nil, nil); code != http.StatusNoContent {
		t.Fatalf("sign out on the second node: %d", code)
	}
	if code, _ := onA.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("the session signed out on the other node, on the first: %d", code)
	}
}
