package hub

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// recRouter is a Router that records what dispatch hands it.
type recRouter struct {
	mu     sync.Mutex
	routed []string // "type room conn"
	gone   []string // "room conn"
	answer *protocol.Error
}

func (r *recRouter) Route(_ context.Context, c rooms.Member, m *protocol.ClientMessage) *protocol.Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routed = append(r.routed, m.Type+" "+m.Room+" "+c.PlayerID())
	return r.answer
}

func (r *recRouter) Gone(c rooms.Member, room string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gone = append(r.gone, room+" "+c.PlayerID())
}

// socketless is a connection of h with no socket: what the hub sends it
// stays in its queue.
func socketless(h *Hub, player string) *conn {
	c := &conn{h: h, id: 7, playerID: player, readerDone: make(chan struct{}), helloTimer: time.NewTimer(time.Hour),
		start: time.Now()}
	c.greeted = true
	c.writing = true // as if its writer were busy: nothing starts one
	return c
}

// sent pops what the hub queued for c.
func (c *conn) sent(t *testing.T) []protocol.ErrorMessage {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []protocol.ErrorMessage
	for f := c.queue.pop(); f != nil; f = c.queue.pop() {
		var m protocol.ErrorMessage
		if err := json.Unmarshal(f.Data, &m); err != nil {
			t.Fatalf("frame %s: %v", f.Data, err)
		}
		out = append(out, m)
	}
	return out
}

// TestDispatchThroughRouter: dispatch checks a room message and hands it
// to the Router, or answers the error itself and hands nothing; the
// Router's error is the client's answer. No socket, no room, no node.
func TestDispatchThroughRouter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		msg    string
		answer *protocol.Error
		routed string // "" : not handed to the router
		code   protocol.Code
	}{
		{"move", `{"type":"room.move","room":"r1","move":"a1"}`, nil, "room.move r1 ana", ""},
		{"join", `{"type":"room.join","room":"r1","as":"spectator"}`, nil, "room.join r1 ana", ""},
		{"chat", `{"type":"room.chat","room":"r2","text":"oi"}`, nil, "room.chat r2 ana", ""},
		{"router's error", `{"type":"room.resign","room":"r3","id":4}`, protocol.Errorf(protocol.CodeUnknownRoom, "unknown room"), "room.resign r3 ana", protocol.CodeUnknownRoom},
		{"no room", `{"type":"room.move","move":"a1"}`, nil, "", protocol.CodeBadRequest},
		{"no move", `{"type":"room.move","room":"r1"}`, nil, "", protocol.CodeBadRequest},
		{"bad role", `{"type":"room.join","room":"r1","as":"king"}`, nil, "", protocol.CodeBadRequest},
		{"no text", `{"type":"room.chat","room":"r1"}`, nil, "", protocol.CodeBadRequest},
		{"unknown type", `{"type":"room.fly","room":"r1"}`, nil, "", protocol.CodeBadRequest},
		{"not JSON", `{"type":`, nil, "", protocol.CodeBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := testHub(t, Config{})
			rr := &recRouter{answer: tc.answer}
			h.router = rr
			c := socketless(h, "ana")
			h.dispatch(c, []byte(tc.msg))
			var want []string
			if tc.routed != "" {
				want = []string{tc.routed}
			}
			if !slices.Equal(rr.routed, want) {
				t.Errorf("routed %q, want %q", rr.routed, want)
			}
			got := c.sent(t)
			switch {
			case tc.code == "" && len(got) != 0:
				t.Errorf("answered %+v, want nothing", got)
			case tc.code != "" && (len(got) != 1 || got[0].Code != tc.code):
				t.Errorf("answered %+v, want one %s", got, tc.code)
			}
		})
	}
}

// TestClosedConnTellsRouter: a connection that closes tells the Router of
// each room it was in on another node, and of no other.
func TestClosedConnTellsRouter(t *testing.T) {
	h := testHub(t, Config{})
	rr := &recRouter{}
	h.router = rr
	c := socketless(h, "bia")
	c.JoinedElsewhere("far", rooms.RoleSpectator)
	c.JoinedElsewhere("away", rooms.RolePlayer)
	h.wg.Add(1)
	c.cleanup()
	slices.Sort(rr.gone)
	if want := []string{"away bia", "far bia"}; !slices.Equal(rr.gone, want) {
		t.Fatalf("gone %q, want %q", rr.gone, want)
	}
}

// TestDispatchBeforeHello: before hello a known message is refused with
// "say hello first" and an unknown one as unknown; neither is routed.
func TestDispatchBeforeHello(t *testing.T) {
	for msg, want := range map[string]string{
		`{"type":"room.move","room":"r1","move":"a1"}`: "say hello first",
		`{"type":"player.rename","name":"ana"}`:        "say hello first",
		`{"type":"room.fly","room":"r1"}`:              `unknown message type "room.fly"`,
	} {
		h := testHub(t, Config{})
		rr := &recRouter{}
		h.router = rr
		c := socketless(h, "")
		h.dispatch(c, []byte(msg))
		if len(rr.routed) != 0 {
			t.Errorf("%s: routed %q before hello", msg, rr.routed)
		}
		c.mu.Lock()
		f := c.queue.pop()
		c.mu.Unlock()
		var got protocol.ErrorMessage
		if f == nil || json.Unmarshal(f.Data, &got) != nil || got.Code != protocol.CodeBadRequest || got.Message != want {
			t.Errorf("%s: answered %+v, want bad_request %q", msg, got, want)
		}
	}
}

// nopRouter takes every message and does nothing.
type nopRouter struct{}

func (nopRouter) Route(context.Context, rooms.Member, *protocol.ClientMessage) *protocol.Error {
	return nil
}
func (nopRouter) Gone(rooms.Member, string) {}

// BenchmarkDispatchMove: the hub's work for a move, from the frame's bytes
// to the Router.
func BenchmarkDispatchMove(b *testing.B) {
	h := New(Config{})
	defer func() {
		close(h.quit)
		h.lwg.Wait()
	}()
	h.router = nopRouter{}
	c := socketless(h, "ana")
	msg := []byte(`{"type":"room.move","room":"r1AbCdEfGh","move":"d4","id":17}`)
	b.ReportAllocs()
	for b.Loop() {
		h.dispatch(c, msg)
	}
}
