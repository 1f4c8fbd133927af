package server_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// TestCrowdArrivingIsPresence: spectators of the default protocol (what a
// browser speaks) join a go game one after another. The members already
// there get no room.state and no room.patch for them, only room.presence
// frames: one at once, then at most one a second of the joining. Their
// counts end at the crowd's size, patch client or not; the seq does not
// move; and after the crowd a move brings full and patch clients the same
// state.
func TestCrowdArrivingIsPresence(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := helloPatch(t, s, "ana") // seat 0, patches
	b := s.Hello(t, "bia", "")   // seat 1, full states
	room := humanRoom(a, b, "go", "19")
	st := b.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Players[0].Connected })
	fa := &follower{t: t, c: a, room: room}
	fa.until(st.Seq)
	before := len(b.Log())

	const crowd = 60
	start := time.Now()
	var joined []*testserver.Client
	for i := range crowd {
		c := s.Hello(t, "crowd", "")
		c.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
		m := c.State(room, nil)
		if m.Spectators != i+1 || m.Seq != st.Seq {
			t.Fatalf("spectator %d joined a state with %d spectators at seq %d, want %d at %d", i+1, m.Spectators, m.Seq, i+1, st.Seq)
		}
		joined = append(joined, c)
	}
	took := time.Since(start)
	// The count converges on every member, by room.presence.
	for _, c := range []*testserver.Client{a, b, joined[0]} {
		c.Wait(protocol.TypeRoomPresence, func(m testserver.Msg) bool { return m.Room == room && m.Spectators == crowd })
	}
	// The lobby's summary counts them too.
	listed := func() int {
		var api struct {
			Rooms []protocol.RoomSummary `json:"rooms"`
		}
		s.GetJSON(t, "/api/rooms", &api)
		for _, r := range api.Rooms {
			if r.ID == room {
				return r.Spectators
			}
		}
		return -1
	}
	for deadline := time.Now().Add(testserver.Timeout); listed() != crowd; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("/api/rooms lists %d spectators, want %d", listed(), crowd)
		}
	}
	limit := 2 + int(took/time.Second)
	count := func(c *testserver.Client, from int) (states, presences int) {
		for _, m := range c.Log()[from:] {
			switch m.Type {
			case "room.state", protocol.TypeRoomPatch:
				states++
			case protocol.TypeRoomPresence:
				presences++
				if len(m.Players) != 2 || !m.Players[0].Connected || !m.Players[1].Connected {
					t.Errorf("presence %s: want both seats connected", m.Raw)
				}
			}
		}
		return states, presences
	}
	for name, c := range map[string]*testserver.Client{"patch player": a, "full player": b} {
		from := 0
		if c == b {
			from = before
		}
		states, presences := count(c, from)
		if c == a {
			states -= len(fa.fulls) + len(fa.patches) // what it held before the crowd
		}
		if states != 0 || presences < 1 || presences > limit {
			t.Errorf("%s got %d states and %d room.presence frames for %d spectators joining in %v; want 0 and 1..%d",
				name, states, presences, crowd, took, limit)
		}
	}

	// A move: the full client's state and the patch client's agree, with
	// the crowd counted.
	a.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	moved := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	if moved.Seq != st.Seq+1 || moved.Spectators != crowd {
		t.Fatalf("after the move: seq %d, %d spectators; want %d, %d", moved.Seq, moved.Spectators, st.Seq+1, crowd)
	}
	fa.until(moved.Seq)
	var full map[string]any
	if err := json.Unmarshal(moved.Raw, &full); err != nil {
		t.Fatal(err)
	}
	if got, want := without(fa.state, "legal", "moves", "chat"), without(full, "legal", "moves", "chat"); !equalJSON(got, want) {
		t.Fatalf("patch player holds\n%v\nthe full state is\n%v", got, want)
	}

	// Half the crowd leaves: presence again, no state.
	for _, c := range joined[:crowd/2] {
		c.Close()
	}
	b.Wait(protocol.TypeRoomPresence, func(m testserver.Msg) bool { return m.Room == room && m.Spectators == crowd-crowd/2 })
}

// TestLobbyWatcherIsNotCounted: a room joined "as":"watcher" (the lobby's
// live boards) sends the watcher the state and its changes, but counts no
// spectator and connects no seat; an unknown "as" is refused.
func TestLobbyWatcherIsNotCounted(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := s.Hello(t, "ana", "")
	b := s.Hello(t, "bia", "")
	room := humanRoom(a, b, "go", "9")
	st := a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Players[1].Connected })

	w := s.Hello(t, "lobby", "")
	w.Send(map[string]any{"type": "room.join", "room": room, "as": "watcher"})
	if j := w.Wait("room.joined", nil); j.Role != "watcher" || j.Seat != nil {
		t.Fatalf("watcher joined as %q seat %v", j.Role, j.Seat)
	}
	if m := w.State(room, nil); m.Spectators != 0 {
		t.Fatalf("the watcher's state counts %d spectators", m.Spectators)
	}
	a.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	moved := w.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	if moved.Spectators != 0 {
		t.Fatalf("after a move the room counts %d spectators with only a watcher in", moved.Spectators)
	}
	for _, m := range a.Log() {
		if m.Type == protocol.TypeRoomPresence {
			t.Fatalf("a watcher's arrival sent the players %s", m.Raw)
		}
	}
	w.Send(map[string]any{"type": "room.join", "room": room, "as": "ghost"})
	if e := w.WaitError("bad_request"); e.Message == "" {
		t.Fatal("no message with the refusal")
	}
}

// equalJSON compares two decoded JSON values by their encodings.
func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
