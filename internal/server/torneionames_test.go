package server_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// TestTorneioNames: a tournament's entrants are named, not only numbered by
// id, in GET /api/torneios/{id} (entrants and standings), in the lobby's
// GET /api/torneios and in the seats of the rooms it makes: a person by the
// display name it has now (renamed before the start), a bot account by the
// name it registered, a level as "bot <level>". A name in the spec is not taken.
func TestTorneioNames(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "Ana", "")
	bia := s.Hello(t, "Bia", "")
	ana.Send(map[string]any{"type": "player.rename", "id": 1, "name": "Ana Lima"})
	ana.Wait("player.renamed", nil)
	botID, botToken := s.RegisterBot(t, bia.Token, "Robozinho")
	s.OpenStream(t, "/api/bot/stream/event", botToken)
	waitBotOnline(t, s, botID, func() string { return "" })
	// Bia lets anyone enter her bot in a tournament.
	if got := s.Do(t, "PATCH", "/api/bots/"+botID, bia.Token, map[string]bool{"open": true}, nil); got != 200 {
		t.Fatalf("PATCH /api/bots/{id} = %d", got)
	}

	body := `{"game":"queens","entrants":[{"player":"` + ana.Player.ID + `","name":"Impostor"},{"bot":"` + botID +
		`"},{"level":"gulosa"},{"player":"` + bia.Player.ID + `"}],"partidas":[["tradicional",1]]}`
	var created struct{ ID string }
	if got := postTorneio(t, s, ana.Token, body, &created); got != 201 || created.ID == "" {
		t.Fatalf("POST /api/torneios = %d %+v", got, created)
	}
	if got := s.Do(t, "POST", "/api/torneios/"+created.ID+"/accept", bia.Token, nil, nil); got != 200 {
		t.Fatalf("Bia's accept = %d", got)
	}
	want := []string{"Ana Lima", "Robozinho", "bot gulosa", "Bia"}
	var v torneio.View
	if got := s.GetJSON(t, "/api/torneios/"+created.ID, &v); got != 200 {
		t.Fatalf("GET = %d", got)
	}
	for i, w := range want {
		if got := v.Entrants[i].Name; got != w {
			t.Errorf("entrant %d name %q, want %q", i, got, w)
		}
		if got := v.Standings[i].Name; got != w {
			t.Errorf("standing %d name %q, want %q", i, got, w)
		}
	}
	// The ids stay as they were.
	if v.Entrants[0].Player != ana.Player.ID || v.Entrants[1].Bot != botID || v.Entrants[2].Level != "gulosa" {
		t.Errorf("entrants %+v lost their ids", v.Entrants)
	}
	var list struct{ Torneios []torneio.Summary }
	s.GetJSON(t, "/api/torneios", &list)
	if len(list.Torneios) != 1 || len(list.Torneios[0].Names) != len(want) {
		t.Fatalf("GET /api/torneios = %+v", list)
	}
	for i, w := range want {
		if got := list.Torneios[0].Names[i]; got != w {
			t.Errorf("summary name %d %q, want %q", i, got, w)
		}
	}
	// The rooms of the first games seat the people under their names
	// (the tournament's goroutine makes them just after the start).
	checked := 0
	deadline := time.Now().Add(testserver.Timeout)
	for !slices.ContainsFunc(v.Games, func(g torneio.Game) bool { return g.Room != "" && g.Entrants[0] == 0 }) {
		if time.Now().After(deadline) {
			t.Fatalf("no game of Ana's started: %+v", v.Games)
		}
		time.Sleep(20 * time.Millisecond)
		s.GetJSON(t, "/api/torneios/"+created.ID, &v)
	}
	for _, g := range v.Games {
		if g.Room == "" {
			continue
		}
		saved, err := s.Store.LoadRoom(t.Context(), g.Room)
		if err != nil {
			t.Fatalf("room %s of a started game: %v", g.Room, err)
		}
		rec, err := rooms.RecordOf(saved.Snapshot)
		if err != nil {
			t.Fatal(err)
		}
		for seat, e := range g.Entrants {
			if v.Entrants[e].Level != "" {
				continue // a level's seat is the room's bot
			}
			if got := rec.Players[seat].Name; got != want[e] {
				t.Errorf("room %s seat %d: %q, want %q", g.Room, seat, got, want[e])
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no room of the tournament to check")
	}
}
