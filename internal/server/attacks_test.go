package server_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
)

// behindProxy makes the test's loopback the trusted proxy, so that each
// Browser says which client address it is (X-Forwarded-For).
func behindProxy(c *server.Config) {
	c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
}

// browserAt is a new Browser at the client address addr.
func browserAt(t *testing.T, s *testserver.Server, addr string) *testserver.Browser {
	b := s.NewBrowser(t)
	b.Header.Set("X-Forwarded-For", addr)
	return b
}

// signInAs signs b in as name with password and returns the status and
// Retry-After.
func signInAs(b *testserver.Browser, name, password string) (int, string) {
	code, h := b.Do("POST", "/api/session", map[string]string{"name": name, "password": password}, nil)
	return code, h.Get("Retry-After")
}

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

// TestSessionsPerPlayerBounded: a sign-in past -sessions-per-player ends
// the least recently used session (its cookie 401, its WebSocket closed)
// and no other; the account never holds more.
func TestSessionsPerPlayerBounded(t *testing.T) {
	t.Parallel()
	if players.DefaultMaxSessions != 50 {
		t.Fatalf("the default cap is %d sessions, want 50", players.DefaultMaxSessions)
	}
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		now := fakeclock.New()
		const max = 3
		s := testserver.Start(t, edit, behindProxy, func(c *server.Config) { c.Now, c.Accounts.SessionsPerPlayer = now.Now, max })
		first := browserAt(t, s, "198.51.100.1")
		if code, _ := first.Do("POST", "/api/account", map[string]string{"name": "ana", "password": "ana's password"}, nil); code != http.StatusCreated {
			t.Fatal("a new account")
		}
		ws := helloWithCookie(t, first)
		ws.Wait("welcome", nil)
		var later []*testserver.Browser
		for i := range max {
			now.Advance(time.Second) // each sign-in later than the last
			b := browserAt(t, s, fmt.Sprintf("198.51.100.%d", i+2))
			if code, _ := signInAs(b, "ana", "ana's password"); code != http.StatusOK {
				t.Fatalf("sign-in %d: %d", i+2, code)
			}
			later = append(later, b)
		}
		if code, _ := first.Do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
			t.Fatalf("the least recently used session past the cap: %d, want 401", code)
		}
		if code := ws.WaitClosed(); code != 1008 {
			t.Fatalf("its WebSocket closed with %d, want 1008", code)
		}
		for i, b := range later {
			if code, _ := b.Do("GET", "/api/me", nil, nil); code != http.StatusOK {
				t.Fatalf("session %d of the newest %d: %d", i+2, max, code)
			}
		}
		var export httpapi.Export
		if code, _ := later[0].Do("GET", "/api/account/export", nil, &export); code != http.StatusOK || len(export.Sessions) != max {
			t.Fatalf("export: %d, %d sessions, want %d", code, len(export.Sessions), max)
		}
	})
}

