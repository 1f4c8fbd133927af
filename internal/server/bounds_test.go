package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// dialWS opens a WebSocket with the given headers and returns it, or the
// HTTP status of the refusal (and its Retry-After).
func dialWS(t *testing.T, s *testserver.Server, header http.Header) (ws *websocket.Conn, status int, retryAfter string) {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(s.WSURL, header)
	if err == nil {
		t.Cleanup(func() { ws.Close() })
		return ws, http.StatusSwitchingProtocols, ""
	}
	if resp == nil {
		t.Fatalf("dial: %v", err)
	}
	resp.Body.Close()
	return nil, resp.StatusCode, resp.Header.Get("Retry-After")
}

// eventually waits for cond, failing the test after 20 seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// getStatus asks path on a connection of its own.
func getStatus(t *testing.T, s *testserver.Server, path string) int {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 20 * time.Second}
	resp, err := c.Get(s.URL + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestWebSocketsPerAddressAreCapped: one address may hold MaxConnsPerAddr
// WebSockets; the next is refused 429 with Retry-After, and a place frees up
// when one closes.
func TestWebSocketsPerAddressAreCapped(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.HTTP.MaxConnsPerAddr = 4 })
	var open []*websocket.Conn
	for i := range 4 {
		ws, status, _ := dialWS(t, s, nil)
		if ws == nil {
			t.Fatalf("connection %d refused with %d", i+1, status)
		}
		open = append(open, ws)
	}
	// The fifth is refused by the listener (TCP connections of the peer)
	// or the hub (WebSockets of the client address), both with a
	// Retry-After.
	if ws, status, retry := dialWS(t, s, nil); ws != nil || (status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable) || retry == "" {
		t.Fatalf("a fifth connection from one address: %d, Retry-After %q; want refused", status, retry)
	}
	open[0].Close()
	eventually(t, "the closed connection's place freed", func() bool { return s.Hub.Conns() == 3 })
	if ws, status, _ := dialWS(t, s, nil); ws == nil {
		t.Fatalf("refused (%d) after one closed", status)
	}
}

// TestClientAddressFromTrustedProxyOnly: behind a trusted proxy, the
// WebSockets are counted by the address in X-Forwarded-For; from a peer
// that is not trusted, that header is ignored and the peer is counted.
func TestClientAddressFromTrustedProxyOnly(t *testing.T) {
	t.Parallel()
	from := func(addr string) http.Header { return http.Header{"X-Forwarded-For": {addr}} }
	t.Run("trusted", func(t *testing.T) {
		s := testserver.Start(t, func(c *server.Config) {
			c.HTTP.MaxConnsPerAddr = 2
			c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		})
		for range 2 {
			if ws, status, _ := dialWS(t, s, from("198.51.100.1")); ws == nil {
				t.Fatalf("refused with %d under the cap", status)
			}
		}
		if ws, status, _ := dialWS(t, s, from("198.51.100.1")); ws != nil || status != http.StatusTooManyRequests {
			t.Fatalf("third WebSocket of one client behind the proxy: %d, want 429", status)
		}
		for _, other := range []http.Header{from("198.51.100.2"), {"X-Real-Ip": {"198.51.100.3"}}} {
			if ws, status, _ := dialWS(t, s, other); ws == nil {
				t.Fatalf("another client behind the proxy (%v) refused with %d", other, status)
			}
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		s := testserver.Start(t, func(c *server.Config) { c.HTTP.MaxConnsPerAddr = 2 })
		for i := range 2 {
			if ws, status, _ := dialWS(t, s, from(fmt.Sprintf("198.51.100.%d", i+1))); ws == nil {
				t.Fatalf("refused with %d under the cap", status)
			}
		}
		if ws, _, _ := dialWS(t, s, from("198.51.100.9")); ws != nil {
			t.Fatal("a header of an untrusted peer let it past the cap")
		}
	})
}

// TestHealthAnswersWhenWebSocketsHoldTheirShare: with a cap of 20
// connections, WebSockets may hold 10; the eleventh is refused 503 (busy)
// while /healthz and /readyz still answer, each on a connection of its own.
func TestHealthAnswersWhenWebSocketsHoldTheirShare(t *testing.T) {
	t.Parallel()
	const cap = 20
	s := testserver.Start(t, func(c *server.Config) { c.HTTP.MaxConns = cap })
	share := server.WebSocketShare(cap)
	if share != 10 {
		t.Fatalf("WebSocketShare(%d) = %d, want 10", cap, share)
	}
	for i := range share {
		if ws, status, _ := dialWS(t, s, nil); ws == nil {
			t.Fatalf("WebSocket %d refused with %d", i+1, status)
		}
	}
	ws, resp, err := websocket.DefaultDialer.Dial(s.WSURL, nil)
	if err == nil {
		ws.Close()
		t.Fatalf("WebSocket %d accepted past the share of %d", share+1, share)
	}
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || body.Error.Code != "busy" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("past the share: %d %q, Retry-After %q; want 503 busy", resp.StatusCode, body.Error.Code, resp.Header.Get("Retry-After"))
	}
	for range 3 {
		for _, p := range []string{"/healthz", "/readyz"} {
			if got := getStatus(t, s, p); got != http.StatusOK {
				t.Fatalf("%s with WebSockets at their cap: %d", p, got)
			}
		}
	}
}

