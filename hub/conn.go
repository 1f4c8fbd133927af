package hub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
)

// conn is one WebSocket connection: a reader goroutine, and a writer
// goroutine fed by a bounded queue that runs only while there is something
// to write.
//
// Memory per connection is what bounds how many a server holds (issues 8
// and 20): the queue's slots are allocated as frames wait, not up front;
// its rooms are in the hub's index (members.go), which holds nothing for a
// connection in none; the reader hands each message to a
// short-lived goroutine (handle), so the deep stack of decoding and
// dispatching is not kept by a reader that then waits for hours; and the
// writer is started when a frame, a ping or the close is due and returns
// when the queue is empty, so an idle connection holds one goroutine, not
// two, and no write buffer (gorilla's come from a pool).
type conn struct {
	h      *Hub
	ws     *websocket.Conn
	id     uint64
	remote string
	// client is the client's address (ClientAddr); addrKey what it is
	// counted under for MaxConnsPerAddr.
	client  netip.Addr
	addrKey string
	start   time.Time
	// helloTimer closes the connection if it has no player in time.
	helloTimer *time.Timer
	// readerDone is closed when the reader has exited: the writer waits
	// for it (a little) after its close frame, so the peer reads the close
	// code before the socket goes away.
	readerDone chan struct{}

	// session is the secret of the session cookie the upgrade carried
	// ("" without one), read by hello only.
	session string
	// playerID and ident are set once by hello, before the connection
	// talks to any room (the channel send to the room orders it);
	// sessionHash is the hash of the session that identified the player
	// ("" for a token or a new guest), for SignOut.
	playerID    string
	ident       players.Identity
	sessionHash string
	// account is set when the player is an account: at hello, or when
	// its guest became one (Hub.BecameAccount).
	account atomic.Bool
	// matchRated is set while the connection's quick match asks for a
	// rated game: an account that did not ask for a casual one.
	matchRated atomic.Bool
	// seek is the connection's quick-match request as the rated pairing
	// sees it (match.go); guarded by Hub.mu.
	seek ratings.Seeker
	// name is the player's display name: set by hello, changed by
	// player.rename on any of the player's connections, read by rooms.
	name atomic.Pointer[string]
	// patch: the client asked for room.patch frames in hello.
	patch bool
	// deflate: permessage-deflate was negotiated at the upgrade.
	deflate bool

	mu      sync.Mutex
	queue   frameQueue // at most Config.SendQueue frames, SendQueueBytes bytes
	greeted bool       // the client said hello: the hello deadline is met
	closed  bool
	// writing: a writer goroutine is running (claimWriter); from the
	// close on it is the last one, which closes the socket.
	writing bool
	// pingDue: the ping timer fired; the writer sends the ping.
	pingDue bool
	// pinger fires every Config.PingPeriod (pingTick).
	pinger      *time.Timer
	closeCode   int
	closeReason string
	// dropped: the connection closed and left the hub's membership index
	// (guarded by Hub.members.mu, not mu).
	dropped bool

	// reader-goroutine state: the messages' token bucket (Config.Rate,
	// Config.Burst) and the messages refused by it
	bucket     netlimit.Bucket
	violations int
}

func (c *conn) ConnID() uint64   { return c.id }
func (c *conn) PlayerID() string { return c.playerID }
func (c *conn) PlayerName() string {
	if p := c.name.Load(); p != nil {
		return *p
	}
	return ""
}
func (c *conn) setName(name string) { c.name.Store(&name) }
func (c *conn) WantsPatch() bool    { return c.patch }

// Account reports whether the connection's player is an account
// (rooms.AccountMember: who may sit in a rated game).
func (c *conn) Account() bool { return c.account.Load() }

// MatchRated reports whether the connection's quick match asks for a rated
// game (the several-nodes matchmaker carries it in the queue's entry).
func (c *conn) MatchRated() bool { return c.matchRated.Load() }

// Send queues f; a full queue drops the connection (never waits).
func (c *conn) Send(f *protocol.Frame) bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	if c.queue.push(f, c.h.cfg.SendQueue, c.h.cfg.SendQueueBytes) {
		held := c.queue.held
		start := c.claimWriter()
		c.mu.Unlock()
		c.h.notePeak(held)
		if start {
			c.h.workers.Go(c.writer)
		}
		return true
	}
	c.mu.Unlock()
	if c.h.cfg.Metrics != nil {
		c.h.cfg.Metrics.Dropped.Inc()
	}
	c.kill(protocol.CloseTryLater, "too slow: outgoing queue full")
	return false
}

// greet records that the client said hello, so that the hello deadline no
// longer applies.
func (c *conn) greet() {
	c.mu.Lock()
	c.greeted = true
	c.mu.Unlock()
	c.helloTimer.Stop()
}

