package server_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// waitNoRooms waits until the server runs no room (a room's goroutine has
// stopped), failing after eventually's deadline.
func waitNoRooms(t *testing.T, s *testserver.Server) {
	t.Helper()
	eventually(t, "the server runs no room", func() bool { return s.Rooms.Len() == 0 })
}

// TestClaimOverWebSocket: b's connection drops; a sees when it may claim
// the win, a claim before that is refused with the seconds left, and after
// the grace period (60 s by default, on the server's injected time) the
// claim ends the game for everyone.
func TestClaimOverWebSocket(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	a, b, sp, room, _ := morrisRoom(t, s)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	b.Close()
	gone := a.State(room, func(m testserver.Msg) bool { return !m.Players[1].Connected })
	p := gone.Players[1]
	if p.GoneSince != now.Now().UnixMilli() || p.ClaimableAt != now.Now().Add(60*time.Second).UnixMilli() {
		t.Fatalf("gone player %+v: want goneSince now and claimableAt 60 s later", p)
	}
	a.Send(map[string]any{"type": "room.claim", "room": room, "id": "early"})
	if e := a.WaitError("bad_request"); string(e.ID) != `"early"` || !strings.Contains(e.Message, "in 60 s") {
		t.Fatalf("early claim answered %s", e.Raw)
	}
	sp.Send(map[string]any{"type": "room.claim", "room": room})
	sp.WaitError("not_a_player")
	now.Advance(60 * time.Second)
	a.Send(map[string]any{"type": "room.claim", "room": room})
	for _, c := range []*testserver.Client{a, sp} {
		fin := c.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
		if fin.Result == nil || fin.Result.Reason != "abandoned" || fin.Result.Winner == nil || *fin.Result.Winner != 0 {
			t.Fatalf("after the claim: %s", fin.Raw)
		}
	}
	// b comes back to a finished game.
	b2 := s.Hello(t, "", b.Token)
	var rooms []string
	if err := json.Unmarshal(b2.Log()[0].Rooms, &rooms); err != nil || slices.Contains(rooms, room) {
		t.Fatalf("the claimed room is still among b's unfinished rooms: %v", rooms)
	}
}

// TestAbandonedRoomIsAdjournedAndComesBack: both players and the spectator
// leave a game without a clock; after Grace*AdjournFactor the room stops
// (its snapshot stays, unfinished); the players come back with their
// tokens and the game goes on from where it was.
func TestAbandonedRoomIsAdjournedAndComesBack(t *testing.T) {
	t.Parallel()
	st := memstore.New()
	s := testserver.Start(t, func(c *server.Config) {
		c.Store, c.Grace, c.AdjournFactor = st, 10*time.Millisecond, 2
	})
	a, b, sp, room, _ := morrisRoom(t, s)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	before := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	for _, c := range []*testserver.Client{a, b, sp} {
		c.Close()
	}
	waitNoRooms(t, s)
	saved, err := st.LoadRoom(context.Background(), room)
	if err != nil || saved.Finished || saved.Seq != before.Seq {
		t.Fatalf("the adjourned room in the store: seq %d finished %v (%v)", saved.Seq, saved.Finished, err)
	}
	b2 := s.Hello(t, "", b.Token)
	back := b2.State(room, nil)
	if moves, _ := movesOf(t, back); back.Status != "playing" || back.Turn == nil || *back.Turn != 1 ||
		!slices.Equal(moves, []protocol.LastMove{{Seat: 0, Move: "b2"}}) {
		t.Fatalf("back from adjournment: %s", back.Raw)
	}
	b2.Send(map[string]any{"type": "room.move", "room": room, "move": "a1"})
	a2 := s.Hello(t, "", a.Token)
	a2.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a1" })
}

// TestAbandonedClockRoomEndsOnTime: with a clock nobody adjourns the room:
// when both players are gone after their first moves the seat to move
// loses on time, the result is saved and the empty finished room closes.
func TestAbandonedClockRoomEndsOnTime(t *testing.T) {
	t.Parallel()
	st := memstore.New()
	s := testserver.Start(t, func(c *server.Config) {
		c.Store, c.Grace, c.AdjournFactor = st, time.Millisecond, 1
	})
	a, b, room, _ := clockedMorris(t, s, map[string]any{"base": 1})
	firstMorrisMoves(t, a, b, room)
	a.Close()
	b.Close()
	waitNoRooms(t, s)
	saved, err := st.LoadRoom(context.Background(), room)
	if err != nil || !saved.Finished {
		t.Fatalf("the room in the store: finished %v (%v)", saved.Finished, err)
	}
	c := s.Hello(t, "late", "")
	c.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	fin := c.State(room, nil)
	if fin.Result == nil || fin.Result.Reason != "timeout" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("result %s", fin.Raw)
	}
}
