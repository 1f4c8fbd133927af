package server_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// The attacks of issue 33 on accounts, each played as a hostile client
// would against the real server (docs/protocol.md, "Accounts", "What an
// attacker cannot do").

// errorBody is the HTTP API's error answer.
type errorBody struct {
	Error struct{ Code, Message string }
}

// TestGuestTokenCannotTakeOverTheAccount plays issue 33's takeover: an
// attacker who knows a guest's token mints a session cookie from it and
// keeps a WebSocket open with that cookie and one with the token; the
// victim then makes the guest an account. The attacker's cookie is
// refused (401), both its WebSockets are closed and the token, retired,
// authenticates as nobody.
func TestGuestTokenCannotTakeOverTheAccount(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit)
		planted := s.Hello(t, "vitima", "") // the attacker's guest, whose token it plants
		token := planted.Token
		attacker := s.NewBrowser(t)
		var who me
		if code, _ := attacker.Do("POST", "/api/guest", nil, &who, "Authorization", "Bearer "+token); code != http.StatusOK || who.ID != planted.Player.ID {
			t.Fatalf("the attacker moves the token into a cookie: %d %+v", code, who)
		}
		attackerWS := helloWithCookie(t, attacker)
		if w := attackerWS.Wait("welcome", nil); w.Player.ID != planted.Player.ID {
			t.Fatalf("the attacker's cookie WebSocket: %s", w.Raw)
		}
		// The victim, who holds the planted token, makes the account.
		victim := s.NewBrowser(t)
		var made me
		if code, _ := victim.Do("POST", "/api/account", map[string]string{"name": "vitima", "password": "the victim's password"}, &made,
			"Authorization", "Bearer "+token); code != http.StatusCreated || made.ID != planted.Player.ID {
			t.Fatalf("the victim makes the account: %d %+v", code, made)
		}
		if code, _ := attacker.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
			t.Fatalf("the attacker's cookie after the account was made: GET /api/me %d, want 401", code)
		}
		if code := attackerWS.WaitClosed(); code != 1008 {
			t.Fatalf("the attacker's cookie WebSocket closed with %d, want 1008", code)
		}
		if code := planted.WaitClosed(); code != 1008 {
			t.Fatalf("the token's WebSocket closed with %d, want 1008", code)
		}
		// The retired token is nobody now: no session, no hello, no request.
		for _, path := range []string{"/api/guest", "/api/account/export"} {
			method := "POST"
			if path == "/api/account/export" {
				method = "GET"
			}
			if code, _ := s.NewBrowser(t).Do(method, path, nil, nil, "Authorization", "Bearer "+token); code != http.StatusUnauthorized {
				t.Fatalf("%s %s with the retired token: %d, want 401", method, path, code)
			}
		}
		again, _ := s.Dial(t, nil)
		again.Send(map[string]any{"type": "hello", "token": token})
		again.WaitError("unauthorized")
		var mine me
		if code, _ := victim.Do("GET", "/api/me", nil, &mine); code != http.StatusOK || !mine.Account || mine.ID != planted.Player.ID {
			t.Fatalf("the victim's own session: %d %+v", code, mine)
		}
	})
}

// TestGuestBecomingAccountKeepsOnlyItsBrowser: a guest whose token moved
// into its browser's cookie makes the account from that browser; the
// browser's WebSocket stays (now the account's), the WebSocket of someone
// else who kept the token is closed, and the token moves no more: a
// second move is 409 conflict and leaves no session.
func TestGuestBecomingAccountKeepsOnlyItsBrowser(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	g := s.Hello(t, "kate", "")
	browser := s.NewBrowser(t)
	if code, _ := browser.Do("POST", "/api/guest", nil, nil, "Authorization", "Bearer "+g.Token); code != http.StatusOK {
		t.Fatalf("the guest's page moves its token: %d", code)
	}
	mine := helloWithCookie(t, browser)
	mine.Wait("welcome", nil)
	stranger := s.NewBrowser(t)
	var refusal errorBody
	if code, _ := stranger.Do("POST", "/api/guest", nil, &refusal, "Authorization", "Bearer "+g.Token); code != http.StatusConflict || refusal.Error.Code != "conflict" {
		t.Fatalf("a stranger moves the same token: %d %+v, want 409 conflict", code, refusal)
	}
	if code, _ := stranger.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("the refused move left a session: GET /api/me %d", code)
	}
	if code, _ := browser.Do("POST", "/api/account", map[string]string{"name": "kate", "password": "kate's password"}, nil); code != http.StatusCreated {
		t.Fatalf("the guest's page makes the account: %d", code)
	}
	if code := g.WaitClosed(); code != 1008 {
		t.Fatalf("the token's WebSocket closed with %d, want 1008", code)
	}
	mine.Send(map[string]any{"type": "player.rename", "name": "other", "id": "r"})
	mine.WaitError("bad_request") // open, and an account's: no renames
	if mine.Closed() {
		t.Fatal("the WebSocket of the browser that made the account was closed")
	}
}

// TestKelvinSignIsAWrongName plays issue 33's bypass of the per-name lock:
// U+212A KELVIN SIGN is "k" to Unicode's lower case, and the lock cut the
// name to 32 bytes before its key. A sign-in name that is not an
// account's shape is simply a wrong name now, answered exactly as one
// (even with the right password), and after 10 failures on "kate" no
// spelling gives an 11th guess at its password.
func TestKelvinSignIsAWrongName(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit, func(c *server.Config) {
			c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		})
		const password = "kate's password"
		owner := s.NewBrowser(t)
		owner.Header.Set("X-Forwarded-For", "198.51.100.1")
		if code, _ := owner.Do("POST", "/api/account", map[string]string{"name": "Kate", "password": password}, nil); code != http.StatusCreated {
			t.Fatal("a new account")
		}
		addr := 0
		signIn := func(name, pw string) (int, errorBody) {
			addr++
			b := s.NewBrowser(t)
			b.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", addr))
			var out errorBody
			code, _ := b.Do("POST", "/api/session", map[string]string{"name": name, "password": pw}, &out)
			return code, out
		}
		wrongCode, wrongBody := signIn("nobody_at_all", password)
		if wrongCode != http.StatusUnauthorized {
			t.Fatalf("a wrong name: %d", wrongCode)
		}
		kelvin := []string{"\u212Aate", "\u212AATE", "kate" + string(make([]byte, 40)), "Kate" + "                                        "}
		for _, name := range kelvin {
			if code, body := signIn(name, password); code != wrongCode || body != wrongBody {
				t.Fatalf("sign-in as %q with the right password: %d %+v, want a wrong name's %d %+v", name, code, body, wrongCode, wrongBody)
			}
		}
		for range 10 {
			if code, _ := signIn("kate", "a wrong guess"); code != http.StatusUnauthorized {
				t.Fatalf("a wrong guess: %d", code)
			}
		}
		for _, name := range []string{"kate", "KATE", "Kate"} {
			if code, _ := signIn(name, password); code != http.StatusTooManyRequests {
				t.Fatalf("%q with the right password after 10 failures: %d, want 429", name, code)
			}
		}
		for _, name := range kelvin {
			if code, body := signIn(name, password); code != wrongCode || body != wrongBody {
				t.Fatalf("%q with the right password after 10 failures: %d %+v, want a wrong name's %d %+v", name, code, body, wrongCode, wrongBody)
			}
		}
	})
}
