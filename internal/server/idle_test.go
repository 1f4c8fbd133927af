package server_test

import (
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// Function names of a connection's goroutines, as the goroutine profile
// prints them.
const (
	readerFunc = "github.com/tabuleiro/tabuleiro/hub.(*conn).reader("
	writerFunc = "github.com/tabuleiro/tabuleiro/hub.(*conn).writer("
)

// goroutinesIn counts this process's goroutines with fn on their stack.
func goroutinesIn(fn string) int {
	n := 0
	for _, g := range strings.Split(goroutineDump(), "\n\n") {
		if strings.Contains(g, fn) {
			n++
		}
	}
	return n
}

// goroutineDump is the stack of every goroutine of this process.
func goroutineDump() string {
	var b strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
	return b.String()
}

// writersGone waits until no connection has a writer goroutine; it fails
// the test if one is still there after a generous wait (the writers of
// frames just read may not have returned yet: no timing is asserted).
func writersGone(t *testing.T, when string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := goroutinesIn(writerFunc)
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d connections still hold a writer goroutine, want 0", when, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestIdleConnectionHoldsOnlyItsReader: a connection that has nothing to
// be sent holds one goroutine, its reader; the writer runs while there is
// something to write and returns. Issue 20's memory per idle connection
// rests on it (a writer parked on a channel kept a 4 KiB stack each).
func TestIdleConnectionHoldsOnlyItsReader(t *testing.T) {
	s := testserver.Start(t)
	const n = 40
	cs := make([]*testserver.Client, n)
	for i := range cs {
		cs[i] = s.Hello(t, "idle", "")
	}
	if got := goroutinesIn(readerFunc); got < n {
		t.Fatalf("%d reader goroutines for %d connections", got, n)
	}
	writersGone(t, "after hello")

	// Each says something that is answered: its writer starts again,
	// writes the answer, and goes.
	for _, c := range cs {
		c.Send(map[string]any{"type": "no.such.type"})
	}
	for _, c := range cs {
		c.WaitError("bad_request")
	}
	writersGone(t, "after the answers")
	for i, c := range cs {
		if c.Closed() {
			t.Fatalf("connection %d closed", i)
		}
	}
}

// TestIdleConnectionIsPinged: the keep-alive does not need a writer that
// waits: the ping timer starts one, and an idle client gets its pings and
// stays connected.
func TestIdleConnectionIsPinged(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.Hub.PingPeriod = 20 * time.Millisecond
		c.Hub.PongWait = time.Minute
	})
	ws, _, err := websocket.DefaultDialer.Dial(s.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	pings := make(chan struct{}, 100)
	ws.SetPingHandler(func(data string) error {
		select {
		case pings <- struct{}{}:
		default:
		}
		return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	if err := ws.WriteJSON(map[string]any{"type": "hello", "name": "idle"}); err != nil {
		t.Fatal(err)
	}
	readErr := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				readErr <- err
				return
			}
		}
	}()
	for i := range 3 {
		select {
		case <-pings:
		case err := <-readErr:
			t.Fatalf("connection closed after %d pings: %v", i, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d pings, want 3", i)
		}
	}
}
