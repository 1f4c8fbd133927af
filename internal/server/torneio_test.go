package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// postTorneio posts body to /api/torneios with token (none when empty) and
// decodes the answer into out.
func postTorneio(t *testing.T, s *testserver.Server, token, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/torneios", strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return resp.StatusCode
}

func TestTorneioBadInput(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	c := s.Hello(t, "Ana", "")
	ok := `{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`
	tests := []struct {
		name, token, body string
		status            int
		code, msg         string
	}{
		{"no token", "", ok, 401, "unauthorized", "Bearer"},
		{"unknown token", "nope", ok, 401, "unauthorized", "unknown token"},
		{"bad game", c.Token, `{"game":"xadrez","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, 400, "bad_request", `unknown game "xadrez"`},
		{"one entrant", c.Token, `{"game":"queens","entrants":[{"level":"gulosa"}],"partidas":[["tradicional",1]]}`, 400, "bad_request", "2 to 64 entrants"},
		{"too many games", c.Token, `{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"},{"level":"apressado"},{"level":"forte"},{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",50],["grande",50],["impar",50],["x-random",50]]}`, 400, "bad_request", "at most 4096"},
		{"not json", c.Token, `{"game":`, 400, "bad_request", "a torneio is one JSON object"},
		{"too large", c.Token, `{"game":"` + strings.Repeat("x", httpapi.MaxTorneioBody) + `"}`, 413, "too_large", "bytes"},
	}
	for _, tt := range tests {
		var e apiError
		if got := postTorneio(t, s, tt.token, tt.body, &e); got != tt.status || e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.msg) {
			t.Errorf("%s: %d %+v, want %d %s %q", tt.name, got, e, tt.status, tt.code, tt.msg)
		}
	}
	var list struct{ Torneios []torneio.Summary }
	if s.GetJSON(t, "/api/torneios", &list); len(list.Torneios) != 0 {
		t.Errorf("bad input made tournaments: %+v", list)
	}
	var e apiError
	if got := s.GetJSON(t, "/api/torneios/nope", &e); got != 404 {
		t.Errorf("unknown torneio: %d %+v", got, e)
	}
}

// extPlayer is an outside player over the WebSocket protocol: it joins the
// rooms the tournament seats it in and plays the first (first player) or
// last legal move of every state where it is to move.
type extPlayer struct {
	c      *testserver.Client
	last   bool
	joined map[string]bool
	seq    map[string]int64
	acted  map[string]string // room -> the board it last moved on
	trace  []string
}

// step handles what the player has received so far (bounded wait).
func (p *extPlayer) step(t *testing.T) {
	for {
		m, ok := p.c.TryWait("", nil, 5*time.Millisecond)
		if !ok {
			return
		}
		if m.Type == "error" {
			t.Errorf("%s got an error: %s (log %v)", p.c.Player.Name, m.Raw, p.trace)
			continue
		}
		if m.Type != "room.state" || m.Seq <= p.seq[m.Room] {
			continue
		}
		p.seq[m.Room] = m.Seq
		if m.Status != "playing" || m.Turn == nil || *m.Turn >= len(m.Players) || m.Players[*m.Turn].ID != p.c.Player.ID || len(m.Legal) == 0 {
			continue
		}
		// A state may change for other reasons (a player connects): move
		// once per position (in queens every move changes the board).
		if p.acted[m.Room] == string(m.Board) {
			continue
		}
		p.acted[m.Room] = string(m.Board)
		move := m.Legal[0]
		if p.last {
			move = m.Legal[len(m.Legal)-1]
		}
		p.trace = append(p.trace, fmt.Sprintf("%s seq %d turn %d move %s", m.Room, m.Seq, *m.Turn, move))
		p.c.Send(map[string]any{"type": "room.move", "room": m.Room, "move": move})
	}
}

// TestTorneioQueens is the CI tournament: queens tradicional between
// apressado, gulosa, the Python example bot (clients/python, a bot account
// over the HTTP bot API, run by the machine's python3) and an outside player
// over the WebSocket protocol, to the end; every pair played both seats, and
// the standings the API shows are what the rooms' results say.
func TestTorneioQueens(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	players := []*extPlayer{{c: s.Hello(t, "Ana", ""), last: true}}
	for _, p := range players {
		p.joined, p.seq, p.acted = map[string]bool{}, map[string]int64{}, map[string]string{}
	}
	botID, botToken := s.RegisterBot(t, players[0].c.Token, "exemplo")
	out := &testserver.PythonBot(t, s.URL, botToken).Out
	waitBotOnline(t, s, botID, out.String)
	body := `{"game":"queens","entrants":[{"level":"apressado"},{"level":"gulosa"},{"bot":"` + botID +
		`"},{"player":"` + players[0].c.Player.ID + `"}],"partidas":[["tradicional",1]]}`
	var created struct{ ID string }
	if got := postTorneio(t, s, players[0].c.Token, body, &created); got != 201 || created.ID == "" {
		t.Fatalf("POST /api/torneios = %d %+v", got, created)
	}
	var v torneio.View
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish: %+v; the Python bot's output:\n%s", v.Standings, out.String())
		}
		v = torneio.View{}
		if got := s.GetJSON(t, "/api/torneios/"+created.ID, &v); got != 200 {
			t.Fatalf("GET = %d", got)
		}
		if v.Status == torneio.StatusFinished {
			break
		}
		if v.Status != torneio.StatusRunning {
			t.Fatalf("status %q", v.Status)
		}
		for _, g := range v.Games {
			for _, ei := range g.Entrants {
				for _, p := range players {
					if g.Room != "" && g.Status == torneio.GamePlaying && v.Entrants[ei].Player == p.c.Player.ID && !p.joined[g.Room] {
						p.joined[g.Room] = true
						p.c.Send(map[string]any{"type": "room.join", "room": g.Room, "as": "player"})
					}
				}
			}
		}
		for range 10 {
			for _, p := range players {
				p.step(t)
			}
		}
	}
	if len(v.Games) != 12 {
		t.Fatalf("%d games, want 12", len(v.Games))
	}
	// Every ordered pair once; each result as the room's record says.
	pairs := map[[2]int]int{}
	want := make([]torneio.Standing, len(v.Entrants))
	for _, g := range v.Games {
		pairs[g.Entrants]++
		saved, err := s.Store.LoadRoom(t.Context(), g.Room)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := rooms.RecordOf(saved.Snapshot)
		if err != nil || rec.Result == nil {
			t.Fatalf("room %s: %v %+v", g.Room, err, rec)
		}
		if rec.Result.Reason == rooms.ReasonAborted || rec.Result.Reason == "timeout" {
			t.Errorf("room %s ended by %s: the outside players did not play; the Python bot's output:\n%s", g.Room, rec.Result.Reason, out.String())
		}
		a, b := &want[g.Entrants[0]], &want[g.Entrants[1]]
		a.Played++
		b.Played++
		switch rec.Result.Winner {
		case 0:
			a.Won++
			b.Lost++
		case 1:
			b.Won++
			a.Lost++
		default:
			a.Drawn++
			b.Drawn++
		}
	}
	for i := range 4 {
		for j := range 4 {
			if i != j && pairs[[2]int{i, j}] != 1 {
				t.Errorf("entrant %d first against %d: %d games", i, j, pairs[[2]int{i, j}])
			}
		}
	}
	for i, st := range v.Standings {
		w := want[i]
		if st.Played != 6 || st.Played != w.Played || st.Won != w.Won || st.Drawn != w.Drawn || st.Lost != w.Lost {
			t.Errorf("standing %d = %+v, the rooms say %+v", i, st, w)
		}
		if share := float64(int(1000*float64(w.Won)/float64(w.Played)+0.5)) / 10; st.Share != share {
			t.Errorf("standing %d share %v, want %v", i, st.Share, share)
		}
	}
	var list struct{ Torneios []torneio.Summary }
	s.GetJSON(t, "/api/torneios", &list)
	if len(list.Torneios) != 1 || list.Torneios[0].ID != created.ID || list.Torneios[0].Played != 12 {
		t.Errorf("GET /api/torneios = %+v", list)
	}
}

// TestTorneioAbsentAndGone: a person who never comes and one who plays a
// single move and disconnects lose by the ordinary rules (the abort of a
// game whose first move never came, the clock), and the tournament
// finishes; gulosa wins all its games and every game has a winner.
func TestTorneioAbsentAndGone(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.AbortAfter = time.Second })
	absent := s.Hello(t, "Ausente", "")
	absentID := absent.Player.ID
	absent.Close()
	gone := s.Hello(t, "Vai", "")
	body := `{"game":"queens","entrants":[{"level":"gulosa"},{"player":"` + absentID + `"},{"player":"` + gone.Player.ID +
		`"}],"partidas":[["tradicional",1]],"clock":{"base":2,"increment":0}}`
	var created struct{ ID string }
	if got := postTorneio(t, s, gone.Token, body, &created); got != 201 {
		t.Fatalf("POST = %d", got)
	}
	// The absent person accepted the invitation (over HTTP, its page
	// closed) and then never came; its creator entered itself.
	if got := s.Do(t, "POST", "/api/torneios/"+created.ID+"/accept", absent.Token, nil, nil); got != 200 {
		t.Fatalf("accept = %d", got)
	}
	moved := false
	var v torneio.View
	deadline := time.Now().Add(2 * time.Minute)
	for v.Status != torneio.StatusFinished {
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish: %+v", v.Games)
		}
		v = torneio.View{}
		s.GetJSON(t, "/api/torneios/"+created.ID, &v)
		if v.Status == torneio.StatusWaiting || moved {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		for _, g := range v.Games {
			if g.Status == torneio.GamePlaying && v.Entrants[g.Entrants[0]].Player == gone.Player.ID {
				gone.Send(map[string]any{"type": "room.join", "room": g.Room, "as": "player"})
				st := gone.State(g.Room, func(m testserver.Msg) bool { return len(m.Legal) > 0 || m.Status == "finished" })
				if st.Status == "playing" {
					gone.Send(map[string]any{"type": "room.move", "room": g.Room, "move": st.Legal[0]})
					gone.State(g.Room, func(m testserver.Msg) bool { return m.LastMove != nil })
				}
				gone.Close()
				moved = true
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !moved {
		t.Fatal("the leaving player never got a game to move in")
	}
	for _, g := range v.Games {
		if g.Winner == nil {
			t.Errorf("game %d (%s) has no winner", g.Index, g.Reason)
		}
		if g.Reason != rooms.ReasonAborted && g.Reason != rooms.ReasonTimeout {
			t.Errorf("game %d ended by %q, want an abort or the clock: a person was missing", g.Index, g.Reason)
		}
	}
	if st := v.Standings[0]; st.Won != 4 || st.Played != 4 || st.Share != 100 {
		t.Errorf("gulosa: %+v, want 4 wins of 4", st)
	}
	won := 0
	for _, st := range v.Standings {
		won += st.Won
	}
	if won != 6 {
		t.Errorf("%d wins in 6 games: %+v", won, v.Standings)
	}
}
