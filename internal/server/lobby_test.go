package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// lobbyFrameLimit is the most bytes a lobby frame may take (issue 24).
const lobbyFrameLimit = 32 << 10

// lobbyOf decodes a lobby frame.
func lobbyOf(t testing.TB, m testserver.Msg) protocol.Lobby {
	t.Helper()
	var l protocol.Lobby
	if err := json.Unmarshal(m.Raw, &l); err != nil {
		t.Fatalf("lobby frame %q: %v", m.Raw, err)
	}
	return l
}

// longAdjourn keeps the games of makeRooms, whose players are never
// connected, live for as long as a slow run of a test may take.
func longAdjourn(c *server.Config) { c.AdjournAfter = time.Hour }

// makeRooms makes n public go rooms straight in the rooms' Manager, every
// waitEvery-th one (0: none) waiting for its second player, the others
// playing between two players who are not connected; it returns their ids.
// (A waiting room nobody is in closes at its next command: a lease renewal
// with several nodes.)
func makeRooms(t testing.TB, s *testserver.Server, n, waitEvery int) []string {
	t.Helper()
	out := make([]string, 0, n)
	for i := range n {
		seats := []players.Player{players.Of(fmt.Sprintf("pa%04d", i), fmt.Sprintf("player a%04d", i)),
			players.Of(fmt.Sprintf("pb%04d", i), fmt.Sprintf("player b%04d", i))}
		if waitEvery > 0 && i%waitEvery == 0 {
			seats[1] = players.Player{}
		}
		r, err := s.Rooms.Create(context.Background(), rooms.Spec{Game: "go", Variant: "9", Seats: seats})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.ID())
	}
	return out
}

// TestLobbyIsBounded: with 900 rooms a lobby watcher stays connected, every
// lobby frame is under 32 KB and carries a page of rooms (the most watched
// live games first, then open seats) with the counts of all of them and the
// watcher's own rooms, and the frames come at most about once a second
// however fast the rooms change. GET /api/rooms' cursor walks every room
// once. (On the old lobby every frame carried every room: 210 KB at 900.)
func TestLobbyIsBounded(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, longAdjourn)
	w := s.Hello(t, "watcher", "")
	w.Send(map[string]any{"type": "lobby.watch", "id": 1})
	w.Wait("lobby", nil)
	// The watcher's own rooms: one private, one waiting; both are its own
	// whatever the lobby's page shows.
	w.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human", "private": true, "id": 2})
	priv := w.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == "2" }).Room
	w.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "id": 3})
	open := w.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == "3" }).Room

	start := time.Now()
	ids := makeRooms(t, s, 898, 3)
	// Spectators on three of the playing rooms: the most watched first.
	watched := []string{ids[1], ids[4], ids[7]}
	for i, room := range watched {
		for j := range 3 - i {
			sp := s.Hello(t, fmt.Sprintf("sp%d%d", i, j), "")
			sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			sp.Wait("room.joined", nil)
		}
	}
	ids = append(ids, priv, open)
	last := w.Wait("lobby", func(m testserver.Msg) bool {
		l := lobbyOf(t, m)
		return len(m.ID) == 0 && l.Counts.Playing+l.Counts.Waiting == 899 && len(l.Rooms) > 0 && l.Rooms[0].Spectators == 3
	})
	elapsed := time.Since(start)

	l := lobbyOf(t, last)
	if l.Counts != (protocol.LobbyCounts{Playing: 598, Waiting: 301}) {
		t.Errorf("counts %+v, want 598 playing and 301 waiting (the private room is not counted)", l.Counts)
	}
	if len(l.Rooms) != hub.LobbyPage {
		t.Errorf("the frame carries %d rooms, want a page of %d", len(l.Rooms), hub.LobbyPage)
	}
	for i, room := range watched {
		if l.Rooms[i].ID != room || l.Rooms[i].Spectators != 3-i {
			t.Errorf("room %d of the page: %s with %d spectators, want %s with %d", i, l.Rooms[i].ID, l.Rooms[i].Spectators, room, 3-i)
		}
	}
	for _, r := range l.Rooms {
		if r.Status != rooms.StatusPlaying || r.ID == priv {
			t.Errorf("page holds %s (%s, private %v) while live games remain", r.ID, r.Status, r.Private)
		}
	}
	mine := map[string]bool{}
	for _, r := range l.Mine {
		mine[r.ID] = true
	}
	if len(l.Mine) != 2 || !mine[priv] || !mine[open] {
		t.Errorf("the watcher's rooms %+v, want %s (private) and %s", l.Mine, priv, open)
	}

	// Every frame small, none an error, the watcher still here, and the
	// pushes coalesced: at most one a LobbyInterval (1 s) while 900 rooms
	// were made, plus the first and the last.
	pushes, largest := 0, 0
	for _, m := range w.Log() {
		if m.Type == "lobby" && len(m.Raw) >= lobbyFrameLimit {
			t.Errorf("a lobby frame of %d bytes", len(m.Raw))
		}
		if m.Type == "lobby" {
			largest = max(largest, len(m.Raw))
		}
		if m.Type == "lobby" && len(m.ID) == 0 {
			pushes++
		}
	}
	t.Logf("%d lobby frames pushed in %v, the largest %d bytes", pushes, elapsed, largest)
	if most := int(elapsed/hub.DefaultLobbyInterval) + 2; pushes > most {
		t.Errorf("%d lobby frames pushed in %v: more than one a second (%d)", pushes, elapsed, most)
	}
	w.Send(map[string]any{"type": "lobby.watch", "id": 9})
	if ans := w.Wait("lobby", func(m testserver.Msg) bool { return string(m.ID) == "9" }); len(ans.Raw) >= lobbyFrameLimit {
		t.Errorf("the answer to lobby.watch takes %d bytes", len(ans.Raw))
	}

	// GET /api/rooms: every public room once, newest first, in pages.
	public := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == priv })
	for _, limit := range []int{0, 7, hub.MaxRoomsLimit} {
		seen := walkRooms(t, s, url.Values{}, limit)
		if len(seen) != len(public) {
			t.Errorf("limit %d: the walk met %d rooms, want %d", limit, len(seen), len(public))
		}
		for _, id := range public {
			if seen[id] != 1 {
				t.Errorf("limit %d: room %s met %d times", limit, id, seen[id])
			}
		}
	}
	if got := walkRooms(t, s, url.Values{"status": {"waiting"}}, 50); len(got) != 301 {
		t.Errorf("status=waiting: %d rooms, want 301", len(got))
	}
	if got := walkRooms(t, s, url.Values{"game": {"morris"}}, 50); len(got) != 1 || got[open] != 1 {
		t.Errorf("game=morris: %v, want %s", got, open)
	}
}

