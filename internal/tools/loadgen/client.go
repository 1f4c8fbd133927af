package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// View is a client's picture of one room, kept up to date from room.state
// and room.patch frames by the client's reader goroutine.
type View struct {
	Room     string
	Seq      int64
	Status   string
	Turn     int // -1 when no seat is to move
	LastMove protocol.LastMove
	HasMove  bool
	Next     string
	Finished bool
	legal    Moves // owned: reused from one frame to the next
}

// Legal is the legal moves the view last received (empty for none).
func (v *View) Legal() Moves { return v.legal }

// apply updates v from f; newMove reports that f carries a move v had not
// seen (its lastMove differs from the previous one: seats alternate, so a
// move never repeats the previous lastMove). ok is false for a patch whose
// base is not v's seq: the client must ask for the full state again.
func (v *View) apply(f *Frame) (newMove, ok bool) {
	switch f.Type {
	case protocol.TypeRoomState:
		legal := append(v.legal[:0], f.legal...)
		*v = View{Room: f.Room, Seq: f.Seq, Status: f.Status, Turn: -1, legal: legal, Next: f.Next,
			LastMove: v.LastMove, HasMove: v.HasMove}
	case protocol.TypeRoomPatch:
		base := f.Seq - 1
		if f.HasBase {
			base = f.Base
		}
		if base != v.Seq {
			return false, false
		}
		v.Seq = f.Seq
		if f.Status != "" {
			v.Status = f.Status
		}
		if f.legal != nil {
			v.legal = append(v.legal[:0], f.legal...)
		}
		if f.Next != "" {
			v.Next = f.Next
		}
	default:
		return false, true
	}
	if f.HasTurn {
		v.Turn = f.Turn
	}
	v.Finished = v.Status == "finished"
	if f.HasLastMove && (!v.HasMove || f.LastMove != v.LastMove) {
		v.LastMove, v.HasMove = f.LastMove, true
		return true, true
	}
	return false, true
}

// Handler is called by a client's reader goroutine for every frame, after
// the room view has been updated; view is nil for frames about no room.
// newMove says the frame carries a new move. f and its Legal are only
// valid during the call: the reader reuses them for the next frame.
type Handler func(c *Client, f *Frame, view *View, newMove bool, at time.Time)

// Client is one WebSocket connection speaking the public protocol.
type Client struct {
	ID     int
	ws     *websocket.Conn
	wmu    sync.Mutex
	wbuf   []byte // SendMove's message, under wmu
	inbox  chan *Frame
	done   chan struct{}
	err    error
	views  map[string]*View // owned by the reader goroutine
	handle atomic.Pointer[Handler]

	// Bytes counts the payload bytes received (after decompression);
	// Wire the bytes read from the socket; Frames the messages.
	Bytes, Wire, Frames atomic.Int64
	// Token and Player are set by Hello.
	Token  string
	Player string
	// State is free for the mode that drives the client.
	State any
}

// Dialer opens connections, spreading them over several loopback source
// addresses so that tens of thousands of connections do not run out of
// ephemeral ports.
type Dialer struct {
	// URL is one endpoint or several, comma-separated (see Config.Spread).
	URL string
	// Spread is Config.Spread.
	Spread  string
	Sources int // 127.0.0.1 .. 127.0.0.<Sources> (loopback targets only)
	// Compress offers permessage-deflate.
	Compress bool
	next     atomic.Uint64
}

// endpoint is the URL of connection id.
func (d *Dialer) endpoint(id int) string {
	urls := strings.Split(d.URL, ",")
	i := id
	if d.Spread == "room" {
		i = id / 3 // rooms and bots number room i's connections 3i, 3i+1, 3i+2
	}
	return strings.TrimSpace(urls[i%len(urls)])
}

// dialer is a websocket dialer for target. Its 4 KiB read buffer (as the
// Colyseus load client's) takes a player's 2.2 KB go 19x19 patch or a
// 2.8 KB full state in one read(2) instead of two.
func (d *Dialer) dialer(wire *atomic.Int64, target string) *websocket.Dialer {
	wd := &websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 512,
		EnableCompression: d.Compress}
	nd := &net.Dialer{Timeout: 30 * time.Second}
	if u, err := url.Parse(target); err == nil && d.Sources > 1 {
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() && ip.To4() != nil {
			n := d.next.Add(1) % uint64(d.Sources)
			nd.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+n))}
		}
	}
	wd.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := nd.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, n: wire}, nil
	}
	return wd
}

// countingConn counts the bytes read from the socket (frames as they
// crossed the wire, compressed or not).
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Dial connects a new client; its frames go to its inbox until SetHandler.
func (d *Dialer) Dial(ctx context.Context, id int) (*Client, error) {
	c := &Client{ID: id, inbox: make(chan *Frame, 64), done: make(chan struct{}), views: map[string]*View{}}
	target := d.endpoint(id)
	ws, _, err := d.dialer(&c.Wire, target).DialContext(ctx, target, nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", target, err)
	}
	c.ws = ws
	go c.read()
	return c, nil
}