// TestSignInsAMinuteCounted: the sign-ins that succeed count too, 10 a
// minute to one account and 20 from one address; past them 429 with
// Retry-After, and the password is not even checked (a wrong one is
// answered 429 too, not 401). Wrong passwords are given back.
func TestSignInsAMinuteCounted(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit, behindProxy)
		for i, name := range []string{"ana", "bia", "caio", "duda"} {
			b := browserAt(t, s, fmt.Sprintf("198.51.100.%d", i+1))
			if code, _ := b.Do("POST", "/api/account", map[string]string{"name": name, "password": name + "'s password"}, nil); code != http.StatusCreated {
				t.Fatalf("account %s", name)
			}
		}
		// To one account, from many addresses: wrong passwords are given
		// back, 10 right ones pass, the 11th is refused unchecked.
		for i := range 5 {
			if code, _ := signInAs(browserAt(t, s, fmt.Sprintf("203.0.113.%d", i+1)), "ana", "wrong"); code != http.StatusUnauthorized {
				t.Fatalf("a wrong password: %d", code)
			}
		}
		for i := range players.DefaultSignInsPerAccount {
			if code, _ := signInAs(browserAt(t, s, fmt.Sprintf("203.0.113.%d", i+10)), "ana", "ana's password"); code != http.StatusOK {
				t.Fatalf("sign-in %d to one account: %d", i+1, code)
			}
		}
		for _, pw := range []string{"ana's password", "wrong"} {
			code, retry := signInAs(browserAt(t, s, "203.0.113.99"), "ana", pw)
			if n, err := strconv.Atoi(retry); code != http.StatusTooManyRequests || err != nil || n < 1 || n > 60 {
				t.Fatalf("sign-in past 10 a minute to one account (password %q): %d Retry-After %q, want 429 and 1 to 60 s", pw, code, retry)
			}
		}
		// From one address, to several accounts: 20 pass, the 21st not.
		from := browserAt(t, s, "192.0.2.7")
		n := 0
		for _, name := range []string{"bia", "caio"} {
			for range players.DefaultSignInsPerAddr / 2 {
				n++
				if code, _ := signInAs(from, name, name+"'s password"); code != http.StatusOK {
					t.Fatalf("sign-in %d from one address: %d", n, code)
				}
			}
		}
		if code, retry := signInAs(browserAt(t, s, "192.0.2.7"), "bia", "wrong"); code != http.StatusTooManyRequests || retry == "" {
			t.Fatalf("sign-in past 20 a minute from one address: %d Retry-After %q, want 429 unchecked", code, retry)
		}
		if code, _ := signInAs(browserAt(t, s, "192.0.2.8"), "duda", "duda's password"); code != http.StatusOK {
			t.Fatalf("another address, meanwhile: %d", code)
		}
	})
}

// TestSignInFloodCannotStarveOthers plays issue 33's weapon: 40 threads
// signing in to one account from one address, with its right password,
// on one hashing worker and a small queue. At least 95% of the others'
// sign-ins, from other addresses, succeed: with the limits a minute as
// they are, and with only the queue's share per address (the limits
// raised out of the way), which alone must keep the others served.
func TestSignInFloodCannotStarveOthers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		limits func(*server.AccountsConfig)
	}{
		{"limits a minute", func(*server.AccountsConfig) {}},
		{"queue share alone", func(a *server.AccountsConfig) { a.SignInsPerAddr, a.SignInsPerAccount = 1<<30, 1<<30 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testserver.Start(t, behindProxy, func(c *server.Config) {
				c.Accounts.HashWorkers, c.Accounts.HashQueue = 1, 4
				// Dearer than the tests' usual hash, so that the queue fills.
				c.Accounts.Hash = players.HashParams{Memory: 2048, Time: 1, Threads: 1}
				tc.limits(&c.Accounts)
			})
			const others = 20
			newAccount := func(name, addr string) {
				if code, _ := browserAt(t, s, addr).Do("POST", "/api/account", map[string]string{"name": name, "password": name + " password"}, nil); code != http.StatusCreated {
					t.Fatalf("account %s: %d", name, code)
				}
			}
			newAccount("flooded", "198.51.100.200")
			for i := range others {
				newAccount(fmt.Sprintf("other%d", i), fmt.Sprintf("198.51.100.%d", i+1))
			}
			stop := make(chan struct{})
			var flood sync.WaitGroup
			var floodOK, floodRefused atomic.Int64
			for range 40 {
				flood.Add(1)
				go func() {
					defer flood.Done()
					b := browserAt(t, s, "203.0.113.66")
					for {
						select {
						case <-stop:
							return
						default:
						}
						switch code, _ := signInAs(b, "flooded", "flooded password"); code {
						case http.StatusOK:
							floodOK.Add(1)
						case http.StatusTooManyRequests, http.StatusServiceUnavailable:
							floodRefused.Add(1)
						}
					}
				}()
			}
			for floodOK.Load()+floodRefused.Load() < 40 { // the flood is on
				time.Sleep(time.Millisecond)
			}
			attempts, ok := 0, 0
			codes := map[int]int{}
			for round := range 2 {
				for i := range others {
					b := browserAt(t, s, fmt.Sprintf("192.0.2.%d", i+1+round*others))
					code, _ := signInAs(b, fmt.Sprintf("other%d", i), fmt.Sprintf("other%d password", i))
					attempts++
					codes[code]++
					if code == http.StatusOK {
						ok++
					}
				}
			}
			close(stop)
			flood.Wait()
			t.Logf("others: %d of %d signed in %v; the flood: %d in, %d refused", ok, attempts, codes, floodOK.Load(), floodRefused.Load())
			if ok*100 < attempts*95 {
				t.Fatalf("the others signed in %d of %d times during the flood (%v), want at least 95%%", ok, attempts, codes)
			}
			if floodRefused.Load() == 0 {
				t.Fatal("the flood was never refused: it did not bite")
			}
		})
	}
}

