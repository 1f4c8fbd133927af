package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// TestPlayerRoomsCapAcrossConnections: a player holds at most
// MaxPlayerRooms unfinished rooms, all the player's connections
// together. Past it a create, a quick match, a rematch and a join as a
// player of another room are refused with a clear bad_request and change
// nothing; a burst of creates from five connections at once makes exactly
// the one room that fits once a game is finished; another player is not
// affected.
func TestPlayerRoomsCapAcrossConnections(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.MaxPlayerRooms = 2 })
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

// TestRematchAndTorneioApplyTheCap: the rooms a rematch and a tournament
// make count against the cap on a player's unfinished rooms as a create's
// do (one place makes rooms for players). A rematch agreed while one of
// its players holds the cap is refused, saying who; a tournament's game
// whose entrant (a bot account) holds the cap waits, roomless, and is
// made once the bot has a place.
func TestRematchAndTorneioApplyTheCap(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.MaxPlayerRooms = 2 })
	ana, bia := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	g := humanRoom(ana, bia, "morris", "3")
	ana.State(g, func(m testserver.Msg) bool { return m.Status == "playing" })
	ana.Send(map[string]any{"type": "room.resign", "room": g})
	bia.State(g, func(m testserver.Msg) bool { return m.Status == "finished" })
	ana.Send(map[string]any{"type": "room.rematch", "room": g})
	bia.State(g, func(m testserver.Msg) bool { return len(m.Raw) > 0 && strings.Contains(string(m.Raw), `"rematch":[`) })
	for i := range 2 { // ana takes her two places meanwhile
		ana.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "id": fmt.Sprintf("w%d", i)})
		ana.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == fmt.Sprintf(`"w%d"`, i) })
	}
	bia.Send(map[string]any{"type": "room.rematch", "room": g, "id": "again"})
	e := bia.Wait("", func(m testserver.Msg) bool { return string(m.ID) == `"again"` })
	if e.Type != "error" || e.Code != "bad_request" || !strings.Contains(e.Message, "ana has 2 unfinished games") {
		t.Fatalf("a rematch with ana at the cap: %s, want bad_request naming ana", e.Raw)
	}
	if ids, _ := s.Store.PlayerRooms(t.Context(), ana.Player.ID); len(ids) != 2 {
		t.Fatalf("ana holds %d rooms after the refused rematch, want 2", len(ids))
	}

	// A bot at the cap: two challenges of cai's take its places.
	cai := s.Hello(t, "cai", "")
	bot, tok := s.RegisterBot(t, ana.Token, "robo")
	s.OpenStream(t, "/api/bot/stream/event", tok)
	var challenges []string
	for range 2 {
		var ch struct{ Room string }
		if code := s.Do(t, "POST", "/api/bots/"+bot+"/challenge", cai.Token, map[string]any{"game": "morris", "variant": "3"}, &ch); code != http.StatusCreated {
			t.Fatalf("challenge: %d", code)
		}
		challenges = append(challenges, ch.Room)
	}
	body := `{"game":"morris","entrants":[{"bot":"` + bot + `"},{"level":"facil"}],"partidas":[["3",1]]}`
	id := startTorneio(t, s, ana.Token, body)
	v := torneioUntil(t, s, id, "the tournament's games are started",
		func(v torneio.View) bool { return len(v.Games) > 0 && v.Games[0].Room != "" })
	// The view is published once each started game's room was asked for.
	for _, gm := range v.Games {
		if gm.Room == "" {
			continue
		}
		if _, err := s.Store.LoadRoom(t.Context(), gm.Room); err == nil {
			t.Fatalf("tournament game %d has a room though its bot holds the cap", gm.Index)
		}
	}
	if ids, _ := s.Store.PlayerRooms(t.Context(), bot); len(ids) != 2 {
		t.Fatalf("the bot holds %d rooms, want 2", len(ids))
	}
	cai.Send(map[string]any{"type": "room.join", "room": challenges[0], "as": "player"})
	cai.State(challenges[0], nil)
	cai.Send(map[string]any{"type": "room.resign", "room": challenges[0]})
	torneioUntil(t, s, id, "a tournament game gets its room once the bot has a place", func(v torneio.View) bool {
		for _, gm := range v.Games {
			if _, err := s.Store.LoadRoom(t.Context(), gm.Room); gm.Room != "" && err == nil {
				return true
			}
		}
		return false
	})
	if ids, _ := s.Store.PlayerRooms(t.Context(), bot); len(ids) > 2 {
		t.Fatalf("the bot holds %d rooms, want at most 2", len(ids))
	}
}