// readBufs holds the buffers messages are read into: one is in use per
// client only while it handles a message, so that tens of thousands of idle
// connections hold none.
var readBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

func (c *Client) read() {
	defer close(c.done)
	var p parser
	f := new(Frame)
	for {
		_, r, err := c.ws.NextReader()
		if err != nil {
			c.err = err
			return
		}
		buf := readBufs.Get().(*[]byte)
		data, err := readAll(r, (*buf)[:0])
		at := time.Now()
		if err == nil {
			err = c.deliver(&p, f, data, at)
		}
		*buf = data[:0]
		readBufs.Put(buf)
		if err != nil {
			c.err = err
			c.ws.Close()
			return
		}
	}
}

// readAll appends what r has to b, growing it only when it is full.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, fmt.Errorf("read a message: %w", err)
		}
	}
}

// deliver decodes one message into f, updates the room's view and gives
// the frame to the handler, or a copy of it to the inbox.
func (c *Client) deliver(p *parser, f *Frame, data []byte, at time.Time) error {
	c.Bytes.Add(int64(len(data)))
	c.Frames.Add(1)
	if err := p.parse(f, data); err != nil {
		return err
	}
	var view *View
	newMove := false
	if f.Type == protocol.TypeRoomState || f.Type == protocol.TypeRoomPatch {
		view = c.views[f.Room]
		if view == nil {
			view = &View{Room: f.Room, Turn: -1}
			c.views[f.Room] = view
		}
		var ok bool
		if newMove, ok = view.apply(f); !ok {
			// A gap: ask for the whole state again, as a client must.
			*f = Frame{Type: "error", Room: f.Room, Code: "patch_gap", Message: "patch base is not the held seq", size: f.size}
			_ = c.Send(map[string]any{"type": protocol.TypeRoomJoin, "room": view.Room, "as": "spectator"})
		}
	}
	if h := c.handle.Load(); h != nil {
		(*h)(c, f, view, newMove, at)
		return nil
	}
	f.At = at
	select {
	case c.inbox <- f.clone():
	default: // nobody waits for it: the setup skips what it does not need
	}
	return nil
}

// SetHandler sends every later frame to h instead of the inbox.
func (c *Client) SetHandler(h Handler) { c.handle.Store(&h) }

// Send writes v as a JSON text frame.
func (c *Client) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.write(b)
}

// SendMove writes a room.move, or a room.resign when move is "": the
// message Send would write for it, without reflection.
func (c *Client) SendMove(room, move string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = appendMove(c.wbuf[:0], room, move)
	return c.write(c.wbuf)
}

// appendMove appends SendMove's message to b.
func appendMove(b []byte, room, move string) []byte {
	b = append(b, `{"type":"`...)
	if move == "" {
		b = append(b, protocol.TypeRoomResign...)
	} else {
		b = append(b, protocol.TypeRoomMove...)
	}
	b = engine.AppendJSONString(append(b, `","room":`...), room)
	if move != "" {
		b = engine.AppendJSONString(append(b, `,"move":`...), move)
	}
	return append(b, '}')
}

// write sends one text frame; the caller holds wmu.
func (c *Client) write(b []byte) error {
	_ = c.ws.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	return nil
}

// ServerError is an error frame that answered what a client waited for.
type ServerError struct {
	Code, Message string
}

func (e *ServerError) Error() string { return "error " + e.Code + ": " + e.Message }

// errClosed says the connection ended while waiting.
var errClosed = errors.New("connection closed")

// Wait returns the first inbox frame for which pred holds; an error frame
// that answers the same room (or no room) fails the wait.
func (c *Client) Wait(ctx context.Context, what string, pred func(*Frame) bool) (*Frame, error) {
	for {
		select {
		case f := <-c.inbox:
			if pred(f) {
				return f, nil
			}
			if f.Type == protocol.TypeError && f.Code != string(protocol.CodeRateLimited) {
				return nil, fmt.Errorf("waiting for %s: %w", what, &ServerError{Code: f.Code, Message: f.Message})
			}
		case <-c.done:
			return nil, fmt.Errorf("waiting for %s: %w: %v", what, errClosed, c.err)
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// Hello says hello (with the patch feature when patch) and waits for
// welcome.
func (c *Client) Hello(ctx context.Context, name, token string, patch bool) (*Frame, error) {
	m := map[string]any{"type": protocol.TypeHello, "name": name}
	if token != "" {
		m["token"] = token
	}
	if patch {
		m["features"] = []string{protocol.FeaturePatch}
	}
	if err := c.Send(m); err != nil {
		return nil, err
	}
	w, err := c.Wait(ctx, "welcome", func(f *Frame) bool { return f.Type == protocol.TypeWelcome })
	if err != nil {
		return nil, err
	}
	c.Token, c.Player = w.Token, w.PlayerID
	return w, nil
}

// Close closes the socket at once (no close handshake: a dropped client)
// and waits for the reader.
func (c *Client) Close() {
	_ = c.ws.Close()
	<-c.done
}

// Done is closed when the reader has stopped.
func (c *Client) Done() <-chan struct{} { return c.done }
