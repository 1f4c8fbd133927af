package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestQuickMatchPairsTwoPlayers: two players looking for the same game and
// variant are put in a new room; a lobby watcher sees the queue and the room.
func TestQuickMatchPairsTwoPlayers(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Hub.LobbyInterval = 10 * time.Millisecond })
	w := s.Hello(t, "watcher", "")
	w.Send(map[string]any{"type": "lobby.watch"})
	w.Wait("lobby", nil)
	a, b, x := s.Hello(t, "ana", ""), s.Hello(t, "bia", ""), s.Hello(t, "xavi", "")
	a.Send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"})
	a.Wait("match.queued", nil)
	x.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	x.Wait("match.queued", nil)
	w.Wait("lobby", func(m testserver.Msg) bool {
		return slices.ContainsFunc(m.Queues, func(q protocol.Queue) bool {
			return q.Game == "orbito" && q.Waiting == 1
		})
	})
	b.Send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"})
	fa, fb := a.Wait("match.found", nil), b.Wait("match.found", nil)
	if fa.Room != fb.Room || fa.Seat == nil || fb.Seat == nil || *fa.Seat == *fb.Seat {
		t.Fatalf("match.found %s / %s", fa.Raw, fb.Raw)
	}
	a.State(fa.Room, func(m testserver.Msg) bool {
		return m.Status == "playing" && m.Players[0].Connected && m.Players[1].Connected
	})
	w.Wait("lobby", func(m testserver.Msg) bool {
		var rooms []struct{ ID, Status string }
		_ = json.Unmarshal(m.Rooms, &rooms)
		return slices.ContainsFunc(rooms, func(r struct{ ID, Status string }) bool { return r.ID == fa.Room })
	})
	var api struct {
		Rooms []struct {
			ID      string `json:"id"`
			Game    string `json:"game"`
			Players []any  `json:"players"`
		} `json:"rooms"`
	}
	s.GetJSON(t, "/api/rooms", &api)
	if !slices.ContainsFunc(api.Rooms, func(r struct {
		ID      string `json:"id"`
		Game    string `json:"game"`
		Players []any  `json:"players"`
	}) bool {
		return r.ID == fa.Room && r.Game == "orbito" && len(r.Players) == 2
	}) {
		t.Fatalf("/api/rooms lacks %s: %+v", fa.Room, api)
	}
	x.Send(map[string]any{"type": "match.cancel"})
	x.Wait("match.queued", nil)
}

// TestChatResignRematch: chat reaches everyone cleaned but not escaped;
// after the game both players ask for a rematch and get a new room with the
// seats swapped.
func TestChatResignRematch(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	a.Send(map[string]any{"type": "room.chat", "room": room, "text": "  <b>olá</b>\u0007 "})
	for _, c := range []*testserver.Client{a, b, sp} {
		m := c.Wait("room.chat", nil)
		if m.Text != "<b>olá</b>" || m.From != "ana" {
			t.Fatalf("chat %s", m.Raw)
		}
	}
	b.Send(map[string]any{"type": "room.resign", "room": room})
	fin := sp.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if *fin.Result.Winner != 0 {
		t.Fatalf("result %s", fin.Raw)
	}
	a.Send(map[string]any{"type": "room.rematch", "room": room})
	sp.State(room, func(m testserver.Msg) bool { return m.Seq > fin.Seq })
	b.Send(map[string]any{"type": "room.rematch", "room": room})
	ma, mb := a.Wait("match.found", nil), b.Wait("match.found", nil)
	if ma.Room != mb.Room || *ma.Seat != 1 || *mb.Seat != 0 {
		t.Fatalf("rematch %s / %s", ma.Raw, mb.Raw)
	}
	next := sp.State(room, func(m testserver.Msg) bool { return m.Next != "" })
	if next.Next != ma.Room {
		t.Fatalf("old room points to %q, want %q", next.Next, ma.Room)
	}
	st := b.StateEver(ma.Room, func(m testserver.Msg) bool { return m.Status == "playing" })
	if st.Turn == nil || *st.Turn != 0 {
		t.Fatalf("new room %s", st.Raw)
	}
	b.Send(map[string]any{"type": "room.move", "room": ma.Room, "move": "b2"})
	a.State(ma.Room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "b2" })
}

