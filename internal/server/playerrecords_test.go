package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// playerGames is GET /api/players/{player}/records as a client reads it.
type playerGames struct {
	Records []struct {
		Room, Game, Variant string
		Players             []struct {
			Seat     int
			ID, Name string
		}
		Moves  int
		Result *struct {
			Winner *int
			Reason string
		}
		Ended int64
	}
	Next *int64
}

// playResigned has a create a morris room, b join it, both move once and
// loser resign; it returns the room id.
func playResigned(t *testing.T, played map[string]bool, now *fakeclock.Clock, a, b, loser *testserver.Client) string {
	t.Helper()
	a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
	room := a.Wait("room.joined", func(m testserver.Msg) bool { return !played[m.Room] }).Room
	played[room] = true
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	now.Advance(time.Second)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "a1"})
	b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	b.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "b2" })
	now.Advance(time.Minute)
	loser.Send(map[string]any{"type": "room.resign", "room": room})
	a.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	return room
}

func TestPlayerRecords(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	recs := memstore.NewRecords(memstore.WithRecordsClock(now.Now))
	s := testserver.Start(t, func(c *server.Config) { c.Store, c.Now = memstore.New(memstore.WithRecords(recs)), now.Now })
	ana, bia, cai := s.Hello(t, "ana", ""), s.Hello(t, "bia", ""), s.Hello(t, "cai", "")
	var rooms []string
	seen := map[string]bool{}
	for i := range 3 {
		room := playResigned(t, seen, now, ana, bia, bia)
		if slices.Contains(rooms, room) {
			t.Fatalf("game %d: room %s again", i, room)
		}
		waitRecord(t, recs, room)
		rooms = append(rooms, room)
	}
	other := playResigned(t, seen, now, bia, cai, cai)
	waitRecord(t, recs, other)

	list := func(player, query string) playerGames {
		t.Helper()
		a := get(t, s.URL+"/api/players/"+player+"/records"+query)
		if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s%s: %d %s", player, query, a.status, a.body)
		}
		var out playerGames
		if err := json.Unmarshal(a.body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	ids := func(g playerGames) []string {
		var out []string
		for _, r := range g.Records {
			out = append(out, r.Room)
		}
		return out
	}
	all := list(ana.Player.ID, "")
	if want := []string{rooms[2], rooms[1], rooms[0]}; !slices.Equal(ids(all), want) || all.Next != nil {
		t.Fatalf("ana's games %v (next %v), want %v newest first", ids(all), all.Next, want)
	}
	g := all.Records[0]
	if g.Game != "morris" || g.Variant != "3" || g.Moves != 2 || g.Result == nil || g.Result.Reason != "resign" ||
		*g.Result.Winner != 0 || len(g.Players) != 2 || g.Players[0].ID != ana.Player.ID || g.Players[1].Name != "bia" || g.Ended == 0 {
		t.Fatalf("ana's newest game %+v", g)
	}
	page := list(ana.Player.ID, "?limit=2")
	if !slices.Equal(ids(page), []string{rooms[2], rooms[1]}) || page.Next == nil {
		t.Fatalf("first page %v next %v", ids(page), page.Next)
	}
	rest := list(ana.Player.ID, fmt.Sprintf("?limit=2&before=%d", *page.Next))
	if !slices.Equal(ids(rest), []string{rooms[0]}) || rest.Next != nil {
		t.Fatalf("second page %v next %v", ids(rest), rest.Next)
	}
	if b := list(bia.Player.ID, ""); !slices.Equal(ids(b), []string{other, rooms[2], rooms[1], rooms[0]}) {
		t.Fatalf("bia's games %v", ids(b))
	}
	if n := list("pnobody", ""); len(n.Records) != 0 || n.Next != nil {
		t.Fatalf("an unknown player's games %+v", n)
	}

	for _, bad := range []string{"?limit=0", "?limit=101", "?limit=x", "?before=-1", "?before=soon"} {
		a := get(t, s.URL+"/api/players/"+ana.Player.ID+"/records"+bad)
		if a.status != http.StatusBadRequest || !strings.Contains(string(a.body), "bad_request") {
			t.Errorf("GET %s: %d %s, want 400 bad_request", bad, a.status, a.body)
		}
	}
	if a := get(t, s.URL+"/api/players/"+strings.Repeat("p", 65)+"/records"); a.status != http.StatusBadRequest {
		t.Errorf("a long player id: %d %s", a.status, a.body)
	}
}

// TestPlayerRecordsPrivate: player ids are public, so a private game (an
// invitation) is listed only to its player, asking with their own token;
// a bad token is refused, not taken for nobody.
func TestPlayerRecordsPrivate(t *testing.T) {
	t.Parallel()
	recs := memstore.NewRecords()
	s := testserver.Start(t, func(c *server.Config) { c.Store = memstore.New(memstore.WithRecords(recs)) })
	ana, bia := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	ana.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "private": true})
	room := ana.Wait("room.joined", nil).Room
	bia.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	ana.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	ana.Send(map[string]any{"type": "room.resign", "room": room})
	ana.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	waitRecord(t, recs, room)

	path := "/api/players/" + ana.Player.ID + "/records"
	for _, tc := range []struct {
		name, token   string
		status, games int
	}{
		{"nobody", "", http.StatusOK, 0},
		{"the other player", bia.Token, http.StatusOK, 0},
		{"the player", ana.Token, http.StatusOK, 1},
		{"a bad token", "nope", http.StatusUnauthorized, 0},
	} {
		var got playerGames
		if code := s.Do(t, "GET", path, tc.token, nil, &got); code != tc.status || len(got.Records) != tc.games {
			t.Errorf("%s: %d with %d games, want %d with %d", tc.name, code, len(got.Records), tc.status, tc.games)
		}
	}
}

