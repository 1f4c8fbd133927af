// Package testserver starts the real service (the same wiring as cmd/lobby)
// on a random port for integration tests, and gives them a small WebSocket
// client: dial, send, wait for a message of a type with a predicate, with
// timeouts so that a failing test never hangs.
package testserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// Timeout is how long a client waits for a message by default.
var Timeout = 20 * time.Second

// Server is a running service.
type Server struct {
	*server.Server
	HTTP  *httptest.Server
	URL   string // http://127.0.0.1:port
	WSURL string // ws://127.0.0.1:port/ws
	// MetricsURL is the metrics listener's /metrics (a listener of its
	// own, as cmd/lobby's -metrics-addr).
	MetricsURL string
	metrics    *httptest.Server
	Store      store.Store
	t          testing.TB
	once       sync.Once
	answers    answers // the Browsers' answers (browser.go)
}

// Start starts the service with the memory store (unless cfg sets one) and
// stops it when the test ends. edit may change the configuration. The
// per-connection rate limit is raised for tests that play fast.
func Start(t testing.TB, edit ...func(*server.Config)) *Server {
	t.Helper()
	cfg := server.Config{Catalog: server.Catalog(), Store: memstore.New(), Bots: 2,
		Log: zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))}
	// Tests play far faster than people: the rate limit test sets its own.
	cfg.Hub.Rate, cfg.Hub.Burst = 5000, 10000
	// Passwords are hashed with argon2id at a test's cost, not OWASP's
	// 19 MiB: the accounts tests sign in dozens of times.
	cfg.Accounts.Hash = players.HashParams{Memory: 64, Time: 1, Threads: 1}
	// and chat as a barrier: the chat limits' tests set their own.
	cfg.Chat = rooms.ChatLimits{PlayerLines: 1e9, PlayerBurst: 1e9, PlayerBytes: 1e12, PlayerBytesBurst: 1e12,
		RoomLines: 1e9, RoomBurst: 1e9, RoomBytes: 1e12, RoomBytesBurst: 1e12}
	for _, e := range edit {
		e(&cfg)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The HTTP server and listener cmd/lobby runs: timeouts, header and
	// connection limits.
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer()
	hs.Listener = srv.Listen(hs.Listener)
	hs.Start()
	ms := httptest.NewServer(srv.MetricsHandler())
	s := &Server{Server: srv, HTTP: hs, URL: hs.URL, WSURL: "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws",
		MetricsURL: ms.URL + "/metrics", metrics: ms, Store: cfg.Store, t: t}
	t.Cleanup(s.Stop)
	return s
}

// Stop shuts the service down (as on SIGTERM) and closes the listener.
func (s *Server) Stop() {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.HTTP.Listener.Close()
		if err := s.Server.Shutdown(ctx); err != nil {
			s.t.Errorf("shutdown: %v", err)
		}
		s.HTTP.CloseClientConnections()
		s.HTTP.Close()
		s.metrics.Close()
		_ = s.Store.Close()
	})
}

// Msg is any server message: the common fields, and the raw bytes.
type Msg struct {
	Type       string                `json:"type"`
	ID         json.RawMessage       `json:"id"`
	Room       string                `json:"room"`
	Code       string                `json:"code"`
	Message    string                `json:"message"`
	Seq        int64                 `json:"seq"`
	Status     string                `json:"status"`
	Turn       *int                  `json:"turn"`
	Legal      []string              `json:"legal"`
	LegalBy    map[string][]string   `json:"legalBySeat"`
	Board      json.RawMessage       `json:"board"`
	Score      json.RawMessage       `json:"score"`
	Spectators int                   `json:"spectators"`
	Players    []protocol.Player     `json:"players"`
	LastMove   *protocol.LastMove    `json:"lastMove"`
	Moves      []protocol.LastMove   `json:"moves"`
	Result     *protocol.Result      `json:"result"`
	AbortAt    *int64                `json:"abortAt"`
	Abortable  bool                  `json:"abortable"`
	DrawOffer  *int                  `json:"drawOffer"`
	Takeback   *protocol.TakebackAsk `json:"takeback"`
	Role       string                `json:"role"`
	Seat       *int                  `json:"seat"`
	Token      string                `json:"token"`
	Player     players.Player        `json:"player"`
	Rooms      json.RawMessage       `json:"rooms"`
	Queues     []protocol.Queue      `json:"queues"`
	Text       string                `json:"text"`
	From       string                `json:"from"`
	Next       string                `json:"next"`
	// Rated and RatingChanges are a rated room's (docs/protocol.md).
	Rated         bool                    `json:"rated"`
	RatingChanges []protocol.RatingChange `json:"ratingChanges"`
	Raw           []byte                  `json:"-"`
	// Derived marks a room.state the client made itself, as the web
	// client does, from the last state it held and a room.presence (or
	// room.patch then room.presence): the server sent no such frame. It
	// reaches Wait and State, never Log.
	Derived bool `json:"-"`
}