// TestSameTokenSamePlayerTwoTabs: hello with the token is the same player;
// both tabs receive the room.
func TestSameTokenSamePlayerTwoTabs(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, _, room, st := morrisRoom(t, s)
	a2 := s.Hello(t, "", a.Token)
	if a2.Player.ID != a.Player.ID || a2.Player.Name != "ana" {
		t.Fatalf("token gave %+v, want %+v", a2.Player, a.Player)
	}
	var rooms []string
	w := a2.Log()[0]
	_ = json.Unmarshal(w.Rooms, &rooms)
	if !slices.Contains(rooms, room) {
		t.Fatalf("welcome rooms %v lack %s", rooms, room)
	}
	a2.State(room, nil) // seated again in its unfinished room
	a2.Send(map[string]any{"type": "room.move", "room": room, "move": "c3"})
	for _, c := range []*testserver.Client{a, b, a2} {
		c.State(room, func(m testserver.Msg) bool { return m.Seq > st.Seq && m.LastMove != nil && m.LastMove.Move == "c3" })
	}
	bad := s.Hello(t, "", "not-a-token")
	if bad.Player.ID == a.Player.ID || bad.Token == "" || bad.Token == "not-a-token" {
		t.Fatalf("unknown token gave %+v %q", bad.Player, bad.Token)
	}
}

// TestRestartRestoresRooms: a graceful shutdown closes sockets with 1012;
// a new server on the same store brings the room back from its snapshot
// when the player returns with its token, and the game continues.
func TestRestartRestoresRooms(t *testing.T) {
	t.Parallel()
	st := memstore.New()
	s1 := testserver.Start(t, func(c *server.Config) { c.Store = st })
	a, b, _, room, _ := morrisRoom(t, s1)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	before := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	s1.Stop()
	for _, c := range []*testserver.Client{a, b} {
		if code := c.WaitClosed(); code != websocket.CloseServiceRestart {
			t.Fatalf("closed with %d, want 1012", code)
		}
	}
	s2 := testserver.Start(t, func(c *server.Config) { c.Store = st })
	b2 := s2.Hello(t, "", b.Token)
	got := b2.State(room, nil)
	if got.Seq < before.Seq || string(got.Board) != string(before.Board) || got.Turn == nil || *got.Turn != 1 {
		t.Fatalf("restored %s\nwas %s", got.Raw, before.Raw)
	}
	b2.Send(map[string]any{"type": "room.move", "room": room, "move": "a1"})
	b2.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a1" })
	a2 := s2.Hello(t, "", a.Token)
	a2.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a1" })
}

// TestRoomClosesWhenEmpty: a finished room without members closes (and the
// leak check of TestMain sees its goroutine gone).
func TestRoomClosesWhenEmpty(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	a.Send(map[string]any{"type": "room.resign", "room": room})
	b.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	for _, c := range []*testserver.Client{a, b} {
		c.Send(map[string]any{"type": "room.leave", "room": room})
		c.Wait("room.left", nil)
	}
	if s.Rooms.Len() != 1 {
		t.Fatalf("room closed with a spectator in it")
	}
	sp.Close()
	waitNoRooms(t, s)
}

// TestHTTPEndpoints: health, readiness, metrics, games.
func TestHTTPEndpoints(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		if code := s.GetJSON(t, p, nil); code != 200 {
			t.Errorf("%s: %d", p, code)
		}
	}
	a := s.Hello(t, "m", "")
	a.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
	room := a.Wait("room.joined", nil).Room
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "up"})
	a.WaitError("illegal_move")
	if code := s.GetJSON(t, "/metrics", nil); code != http.StatusNotFound {
		t.Errorf("/metrics on the public listener: %d, want 404 (it has a listener of its own)", code)
	}
	body := string(get(t, s.MetricsURL).body)
	for _, want := range []string{"tabuleiro_connections 1", `tabuleiro_rooms{game="2048",status="playing"} 1`,
		`tabuleiro_errors_total{code="illegal_move"} 1`, "tabuleiro_broadcast_seconds_count"} {
		if !contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
