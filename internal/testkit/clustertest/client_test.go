package clustertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// msg is a server message: the fields the tests read, and the raw bytes.
type msg = testserver.Msg

// client is one WebSocket connection. It never fails the test itself: the
// drivers run on their own goroutines and return errors.
type client struct {
	name  string
	token string
	conn  *websocket.Conn
	in    chan *msg
	done  chan struct{}

	mu  sync.Mutex
	log []*msg
}

var errClosed = errors.New("connection closed")

// dial connects to url and says hello (with token, when not empty).
func dial(url, name, token string) (*client, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial(url, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: dial %s: %w", name, url, err)
	}
	c := &client{name: name, conn: conn, in: make(chan *msg, 100000), done: make(chan struct{})}
	go c.read()
	if err := c.send(map[string]any{"type": "hello", "name": name, "token": token}); err != nil {
		c.close()
		return nil, err
	}
	w, err := c.wait(20*time.Second, func(m *msg) bool { return m.Type == "welcome" })
	if err != nil {
		c.close()
		return nil, fmt.Errorf("%s: hello: %w", name, err)
	}
	c.token = w.Token
	return c, nil
}

func (c *client) read() {
	defer close(c.done)
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		m := &msg{Raw: data}
		if json.Unmarshal(data, m) != nil {
			continue
		}
		c.mu.Lock()
		c.log = append(c.log, m)
		c.mu.Unlock()
		c.in <- m
	}
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		return fmt.Errorf("%s: send: %w", c.name, err)
	}
	return nil
}

// wait returns the next message for which pred holds.
func (c *client) wait(d time.Duration, pred func(*msg) bool) (*msg, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case m := <-c.in:
			if pred(m) {
				return m, nil
			}
		case <-c.done:
			for {
				select {
				case m := <-c.in:
					if pred(m) {
						return m, nil
					}
				default:
					return nil, errClosed
				}
			}
		case <-t.C:
			return nil, fmt.Errorf("%s: nothing after %v", c.name, d)
		}
	}
}

// messages returns what the client received so far.
func (c *client) messages() []*msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*msg(nil), c.log...)
}

// latest is the last room.state of room the client received.
func (c *client) latest(room string) *msg {
	var last *msg
	for _, m := range c.messages() {
		if m.Type == "room.state" && m.Room == room && (last == nil || m.Seq > last.Seq) {
			last = m
		}
	}
	return last
}

func (c *client) closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func (c *client) close() {
	_ = c.conn.Close()
	<-c.done
}
