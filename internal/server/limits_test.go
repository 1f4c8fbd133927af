package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// TestPlayerRoomsCapAcrossConnections: a player holds at most
// Hub.MaxPlayerRooms unfinished rooms, all the player's connections
// together. Past it a create, a quick match, a rematch and a join as a
// player of another room are refused with a clear bad_request and change
// nothing; a burst of creates from five connections at once makes exactly
// the one room that fits once a game is finished; another player is not
// affected.
func TestPlayerRoomsCapAcrossConnections(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Hub.MaxPlayerRooms = 2 })
	first := s.Hello(t, "ana", "")
	conns := []*testserver.Client{first}
	for range 4 {
		conns = append(conns, s.Hello(t, "ana", first.Token))
	}
	create := func(c *testserver.Client, id string) {
		c.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "id": id})
	}
	created := func(c *testserver.Client, id string) string {
		t.Helper()
		create(c, id)
		m := c.Wait("", func(m testserver.Msg) bool { return string(m.ID) == `"`+id+`"` })
		if m.Type != "room.joined" {
			t.Fatalf("create %s: %s %s %q", id, m.Type, m.Code, m.Message)
		}
		return m.Room
	}
	refusedMsg := func(c *testserver.Client, id string) testserver.Msg {
		t.Helper()
		e := c.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"`+id+`"` })
		if e.Code != "bad_request" || !strings.Contains(e.Message, "unfinished games") {
			t.Fatalf("%s: %s %q, want bad_request about unfinished games", id, e.Code, e.Message)
		}
		return e
	}
	r1 := created(conns[0], "c1")
	created(conns[1], "c2") // another connection of the same player

	bia := s.Hello(t, "bia", "")
	other := created(bia, "b1")

	create(conns[2], "c3")
	refusedMsg(conns[2], "c3")
	conns[3].Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3", "id": "q"})
	refusedMsg(conns[3], "q")
	conns[3].Send(map[string]any{"type": "room.join", "room": other, "as": "player", "id": "j"})
	refusedMsg(conns[3], "j")
	// Held already: joined again, not refused; a spectator holds nothing.
	conns[3].Send(map[string]any{"type": "room.join", "room": r1, "as": "player", "id": "again"})
	conns[3].Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == `"again"` })
	conns[4].Send(map[string]any{"type": "room.join", "room": other, "as": "spectator", "id": "w"})
	conns[4].Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == `"w"` })

	ids, err := s.Store.PlayerRooms(t.Context(), first.Player.ID)
	if err != nil || len(ids) != 2 {
		t.Fatalf("ana's unfinished rooms after the refusals: %v %v, want 2", ids, err)
	}

	// A finished game frees its place: of five creates at once, one fits.
	conns[0].Send(map[string]any{"type": "room.resign", "room": r1, "id": "res"})
	conns[0].State(r1, func(m testserver.Msg) bool { return m.Status == "finished" })
	for i, c := range conns {
		create(c, fmt.Sprintf("p%d", i))
	}
	made := 0
	for i, c := range conns {
		id := fmt.Sprintf(`"p%d"`, i)
		m := c.Wait("", func(m testserver.Msg) bool {
			return string(m.ID) == id && (m.Type == "room.joined" || m.Type == "error")
		})
		if m.Type == "room.joined" {
			made++
		} else if m.Code != "bad_request" {
			t.Fatalf("create %s: %s %q", id, m.Code, m.Message)
		}
	}
	if made != 1 {
		t.Fatalf("rooms made by five creates at once with one place free: %d, want 1", made)
	}
	// bia is not affected by ana's cap.
	created(bia, "b2")
}
