package netlimit

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Refusal reasons, as Listener and the hub report them.
const (
	// RefusedGlobal: the process holds its cap of connections.
	RefusedGlobal = "global"
	// RefusedPerAddr: the client's address holds its cap.
	RefusedPerAddr = "per_addr"
)

// Listener caps the connections it hands out: at most Max open at once,
// and at most PerAddr from one peer address (by Key) unless the peer is a
// trusted proxy of Resolver (whose clients are counted by the hub, from the
// proxy's header). A connection over a cap is answered a bare 503 and
// closed at once, before any request is read: it holds a file descriptor
// for microseconds, never long enough to run the process out of them. A
// handed-out connection counts until it is closed, hijacked or not (a
// WebSocket counts for its whole life).
type Listener struct {
	net.Listener
	// Max is the most connections open at once; 0 or less is no cap.
	Max int
	// PerAddr caps the connections of one peer address; 0 or less is none.
	PerAddr int
	// Resolver says which peers are trusted proxies (exempt from PerAddr).
	Resolver *Resolver
	// OnRefuse, when set, is called with the reason of each refusal
	// (RefusedGlobal, RefusedPerAddr).
	OnRefuse func(reason string)

	open atomic.Int64
	once sync.Once
	peer *Counter
}

// Open returns how many connections the listener has handed out that are
// not closed yet.
func (l *Listener) Open() int { return int(l.open.Load()) }

// Accept waits for the next connection within the caps; the ones over a
// cap are refused on the way.
func (l *Listener) Accept() (net.Conn, error) {
	l.once.Do(func() { l.peer = NewCounter(l.PerAddr) })
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.Max > 0 && l.open.Load() >= int64(l.Max) {
			l.refuse(c, RefusedGlobal)
			continue
		}
		key := ""
		if a := PeerAddr(c.RemoteAddr().String()); l.PerAddr > 0 && !l.Resolver.Trusted(a) {
			key = Key(a)
			if !l.peer.Acquire(key) {
				l.refuse(c, RefusedPerAddr)
				continue
			}
		}
		l.open.Add(1)
		return &counted{Conn: c, release: func() {
			l.open.Add(-1)
			if key != "" {
				l.peer.Release(key)
			}
		}}, nil
	}
}

// refusal is what a refused connection reads: an HTTP answer it can show,
// whatever it came for (a WebSocket handshake is an HTTP request too).
var refusal = []byte("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 21\r\n\r\ntoo many connections\n")

func (l *Listener) refuse(c net.Conn, reason string) {
	_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = c.Write(refusal) // a fresh socket's send buffer takes it at once
	_ = c.Close()
	if l.OnRefuse != nil {
		l.OnRefuse(reason)
	}
}

// counted is a handed-out connection: closing it gives its place back.
type counted struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *counted) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// SetWriteBuffer sets the socket's send buffer (SO_SNDBUF) when the
// connection is a TCP one.
func (c *counted) SetWriteBuffer(bytes int) error {
	if t, ok := c.Conn.(interface{ SetWriteBuffer(int) error }); ok {
		return t.SetWriteBuffer(bytes)
	}
	return nil
}