// walkRooms follows GET /api/rooms' cursor from the first page to the last
// (limit 0: the default page) and counts the rooms met.
func walkRooms(t *testing.T, s *testserver.Server, q url.Values, limit int) map[string]int {
	t.Helper()
	seen := map[string]int{}
	if limit > 0 {
		q.Set("limit", fmt.Sprint(limit))
	}
	want := limit
	if want == 0 {
		want = hub.DefaultRoomsLimit
	}
	for page := 0; ; page++ {
		if page > 1000 {
			t.Fatal("the walk does not end")
		}
		var out protocol.RoomsPage
		if code := s.GetJSON(t, "/api/rooms?"+q.Encode(), &out); code != http.StatusOK {
			t.Fatalf("GET /api/rooms?%s: %d", q.Encode(), code)
		}
		if len(out.Rooms) > want || out.Next != "" && len(out.Rooms) != want {
			t.Fatalf("a page of %d rooms (next %q) for a limit of %d", len(out.Rooms), out.Next, want)
		}
		for _, r := range out.Rooms {
			seen[r.ID]++
		}
		if out.Next == "" {
			return seen
		}
		q.Set("cursor", out.Next)
	}
}

// TestRoomsQueryRefusals: a bad query of GET /api/rooms is a 400 that says
// what is wrong.
func TestRoomsQueryRefusals(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	for _, tt := range []struct {
		query, code string
	}{
		{"limit=0", "bad_request"},
		{"limit=101", "bad_request"},
		{"limit=x", "bad_request"},
		{"cursor=nonsense", "bad_request"},
		{"cursor=12.a%20b", "bad_request"},
		{"status=finished", "bad_request"},
		{"game=chess", "unknown_game"},
	} {
		var out protocol.HTTPError
		if code := s.GetJSON(t, "/api/rooms?"+tt.query, &out); code != http.StatusBadRequest || string(out.Error.Code) != tt.code || out.Error.Message == "" {
			t.Errorf("?%s: %d %+v, want 400 %s", tt.query, code, out.Error, tt.code)
		}
	}
}

