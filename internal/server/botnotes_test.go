package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// recordNotes is what a test reads of GET /api/records/{room}.
type recordNotes struct {
	Moves []struct {
		Seat int
		Move string
		Ms   *int64
		Info string
	}
	Faults []struct {
		Ply, Seat     int
		Move, Code    string
		Message, Info string
		Ms            *int64
	}
	Result struct {
		Winner *int
		Reason string
	}
}

// TestBotNotesOverTheAPI: a bot account sends info with its moves over the
// WebSocket (room.move's "info"), the HTTP move's query and its body; an
// illegal answer is refused and kept with its error; it resigns with
// reason bot_error and what failed. The record gives every move's time to
// anyone, and the info and faults to the bot's owner and the bot itself
// only; a person's info is not kept; bad reasons and bodies are refused.
func TestBotNotesOverTheAPI(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana, bia := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	_, tok := s.RegisterBot(t, ana.Token, "aluno")
	bot := s.Hello(t, "", tok)
	room := humanRoom(bia, bot, "orbito", "2") // bia black (seat 0), the bot white
	st := bia.State(room, func(m testserver.Msg) bool { return botTurn(m, 0) })
	turn := func(seat int) testserver.Msg {
		return bia.State(room, func(m testserver.Msg) bool { return botTurn(m, seat) })
	}
	bia.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0], "info": "a person's info is not kept"})
	st = turn(1)
	bot.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0], "info": "pelo WebSocket"})
	st = turn(0)
	bia.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	st = turn(1)
	var e apiError
	path := "/api/bot/game/" + room
	if code := s.Do(t, "POST", path+"/move/"+st.Legal[0]+"?info="+url.QueryEscape("pela query: 3 ms"), tok, nil, &e); code != http.StatusOK {
		t.Fatalf("move with a query's info: %d %+v", code, e)
	}
	st = turn(0)
	bia.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	st = turn(1)
	for _, tc := range []struct {
		name, path string
		body       any
	}{
		{"a reason on a move", path + "/move/" + st.Legal[0], map[string]string{"reason": "bot_error"}},
		{"an unknown reason", path + "/resign", map[string]string{"reason": "tired"}},
		{"an unknown field", path + "/move/" + st.Legal[0], map[string]string{"infos": "x"}},
		{"not JSON", path + "/resign", "{"},
	} {
		e = apiError{}
		if code := s.Do(t, "POST", tc.path, tok, tc.body, &e); code != http.StatusBadRequest || e.Error.Code != "bad_request" {
			t.Errorf("%s: %d %+v, want 400 bad_request", tc.name, code, e)
		}
	}
	req, _ := http.NewRequest("POST", s.URL+path+"/move/"+st.Legal[0], strings.NewReader(`{"info":"x"} {}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("data after the body's object: %v %v, want 400", resp, err)
	} else {
		resp.Body.Close()
	}
	if code := s.Do(t, "POST", path+"/move/"+st.Legal[0], tok, map[string]string{"info": "pelo corpo"}, &e); code != http.StatusOK {
		t.Fatalf("move with a body's info: %d %+v", code, e)
	}
	st = turn(0)
	bia.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	st = turn(1)
	occupied := ""
	var board []string
	if err := json.Unmarshal(st.Board, &board); err != nil {
		t.Fatal(err)
	}
	for r, row := range board {
		for c, ch := range row {
			if ch != '.' && occupied == "" {
				occupied = string(rune('a'+c)) + string(rune('1'+r))
			}
		}
	}
	e = apiError{}
	if code := s.Do(t, "POST", path+"/move/"+occupied+"?info=escolhi+"+occupied, tok, nil, &e); code != http.StatusBadRequest || e.Error.Code != "illegal_move" {
		t.Fatalf("an occupied square: %d %+v", code, e)
	}
	if code := s.Do(t, "POST", path+"/resign", tok, map[string]string{"reason": "bot_error", "info": "IndexError: list index out of range"}, &e); code != http.StatusOK {
		t.Fatalf("resign with bot_error: %d %+v", code, e)
	}
	fin := bia.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Reason != "bot_error" || fin.Result.Winner == nil || *fin.Result.Winner != 0 {
		t.Fatalf("result %s, want bot_error won by seat 0", fin.Raw)
	}

	read := func(token string) (recordNotes, int) {
		var rec recordNotes
		code := s.Do(t, "GET", "/api/records/"+room, token, nil, &rec)
		return rec, code
	}
	for _, who := range []struct{ name, token string }{{"the owner", ana.Token}, {"the bot", tok}} {
		rec, code := read(who.token)
		if code != http.StatusOK || len(rec.Moves) != 7 {
			t.Fatalf("%s reads %d: %+v", who.name, code, rec)
		}
		want := []string{"", "pelo WebSocket", "", "pela query: 3 ms", "", "pelo corpo", ""}
		for i, w := range want {
			if rec.Moves[i].Info != w || rec.Moves[i].Ms == nil {
				t.Errorf("%s: move %d %+v, want info %q and a time", who.name, i+1, rec.Moves[i], w)
			}
		}
		if len(rec.Faults) != 2 {
			t.Fatalf("%s: faults %+v", who.name, rec.Faults)
		}
		if f := rec.Faults[0]; f.Ply != 7 || f.Seat != 1 || f.Move != occupied || f.Code != "illegal_move" || f.Message == "" || f.Info != "escolhi "+occupied || f.Ms == nil {
			t.Errorf("%s: the illegal answer %+v", who.name, f)
		}
		if f := rec.Faults[1]; f.Ply != 7 || f.Code != "bot_error" || f.Info != "IndexError: list index out of range" || f.Move != "" {
			t.Errorf("%s: the resignation %+v", who.name, f)
		}
	}
	for _, who := range []struct{ name, token string }{{"a stranger", ""}, {"the opponent", bia.Token}} {
		rec, code := read(who.token)
		if code != http.StatusOK || len(rec.Moves) != 7 || len(rec.Faults) != 0 || rec.Result.Reason != "bot_error" {
			t.Fatalf("%s reads %d: %+v", who.name, code, rec)
		}
		for i, m := range rec.Moves {
			if m.Info != "" || m.Ms == nil {
				t.Errorf("%s: move %d %+v, want its time and no info", who.name, i+1, m)
			}
		}
	}
	if _, code := read("no-such-token"); code != http.StatusUnauthorized {
		t.Errorf("an unknown token reads %d, want 401", code)
	}
}

// TestClassBots: a teacher's class bots ("turma":true) are counted apart
// from the teacher's own bots, against a cap of their own.
func TestClassBots(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.BotAPI.MaxBotsPerPlayer, c.BotAPI.MaxClassBotsPerPlayer = 1, 3 })
	prof := s.Hello(t, "professora", "")
	s.RegisterBot(t, prof.Token, "meu")
	var e apiError
	if code := s.Do(t, "POST", "/api/bots", prof.Token, map[string]any{"name": "outro"}, &e); code != http.StatusConflict {
		t.Fatalf("a second own bot past the cap of 1: %d", code)
	}
	for i := range 3 {
		var out struct{ ID string }
		if code := s.Do(t, "POST", "/api/bots", prof.Token, map[string]any{"name": fmt.Sprintf("aluno%d:normal", i), "turma": true}, &out); code != http.StatusCreated {
			t.Fatalf("class bot %d: %d", i, code)
		}
	}
	e = apiError{}
	if code := s.Do(t, "POST", "/api/bots", prof.Token, map[string]any{"name": "aluno3:normal", "turma": true}, &e); code != http.StatusConflict || !strings.Contains(e.Error.Message, "3 class bots") {
		t.Fatalf("a class bot past the cap of 3: %d %+v", code, e)
	}
}
