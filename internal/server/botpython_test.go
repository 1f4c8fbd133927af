package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// waitBotOnline polls GET /api/bots until id is listed.
func waitBotOnline(t *testing.T, s *testserver.Server, id string, out func() string) {
	t.Helper()
	deadline := time.Now().Add(testserver.Timeout)
	for {
		var list struct{ Bots []httpapi.BotInfo }
		s.GetJSON(t, "/api/bots", &list)
		for _, b := range list.Bots {
			if b.ID == id {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("bot %s never came online; its output:\n%s", id, out())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playAsPerson plays seat of room over the WebSocket with the first legal
// move until the game is over, and returns the last state.
func playAsPerson(t *testing.T, c *testserver.Client, room string, seat int) testserver.Msg {
	t.Helper()
	c.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	st := c.State(room, nil)
	for st.Status != "finished" {
		if botTurn(st, seat) {
			c.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
		}
		prev := st.Seq
		st = c.State(room, func(m testserver.Msg) bool { return m.Seq > prev })
	}
	return st
}

// TestPythonExampleBot runs the Python client's example (clients/python,
// the machine's python3, standard library only) against the real server:
// it comes online, a person challenges it to queens tradicional, and it
// plays the game to the end and exits.
func TestPythonExampleBot(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "ana", "")
	id, tok := s.RegisterBot(t, ana.Token, "exemplo")
	bot := testserver.PythonBot(t, s.URL, tok, "--partidas", "1")
	out := &bot.Out
	waitBotOnline(t, s, id, out.String)
	var ch struct{ Room string }
	if code := s.Do(t, "POST", "/api/bots/"+id+"/challenge", ana.Token,
		map[string]any{"game": "queens", "variant": "tradicional", "seat": 1}, &ch); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	fin := playAsPerson(t, ana, ch.Room, 1)
	if fin.Result == nil || fin.Result.Reason == "abandoned" || fin.Result.Reason == "aborted" {
		t.Fatalf("the game ended %s", fin.Raw)
	}
	select {
	case <-bot.Exited():
		if err := bot.Err(); err != nil {
			t.Fatalf("the example exited with %v:\n%s", err, out.String())
		}
	case <-time.After(testserver.Timeout):
		t.Fatalf("the example did not exit after its game:\n%s", out.String())
	}
	var rec struct {
		Players []struct{ BotAccount bool }
		Moves   []struct{ Seat int }
	}
	s.GetJSON(t, "/api/records/"+ch.Room, &rec)
	if len(rec.Players) != 2 || !rec.Players[0].BotAccount || rec.Players[1].BotAccount {
		t.Fatalf("the record's players %+v: want the bot flagged", rec.Players)
	}
	botMoves := 0
	for _, m := range rec.Moves {
		if m.Seat == 0 {
			botMoves++
		}
	}
	if botMoves == 0 || !strings.Contains(out.String(), ch.Room+": fim") {
		t.Fatalf("the bot made %d moves; its output:\n%s", botMoves, out.String())
	}
}