// TestPlayerRecordsCursorHidesPrivateGames: ana plays a public game and
// then a private one. Anyone else paging through her games one at a time
// sees the public game, and neither a page nor its next cursor tells when
// the private game ended (the cursor was the end time of the last game of
// the page before it was filtered, the private one's).
func TestPlayerRecordsCursorHidesPrivateGames(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	ana, bia := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	public := playResigned(t, map[string]bool{}, now, ana, bia, bia)
	now.Advance(time.Hour)
	ana.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "private": true})
	private := ana.Wait("room.joined", func(m testserver.Msg) bool { return m.Room != public }).Room
	bia.Send(map[string]any{"type": "room.join", "room": private, "as": "player"})
	ana.State(private, func(m testserver.Msg) bool { return m.Status == "playing" })
	ana.Send(map[string]any{"type": "room.resign", "room": private})
	ana.State(private, func(m testserver.Msg) bool { return m.Status == "finished" })

	path := "/api/players/" + ana.Player.ID + "/records?limit=1"
	var own playerGames
	if code := s.Do(t, "GET", path, ana.Token, nil, &own); code != http.StatusOK || len(own.Records) != 1 || own.Records[0].Room != private {
		t.Fatalf("ana's own newest game: %d %+v, want the private one", code, own)
	}
	hidden := own.Records[0].Ended
	for _, who := range []struct{ name, token string }{{"nobody", ""}, {"the other player", bia.Token}} {
		var seen []string
		for page, before := 0, ""; ; page++ {
			var got playerGames
			if code := s.Do(t, "GET", path+before, who.token, nil, &got); code != http.StatusOK {
				t.Fatalf("%s, page %d: %d", who.name, page, code)
			}
			for _, g := range got.Records {
				seen = append(seen, g.Room)
				if g.Ended == hidden {
					t.Fatalf("%s, page %d lists a game that ended when the private one did: %+v", who.name, page, g)
				}
			}
			if got.Next == nil {
				break
			}
			if *got.Next == hidden {
				t.Fatalf("%s, page %d: next is %d, the end of the private game", who.name, page, hidden)
			}
			if page > 3 {
				t.Fatalf("%s: more pages than games", who.name)
			}
			before = fmt.Sprintf("&before=%d", *got.Next)
		}
		if !slices.Equal(seen, []string{public}) {
			t.Errorf("%s pages through ana's games: %v, want [%s]", who.name, seen, public)
		}
	}
}