// noHello closes a connection that has not said hello by the deadline.
func (c *conn) noHello() {
	c.mu.Lock()
	greeted := c.greeted
	c.mu.Unlock()
	if greeted {
		return
	}
	if c.h.cfg.Metrics != nil {
		c.h.cfg.Metrics.Refused.WithLabelValues("no_hello").Inc()
	}
	c.kill(protocol.ClosePolicy, fmt.Sprintf("no hello within %v", c.h.cfg.HelloTimeout))
}

// kill closes the connection with a close code: the writer sends the close
// frame and closes the socket.
func (c *conn) kill(code int, reason string) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.closeCode, c.closeReason = code, reason
	start := c.claimWriter()
	c.mu.Unlock()
	if start {
		c.h.workers.Go(c.writer)
	}
}

// claimWriter reports whether the caller is to start the writer (go
// c.writer()): none is running, and from now on one is. c.mu is held.
// It keeps the writers of a connection to one at a time.
func (c *conn) claimWriter() bool {
	if c.writing {
		return false
	}
	c.writing = true
	return true
}

// pingTick is the ping timer's: it has the writer send a ping, and sets the
// timer for the next.
func (c *conn) pingTick() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.pingDue = true
	start := c.claimWriter()
	c.pinger.Reset(c.h.cfg.PingPeriod)
	c.mu.Unlock()
	if start {
		c.h.workers.Go(c.writer)
	}
}

// writer writes what is due: a ping, the queued frames, and once the
// connection is closed the close frame, after which it closes the socket.
// It is started by claimWriter's caller and returns as soon as nothing is
// due, so a connection that is not being written to holds no goroutine for
// it (a writer parked on a channel kept a 4 KiB stack, and gorilla's write
// buffer comes from a pool only while a message is written).
func (c *conn) writer() {
	for {
		c.mu.Lock()
		closed, ping := c.closed, c.pingDue
		c.pingDue = false
		if !closed && !ping && c.queue.len() == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if closed {
			c.closeSocket()
			return
		}
		if ping {
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.h.cfg.WriteWait)); err != nil {
				c.kill(websocket.CloseAbnormalClosure, "ping failed")
				continue
			}
		}
		if err := c.flush(); err != nil {
			c.kill(websocket.CloseAbnormalClosure, "write failed")
		}
	}
}

// closeSocket is the last writer's: it sends what was queued and the close
// frame (but to a connection that failed), waits a little for the peer's
// answer, and closes the socket.
func (c *conn) closeSocket() {
	defer c.h.wg.Done()
	defer c.ws.Close()
	c.mu.Lock()
	code, reason := c.closeCode, c.closeReason
	c.pinger.Stop()
	c.mu.Unlock()
	if code == websocket.CloseAbnormalClosure {
		return
	}
	// What was queued before the close goes first (the rate_limited
	// answers before a 1008, say), unless the client is dropped for being
	// too slow to take it.
	if code != protocol.CloseTryLater {
		c.drain()
	}
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason),
		time.Now().Add(c.h.cfg.WriteWait))
	t := time.NewTimer(closeGrace)
	select {
	case <-c.readerDone:
	case <-t.C:
	}
	t.Stop()
}

// flush writes the queued frames in order until the queue is empty or the
// connection is closing (the writer then closes it).
func (c *conn) flush() error {
	var sent *protocol.Frame
	for {
		f := c.next(sent, false)
		if f == nil {
			return nil
		}
		_ = c.ws.SetWriteDeadline(time.Now().Add(c.h.cfg.WriteWait))
		if err := c.write(f); err != nil {
			return err
		}
		sent = f
	}
}

// next releases the bytes of the frame just written, if any, and pops the
// next one (nil when none, or when the connection is closed and draining
// is false), in one critical section.
func (c *conn) next(sent *protocol.Frame, draining bool) *protocol.Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sent != nil {
		c.queue.written(sent)
	}
	if c.closed && !draining {
		return nil
	}
	return c.queue.pop()
}

// drain writes what is queued, on a closing connection; it stops at the
// first failure.
func (c *conn) drain() {
	var sent *protocol.Frame
	for {
		f := c.next(sent, true)
		if f == nil {
			return
		}
		_ = c.ws.SetWriteDeadline(time.Now().Add(c.h.cfg.WriteWait))
		if c.write(f) != nil {
			return
		}
		sent = f
	}
}

// write writes one frame: the bytes as they are on a connection without
// compression (framing a small message in place costs less than preparing
// it, and most frames go to a room of two), the prepared message, deflated
// once for every receiver, on one with permessage-deflate.
func (c *conn) write(f *protocol.Frame) error {
	if c.deflate {
		if pm, ok := f.Prepared(prepareMessage).(*websocket.PreparedMessage); ok {
			return c.ws.WritePreparedMessage(pm)
		}
	}
	return c.ws.WriteMessage(websocket.TextMessage, f.Data)
}

