package crashtest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// msg is a server message: the fields the tests read, and the raw bytes.
type msg = testserver.Msg

// event is what a client's reader hands its driver: a message, or the end
// of the connection (m nil).
type event struct {
	c     *client
	epoch int
	m     *msg
	err   error
}

// client is one person: a token that outlives its connections. Only its
// driver's goroutine touches it, apart from the reader goroutine of each
// connection, which only reads the socket and posts events.
type client struct {
	name      string
	spectator bool
	token     string
	playerID  string

	conn    *websocket.Conn
	epoch   int           // the server run its connection belongs to
	readerQ chan struct{} // closed when the connection's reader has exited

	welcome    []string // rooms of the last welcome
	welcomed   int      // epoch of the last welcome
	seat       int      // seat in the current room, -1 when none
	joinedRoom string   // the current room, once asked to join (or create) it
	joined     int      // epoch of the last room.joined for the current room
	stated     int      // epoch of the last room.state of the current room
	lastSeq    int64    // last seq of the current room on this connection
}

// dial opens a new connection for epoch and says hello with the client's
// token (none the first time). Its reader posts to in.
func (c *client) dial(url string, epoch int, in chan<- event) error {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial(url, nil)
	if err != nil {
		return fmt.Errorf("%s: dial: %w", c.name, err)
	}
	c.conn, c.epoch, c.readerQ, c.lastSeq = conn, epoch, make(chan struct{}), 0
	go read(c, conn, epoch, in, c.readerQ)
	return c.send(map[string]any{"type": "hello", "name": c.name, "token": c.token})
}

func read(c *client, conn *websocket.Conn, epoch int, in chan<- event, done chan struct{}) {
	defer close(done)
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			in <- event{c: c, epoch: epoch, err: err}
			return
		}
		m := &msg{Raw: data}
		if err := json.Unmarshal(data, m); err != nil {
			in <- event{c: c, epoch: epoch, err: fmt.Errorf("bad JSON from the server %q: %w", data, err)}
			_ = conn.Close()
			return
		}
		in <- event{c: c, epoch: epoch, m: m}
	}
}

// send writes one message. A write error means the server is gone; the
// reader reports it.
func (c *client) send(v any) error {
	if c.conn == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		_ = c.conn.Close()
	}
	return nil
}

func (c *client) close() {
	if c.conn != nil {
		_ = c.conn.Close()
	}
}