// TestConnectionWithoutHelloIsClosed: a connection that says no hello
// within the deadline is closed with 1008, whatever else it sends; one that
// said hello stays.
func TestConnectionWithoutHelloIsClosed(t *testing.T) {
	t.Parallel()
	// Long enough for the greeted client's hello to come in time on a busy
	// machine (the race detector, tests side by side).
	s := testserver.Start(t, func(c *server.Config) { c.Hub.HelloTimeout = 2 * time.Second })
	greeted := s.Hello(t, "ana", "")
	silent, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	chatty, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				if chatty.Conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"lobby.watch"}`)) != nil {
					return
				}
			}
		}
	})
	for name, c := range map[string]*testserver.Client{"silent": silent, "chatty": chatty} {
		if code := c.WaitClosed(); code != websocket.ClosePolicyViolation {
			t.Errorf("%s connection without hello closed with %d, want 1008", name, code)
		}
	}
	close(stop)
	wg.Wait()
	if greeted.Closed() {
		t.Fatal("a connection that said hello was closed at the hello deadline")
	}
	greeted.Send(map[string]any{"type": "lobby.watch", "id": 1})
	greeted.Wait("lobby", nil)
}

// TestTrickledBodyIsCutOff: a request body sent a byte at a time is cut off
// by the read timeout long before it is whole, and the server answers
// others meanwhile.
func TestTrickledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.HTTP.ReadTimeout = 300 * time.Millisecond })
	const size = 100000
	c, err := net.Dial("tcp", s.HTTP.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/bot/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			answered <- -1 // closed without an answer
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	sent := 0
	status := 0
trickle:
	for ; sent < size; sent++ {
		select {
		case status = <-answered:
			break trickle
		case <-time.After(10 * time.Millisecond):
		}
		if _, err := c.Write([]byte{' '}); err != nil {
			status = <-answered
			break
		}
		if sent == 5 {
			if got := getStatus(t, s, "/healthz"); got != http.StatusOK {
				t.Fatalf("/healthz while a body trickles: %d", got)
			}
		}
	}
	if sent >= size {
		t.Fatal("the whole trickled body was read")
	}
	if status != http.StatusRequestTimeout && status != -1 {
		t.Fatalf("a trickled body was answered %d, want 408 or a closed connection", status)
	}
	t.Logf("cut off after %d of %d bytes, answered %d", sent, size, status)
}

// TestBotEndpointPerClientAndDroppedRequests: a client may have
// BotAPIPerClient requests in flight; more are refused 429 with
// Retry-After. A request whose client gives up leaves the bot queue, and
// stateless requests queue in their own class, behind live rooms' bots.
func TestBotEndpointPerClientAndDroppedRequests(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.Bots = 1
		c.BotAPIPerClient = 1
		c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	// The only worker is held by a live turn.
	release := make(chan struct{})
	held := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	hold := func(engine.State, int, *rand.Rand, time.Time) (string, error) {
		close(held)
		<-release
		return "x", nil
	}
	st, err := server.Catalog().New("morris", "3", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Pool.TrySubmit(botpool.Job{Bot: hold, State: st, Timeout: time.Hour, Done: func(botpool.Result) {}}); err != nil {
		t.Fatal(err)
	}
	<-held

	body := []byte(`{"game":"morris","variant":"3","level":"dificil"}`)
	post := func(ctx context.Context, client string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/api/bot/move", bytes.NewReader(body))
		req.Header.Set("X-Forwarded-For", client)
		return http.DefaultClient.Do(req)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan error, 1)
	go func() {
		resp, err := post(ctx, "198.51.100.1")
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("answered %s", resp.Status)
		}
		first <- err
	}()
	eventually(t, "the first request queued as stateless", func() bool { return s.Pool.Queued(botpool.Stateless) == 1 })
	if n := s.Pool.Queued(botpool.Live); n != 0 {
		t.Fatalf("%d stateless requests queued among the live turns", n)
	}
	resp, err := post(context.Background(), "198.51.100.1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), "rate_limited") {
		t.Fatalf("a second request of the same client: %s %s, Retry-After %q; want 429 rate_limited", resp.Status, b, resp.Header.Get("Retry-After"))
	}
	// Another client is not refused: its request queues too.
	ctx2, cancel2 := context.WithCancel(context.Background())
	second := make(chan error, 1)
	go func() {
		resp, err := post(ctx2, "198.51.100.2")
		if err == nil {
			resp.Body.Close()
		}
		second <- err
	}()
	eventually(t, "another client's request queued", func() bool { return s.Pool.Queued(botpool.Stateless) == 2 })
	// The clients give up: their jobs leave the queue without running.
	cancel()
	cancel2()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("the first request: %v", err)
	}
	<-second
	eventually(t, "the abandoned requests left the queue", func() bool { return s.Pool.Queued(botpool.Stateless) == 0 })
	once.Do(func() { close(release) })
	resp, err = post(context.Background(), "198.51.100.1")
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Move string }
	_ = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || out.Move == "" {
		t.Fatalf("after the worker freed up: %s %+v", resp.Status, out)
	}
}