// TestGameWhosePlayersLeftIsAdjourned: a game none of whose players is
// connected leaves the lobby's live games once they have been gone for
// -adjourn-after (here 300 ms, instead of waiting the default 30 s), is
// counted and listed as adjourned, and comes back live when a player
// returns. (Issue 29: such games stayed in "Live games" for 10 to 15
// minutes.)
func TestGameWhosePlayersLeftIsAdjourned(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.AdjournAfter = 300 * time.Millisecond })
	a, b := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	a.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human", "clock": map[string]int{"base": 600, "increment": 0}})
	room := a.Wait("room.joined", nil).Room
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	b.Wait("room.joined", nil)
	a.State(room, func(m testserver.Msg) bool { return m.Status == rooms.StatusPlaying })

	w := s.Hello(t, "watcher", "")
	w.Send(map[string]any{"type": "lobby.watch"})
	live := func(m testserver.Msg) bool {
		l := lobbyOf(t, m)
		return l.Counts.Playing == 1 && slices.ContainsFunc(l.Rooms, func(r protocol.RoomSummary) bool { return r.ID == room })
	}
	w.Wait("lobby", live)

	// One player leaves: still live, and the card can show that player away.
	b.Close()
	away := w.Wait("lobby", func(m testserver.Msg) bool {
		l := lobbyOf(t, m)
		return len(l.Rooms) == 1 && !l.Rooms[0].Players[1].Connected
	})
	if r := lobbyOf(t, away).Rooms[0]; !r.Players[0].Connected || r.Adjourned {
		t.Fatalf("with one player here: %+v", r)
	}
	// Both gone: the game leaves the live games, counted adjourned.
	a.Close()
	gone := w.Wait("lobby", func(m testserver.Msg) bool { return lobbyOf(t, m).Counts.Adjourned == 1 })
	if l := lobbyOf(t, gone); len(l.Rooms) != 0 || l.Counts.Playing != 0 {
		t.Fatalf("adjourned game still shown: %+v", l)
	}
	var page protocol.RoomsPage
	s.GetJSON(t, "/api/rooms?status=adjourned", &page)
	if len(page.Rooms) != 1 || page.Rooms[0].ID != room || !page.Rooms[0].Adjourned {
		t.Fatalf("GET /api/rooms?status=adjourned: %+v", page.Rooms)
	}
	s.GetJSON(t, "/api/rooms?status=playing", &page)
	if len(page.Rooms) != 0 {
		t.Fatalf("GET /api/rooms?status=playing lists %+v", page.Rooms)
	}

	// A player comes back: live again.
	back := s.Hello(t, "ana", a.Token)
	back.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
	w.Wait("lobby", live)
}

// TestClusterLobbyIsBounded: with rooms on three nodes, a lobby watcher on
// any node gets the counts of all of them and one page, the most watched
// game first wherever it runs, and GET /api/rooms on any node walks every
// node's rooms once: the nodes exchange a digest of their rooms, never all
// of them, and answer each other's pages.
func TestClusterLobbyIsBounded(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 3, 600*time.Millisecond, longAdjourn)
	var all []string
	for _, n := range nodes {
		all = append(all, makeRooms(t, n, 60, 0)...)
	}
	// A game on node 2 with a spectator from node 0: the most watched.
	watched := all[2*60+1]
	sp := nodes[0].Hello(t, "sp", "")
	sp.Send(map[string]any{"type": "room.join", "room": watched, "as": "spectator"})
	sp.Wait("room.joined", nil)

	w := nodes[1].Hello(t, "watcher", "")
	w.Send(map[string]any{"type": "lobby.watch"})
	m := w.Wait("lobby", func(m testserver.Msg) bool {
		l := lobbyOf(t, m)
		return l.Counts == protocol.LobbyCounts{Playing: 180} && len(l.Rooms) > 0 && l.Rooms[0].ID == watched
	})
	if l := lobbyOf(t, m); len(l.Rooms) != hub.LobbyPage || len(m.Raw) >= lobbyFrameLimit {
		t.Fatalf("a lobby frame of %d rooms, %d bytes", len(l.Rooms), len(m.Raw))
	}
	for i, n := range nodes {
		seen := walkRooms(t, n, url.Values{}, 25)
		if len(seen) != len(all) {
			t.Errorf("node %d: the walk met %d rooms, want %d", i, len(seen), len(all))
		}
		for _, id := range all {
			if seen[id] != 1 {
				t.Errorf("node %d: room %s met %d times", i, id, seen[id])
			}
		}
	}
}