// prepareMessage is the hub's Frame.Prepared: the frame as a prepared
// WebSocket message, which deflates it once for every connection that
// writes it with permessage-deflate (nil if it cannot be made).
func prepareMessage(data []byte) any {
	// NewPreparedMessage only fails when compressing for a key it is
	// asked for at once, which it is not here.
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, data)
	if err != nil {
		return nil
	}
	return pm
}

// allow takes a token from the connection's bucket for one message.
func (c *conn) allow(now time.Time) bool {
	return c.bucket.Take(now, netlimit.PerSecond(c.h.cfg.Rate, float64(c.h.cfg.Burst)), 1)
}

func (c *conn) reader() {
	h := c.h
	defer c.cleanup()
	c.ws.SetReadLimit(h.cfg.ReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(h.cfg.PongWait))
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(h.cfg.PongWait))
	})
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			switch {
			case err == websocket.ErrReadLimit:
				h.countErr(protocol.CodeTooLarge)
				c.kill(protocol.CloseTooLarge, "frame too large")
			case websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway):
				c.kill(websocket.CloseNormalClosure, "")
			default:
				c.kill(websocket.CloseAbnormalClosure, "")
			}
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(h.cfg.PongWait))
		if c.isClosed() {
			continue // closing: wait for the peer's close frame
		}
		if !c.allow(time.Now()) {
			c.violations++
			if c.violations > h.cfg.MaxViolations {
				h.log.Info("flooding client dropped", zap.Uint64("conn", c.id), zap.String("player", c.playerID))
				c.kill(protocol.ClosePolicy, "too many messages")
				continue
			}
			c.errorTo(nil, "", protocol.Errorf(protocol.CodeRateLimited, "slow down: at most %g messages a second", h.cfg.Rate))
			continue
		}
		c.handle(data)
	}
}

// handle dispatches one message on a worker goroutine (workers.go) and
// waits for it: messages are still handled one at a time and in order, but
// the stack that decoding, the store and the rooms grow (8 KiB and more)
// stays with the few workers instead of with the reader, whose wait for
// the next frame needs 4 KiB. At 20,000 idle connections that is 80 MB. It
// costs a hand-over to an idle worker (a goroutine start when none is idle)
// per message.
//
// A handler that panics (a bug: input never should) closes this
// connection with 1011 and leaves the server and its other connections
// running.
func (c *conn) handle(data []byte) {
	var wg sync.WaitGroup
	wg.Add(1)
	c.h.workers.Go(func() {
		defer wg.Done()
		defer func() {
			if p := recover(); p != nil {
				c.h.log.Error("message handler panicked", zap.Uint64("conn", c.id), zap.Any("panic", p),
					zap.Stack("stack"))
				c.kill(websocket.CloseInternalServerErr, "internal error")
			}
		}()
		c.h.dispatch(c, data)
	})
	wg.Wait()
}

func (c *conn) errorTo(id json.RawMessage, room string, e *protocol.Error) {
	c.h.countErr(e.Code)
	c.Send(protocol.ErrorFrame(id, room, e))
}

func (c *conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// closeGrace is how long the writer waits for the peer to answer its close
// frame before closing the socket.
const closeGrace = time.Second

func (c *conn) cleanup() {
	h := c.h
	defer close(c.readerDone)
	c.mu.Lock()
	c.closed = true
	start := false
	if c.closeCode == 0 {
		c.closeCode = websocket.CloseAbnormalClosure
		start = c.claimWriter()
	}
	code, reason := c.closeCode, c.closeReason
	c.mu.Unlock()
	if start {
		c.h.workers.Go(c.writer) // closes the socket
	}
	for id, p := range h.members.drop(c) {
		if p.room != nil {
			p.room.Gone(c)
		} else {
			h.router.Gone(c, id)
		}
	}
	h.forget(c)
	c.helloTimer.Stop()
	h.release(c.addrKey)
	if h.cfg.Metrics != nil {
		h.cfg.Metrics.Connections.Dec()
	}
	h.log.Info("connection closed", zap.Uint64("conn", c.id), zap.String("player", c.playerID),
		zap.String("remote", c.remote), zap.Stringer("client", c.client), zap.Duration("duration", time.Since(c.start)),
		zap.Int("code", code), zap.String("reason", reason))
	h.wg.Done()
}

// offersDeflate reports whether the upgrade request offers
// permessage-deflate, which the upgrader accepts when compression is on
// (gorilla/websocket's own rule: the extension's name, any parameters).
func offersDeflate(h http.Header) bool {
	for _, v := range h.Values("Sec-Websocket-Extensions") {
		for _, ext := range strings.Split(v, ",") {
			name, _, _ := strings.Cut(ext, ";")
			if strings.EqualFold(strings.TrimSpace(name), "permessage-deflate") {
				return true
			}
		}
	}
	return false
}