// Client is a test WebSocket client.
type Client struct {
	t      testing.TB
	Conn   *websocket.Conn
	in     chan Msg
	done   chan struct{}
	mu     sync.Mutex
	closeE error
	// Log holds every message received so far, in order (read it after
	// the messages of interest were waited for).
	logMu sync.Mutex
	log   []Msg
	// held is the state the client holds of each room (read's goroutine
	// only): the last room.state with the patches and presences since.
	held   map[string]*held
	Player players.Player
	Token  string
}

// Dial connects without saying hello.
func (s *Server) Dial(t testing.TB, header http.Header) (*Client, error) {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(s.WSURL, header)
	if err != nil {
		return nil, err
	}
	c := &Client{t: t, Conn: ws, in: make(chan Msg, 100000), done: make(chan struct{})}
	go c.read()
	t.Cleanup(func() { c.Close() })
	return c, nil
}

// Hello connects and says hello with name (and token, when not empty).
func (s *Server) Hello(t testing.TB, name, token string) *Client {
	t.Helper()
	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.Send(map[string]any{"type": "hello", "name": name, "token": token})
	w := c.Wait("welcome", nil)
	c.Player, c.Token = w.Player, w.Token
	return c
}

func (c *Client) read() {
	defer close(c.done)
	for {
		_, data, err := c.Conn.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.closeE = err
			c.mu.Unlock()
			return
		}
		var m Msg
		if err := json.Unmarshal(data, &m); err != nil {
			c.t.Errorf("server sent bad JSON %q: %v", data, err)
			continue
		}
		m.Raw = data
		c.logMu.Lock()
		c.log = append(c.log, m)
		c.logMu.Unlock()
		c.in <- m
		if d, ok := c.hold(m); ok {
			c.in <- d
		}
	}
}

// hold keeps the state of m's room as a client holds it, and returns the
// room.state a room.presence makes of it. It keeps the frames and decodes
// them only for a presence, so that the reader keeps up with the server.
func (c *Client) hold(m Msg) (Msg, bool) {
	if c.held == nil {
		c.held = map[string]*held{}
	}
	switch m.Type {
	case protocol.TypeRoomState:
		c.held[m.Room] = &held{state: m.Raw}
	case protocol.TypeRoomPatch:
		if h := c.held[m.Room]; h != nil {
			h.patches = append(h.patches, m.Raw)
		}
	case protocol.TypeRoomPresence:
		h := c.held[m.Room]
		if h == nil {
			return Msg{}, false
		}
		st := map[string]any{}
		if json.Unmarshal(h.state, &st) != nil {
			return Msg{}, false
		}
		delete(st, "moves")
		delete(st, "chat")
		for _, p := range h.patches {
			if protocol.ApplyPatch(st, p) != nil {
				delete(c.held, m.Room) // out of step: wait for a full state
				return Msg{}, false
			}
		}
		var p protocol.RoomPresence
		if json.Unmarshal(m.Raw, &p) != nil {
			return Msg{}, false
		}
		ApplyPresence(st, p)
		raw, err := json.Marshal(st)
		if err != nil {
			return Msg{}, false
		}
		var d Msg
		if json.Unmarshal(raw, &d) != nil {
			return Msg{}, false
		}
		c.held[m.Room] = &held{state: raw}
		d.Raw, d.Derived = raw, true
		return d, true
	}
	return Msg{}, false
}

// ApplyPresence writes a room.presence into a room.state decoded as
// generic JSON, as a client does: the spectator count and each listed
// player's connected, goneSince and claimableAt (the last two removed when
// zero). Seats the state does not have are passed over.
func ApplyPresence(st map[string]any, p protocol.RoomPresence) {
	st["spectators"] = float64(p.Spectators)
	players, _ := st["players"].([]any)
	for _, h := range p.Players {
		if h.Seat < 0 || h.Seat >= len(players) {
			continue
		}
		pl, ok := players[h.Seat].(map[string]any)
		if !ok {
			continue
		}
		pl["connected"] = h.Connected
		delete(pl, "goneSince")
		delete(pl, "claimableAt")
		if h.GoneSince != 0 {
			pl["goneSince"] = float64(h.GoneSince)
		}
		if h.ClaimableAt != 0 {
			pl["claimableAt"] = float64(h.ClaimableAt)
		}
	}
}

