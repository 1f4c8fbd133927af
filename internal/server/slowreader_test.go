package server_test

import (
	"errors"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// dialNonReader opens a WebSocket whose socket has a small receive buffer,
// so that a client that does not read stops the server's writes soon
// instead of letting the kernel buffer megabytes on loopback.
func dialNonReader(t *testing.T, s *testserver.Server) *websocket.Conn {
	t.Helper()
	nd := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return errors.Join(err, serr)
	}}
	d := websocket.Dialer{NetDialContext: nd.DialContext, HandshakeTimeout: 10 * time.Second}
	ws, _, err := d.Dial(s.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// TestSpectatorThatNeverReadsIsDropped: a spectator of a 19x19 game that
// never reads is dropped with 1013 once its queue would pass the bound in
// bytes, and its queue never held more than the bound; the players are not
// slowed: every move of theirs is answered.
func TestSpectatorThatNeverReadsIsDropped(t *testing.T) {
	t.Parallel()
	const bound = 48 << 10
	s := testserver.Start(t, func(c *server.Config) {
		c.Hub.SendQueueBytes = bound
		c.Hub.SocketSendBuffer = 4096
		// The blocked write waits for the test to read, below.
		c.Hub.WriteWait = time.Minute
	})
	a := s.Hello(t, "ana", "")
	a.Send(map[string]any{"type": "room.create", "game": "go", "variant": "19", "opponent": "human"})
	room := a.Wait("room.joined", nil).Room
	b := s.Hello(t, "bia", "")
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	b.Wait("room.joined", nil)
	st := a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })

	spec := dialNonReader(t, s)
	for _, m := range []string{`{"type":"hello","name":"eve"}`, `{"type":"room.join","room":"` + room + `","as":"spectator"}`} {
		if err := spec.WriteMessage(websocket.TextMessage, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	a.State(room, func(m testserver.Msg) bool { return m.Spectators == 1 })

	players := map[int]*testserver.Client{0: a, 1: b}
	rng := rand.New(rand.NewPCG(18, 3))
	dropped := func() bool {
		return strings.Contains(string(get(t, s.MetricsURL).body), "tabuleiro_slow_clients_dropped_total 1")
	}
	moves := 0
	for ; moves < 600 && !dropped(); moves++ {
		seat := *st.Turn
		var legal []string
		for _, m := range st.Legal {
			if m != "pass" {
				legal = append(legal, m)
			}
		}
		seq := st.Seq
		players[seat].Send(map[string]any{"type": "room.move", "room": room, "move": legal[rng.IntN(len(legal))]})
		st = a.State(room, func(m testserver.Msg) bool { return m.Seq > seq && m.LastMove != nil })
	}
	if !dropped() {
		t.Fatalf("a spectator that never read was not dropped after %d moves", moves)
	}
	if peak := s.Hub.SendQueuePeak(); peak > bound || peak < bound/2 {
		t.Fatalf("the queues held at most %d bytes; want at most the bound %d (and near it: the spectator filled its own)", peak, bound)
	}
	// What the spectator can still read ends with the close code.
	_ = spec.SetReadDeadline(time.Now().Add(30 * time.Second))
	frames := 0
	var err error
	for err == nil {
		_, _, err = spec.ReadMessage()
		frames++
	}
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater {
		t.Fatalf("the slow spectator's connection ended with %v after %d frames, want close 1013", err, frames)
	}
	// The players go on.
	seq := st.Seq
	players[*st.Turn].Send(map[string]any{"type": "room.move", "room": room, "move": "pass"})
	a.State(room, func(m testserver.Msg) bool { return m.Seq > seq })
	t.Logf("dropped after %d moves; peak queue %d of %d bytes; %d frames read after", moves, s.Hub.SendQueuePeak(), bound, frames)
}