// TestLookAlikeGuestNames plays issue 33's look-alike names: a guest who
// names itself like the account kate (another script's letters, full
// width, a combining mark, an invisible character), or with nothing
// visible, gets guest-NNNN as for kate itself, over HTTP and in its
// hello; player.rename to one is refused. Other names, Portuguese accents
// included, are kept. An account whose name looks like another's is
// refused.
func TestLookAlikeGuestNames(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit)
		if code, _ := s.NewBrowser(t).Do("POST", "/api/account", map[string]string{"name": "kate", "password": "kate's password"}, nil); code != http.StatusCreated {
			t.Fatal("the account kate")
		}
		for _, tc := range []struct {
			name, want string // want "" is guest-NNNN
		}{
			{"kate", ""}, {"KATE", ""},
			{"k\u0430te", ""},                          // Cyrillic a
			{"\uff4b\uff41\uff54\uff45", ""},           // full width
			{"kate\u0301", ""},                         // a combining acute
			{"ka\u200Bte", ""},                         // ZERO WIDTH SPACE
			{"ka\u3164te", ""},                         // HANGUL FILLER inside
			{"\u3164", ""}, {"\u3164\u3164\u3164", ""}, // HANGUL FILLER alone
			{"\u2800", ""}, {" \u2800 \u0301 ", ""}, // BRAILLE PATTERN BLANK, spaces, marks
			{"katia", "katia"}, {"João", "João"}, {"Conceição", "Conceição"}, {"Ana Lima", "Ana Lima"},
		} {
			var got me
			if code, _ := s.NewBrowser(t).Do("POST", "/api/guest", map[string]string{"name": tc.name}, &got); code != http.StatusCreated {
				t.Fatalf("POST /api/guest %q: %d", tc.name, code)
			}
			hello := s.Hello(t, tc.name, "")
			for how, name := range map[string]string{"POST /api/guest": got.Name, "hello": hello.Player.Name} {
				if tc.want == "" && !strings.HasPrefix(name, "guest-") || tc.want != "" && name != tc.want {
					t.Errorf("%s as %q: named %q, want %q (guest-NNNN when empty)", how, tc.name, name, tc.want)
				}
			}
			hello.Close()
		}
		g := s.Hello(t, "someone", "")
		for _, tc := range []struct{ name, code string }{
			{"k\u0430te", "name_taken"}, {"\uff4b\uff41\uff54\uff45", "name_taken"}, {"\u3164", "bad_request"}, {"\u2800", "bad_request"},
		} {
			g.Send(map[string]any{"type": "player.rename", "name": tc.name, "id": "r"})
			g.WaitError(tc.code)
		}
		g.Send(map[string]any{"type": "player.rename", "name": "João", "id": "ok"})
		g.Wait("player.renamed", nil)

		// Accounts: a name that looks like an account's is taken.
		for _, pair := range [][2]string{{"mia", "rnia"}, {"Ian", "lan"}, {"bob", "b0b"}} {
			if code, _ := s.NewBrowser(t).Do("POST", "/api/account", map[string]string{"name": pair[0], "password": "a long password"}, nil); code != http.StatusCreated {
				t.Fatalf("the account %s: %d", pair[0], code)
			}
			var refusal errorBody
			if code, _ := s.NewBrowser(t).Do("POST", "/api/account", map[string]string{"name": pair[1], "password": "a long password"}, &refusal); code != http.StatusConflict || refusal.Error.Code != "name_taken" || !strings.Contains(refusal.Error.Message, "looks like") {
				t.Fatalf("the account %s beside %s: %d %+v, want 409 name_taken, looks like", pair[1], pair[0], code, refusal)
			}
		}
	})
}