// held is a room's last room.state and the room.patch frames since.
type held struct {
	state   []byte
	patches [][]byte
}

// Log returns the messages received so far.
func (c *Client) Log() []Msg {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	return append([]Msg(nil), c.log...)
}

// Send writes v as JSON (a []byte or string is sent as is).
func (c *Client) Send(v any) {
	c.t.Helper()
	var data []byte
	switch x := v.(type) {
	case []byte:
		data = x
	case string:
		data = []byte(x)
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			c.t.Fatal(err)
		}
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(Timeout))
	if err := c.Conn.WriteMessage(websocket.TextMessage, data); err != nil {
		c.t.Fatalf("send %s: %v", data, err)
	}
}

// TryWait waits for a message of type typ (any type when empty) for which
// pred (optional) holds, skipping others; false on timeout or close.
func (c *Client) TryWait(typ string, pred func(Msg) bool, timeout time.Duration) (Msg, bool) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case m := <-c.in:
			if (typ == "" || m.Type == typ) && (pred == nil || pred(m)) {
				return m, true
			}
		case <-c.done:
			// drain what was read before the close
			for {
				select {
				case m := <-c.in:
					if (typ == "" || m.Type == typ) && (pred == nil || pred(m)) {
						return m, true
					}
				default:
					return Msg{}, false
				}
			}
		case <-timer.C:
			return Msg{}, false
		}
	}
}

// Wait is TryWait that fails the test on timeout.
func (c *Client) Wait(typ string, pred func(Msg) bool) Msg {
	c.t.Helper()
	m, ok := c.TryWait(typ, pred, Timeout)
	if !ok {
		c.t.Fatalf("no %q message came (closed: %v)", typ, c.CloseErr())
	}
	return m
}

// WaitError waits for an error with the given code.
func (c *Client) WaitError(code string) Msg {
	c.t.Helper()
	return c.Wait("error", func(m Msg) bool { return m.Code == code })
}

// State waits for a room.state of room for which pred holds.
func (c *Client) State(room string, pred func(Msg) bool) Msg {
	c.t.Helper()
	return c.Wait("room.state", func(m Msg) bool { return m.Room == room && (pred == nil || pred(m)) })
}

// StateEver is State over every room.state received so far as well, even
// those an earlier wait skipped past: for the first state of a room whose
// id came in a later message (a rematch's room may send its state before
// the old room's match.found arrives; docs/protocol.md allows either order).
func (c *Client) StateEver(room string, pred func(Msg) bool) Msg {
	c.t.Helper()
	for _, m := range c.Log() {
		if m.Type == "room.state" && m.Room == room && (pred == nil || pred(m)) {
			return m
		}
	}
	return c.State(room, pred)
}

// CloseErr is the error that ended the connection, nil while it is open.
func (c *Client) CloseErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeE
}

// WaitClosed waits for the connection to end and returns the close code
// the server sent (-1 when there was none).
func (c *Client) WaitClosed() int {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(Timeout):
		c.t.Fatal("connection did not close")
	}
	var ce *websocket.CloseError
	if errors.As(c.CloseErr(), &ce) {
		return ce.Code
	}
	return -1
}

// Closed reports whether the connection has ended.
func (c *Client) Closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// Close closes the connection and waits for the reader.
func (c *Client) Close() {
	_ = c.Conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.Conn.Close()
	<-c.done
}

// PostJSON posts v to path and decodes the answer into out; it returns the
// status code.
func (s *Server) PostJSON(t testing.TB, path string, v any, out any) int {
	t.Helper()
	b, _ := json.Marshal(v)
	resp, err := http.Post(s.URL+path, "application/json", bytes.NewReader(b))
	return jsonAnswer(t, path, resp, err, out)
}

// GetJSON gets path and decodes the answer into out; it returns the status
// code.
func (s *Server) GetJSON(t testing.TB, path string, out any) int {
	t.Helper()
	resp, err := http.Get(s.URL + path)
	return jsonAnswer(t, path, resp, err, out)
}

// jsonAnswer fails the test when the request for path failed (err), else
// decodes the answer into out (unless out is nil) and returns its status
// code.
func jsonAnswer(t testing.TB, path string, resp *http.Response, err error, out any) int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("decode %s answer: %v", path, err)
		}
	}
	return resp.StatusCode
}
