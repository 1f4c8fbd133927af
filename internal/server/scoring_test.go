package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// wallMoves is a 9x9 game of go: black's wall on column E, white's on F,
// black C3 in its own area and white B5 alone inside it, then two passes.
// Counted as the board stands (the seed's rule) white wins 37 to 10, black's
// area touching B5; with B5 taken off as dead, black has 45 and white 36.
var wallMoves = func() []string {
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	return append(moves, "C3", "B5", "pass", "pass")
}()

// goTable is two people and a spectator at a 9x9 go room created by ana
// with the fields of create.
type goTable struct {
	t         *testing.T
	room      string
	ana, bia  *testserver.Client
	spectator *testserver.Client
}

func newGoTable(t *testing.T, s *testserver.Server, create map[string]any) *goTable {
	t.Helper()
	g := &goTable{t: t, ana: s.Hello(t, "ana", ""), bia: s.Hello(t, "bia", ""), spectator: s.Hello(t, "zé", "")}
	create["type"], create["game"], create["variant"], create["opponent"] = "room.create", "go", "9", "human"
	g.ana.Send(create)
	g.room = g.ana.Wait("room.joined", nil).Room
	g.bia.Send(map[string]any{"type": "room.join", "room": g.room, "as": "player"})
	g.bia.State(g.room, func(m testserver.Msg) bool { return m.Status == "playing" })
	g.spectator.Send(map[string]any{"type": "room.join", "room": g.room, "as": "spectator"})
	g.spectator.State(g.room, func(m testserver.Msg) bool { return m.Spectators == 1 })
	return g
}

// seat is the client of seat 0 (ana, black) or 1 (bia, white).
func (g *goTable) seat(s int) *testserver.Client { return []*testserver.Client{g.ana, g.bia}[s] }

// play has the seats play moves in turn, first moving first, each once the
// spectator saw the one before (the two players' connections are read
// apart: the room takes their messages in the order they come), and
// returns the spectator's state after the last.
func (g *goTable) play(first int, moves ...string) testserver.Msg {
	g.t.Helper()
	var last testserver.Msg
	for i, mv := range moves {
		seat := (first + i) % 2
		g.seat(seat).Send(map[string]any{"type": "room.move", "room": g.room, "move": mv})
		last = g.spectator.State(g.room, func(m testserver.Msg) bool {
			return m.LastMove != nil && m.LastMove.Move == mv && m.LastMove.Seat == seat
		})
	}
	return last
}

// extras reads the stone-removal and rule fields of a room.state.
type extras struct {
	Dead     []string `json:"dead"`
	Accepted []int    `json:"accepted"`
	Area     []string `json:"area"`
	Komi     *float64 `json:"komi"`
	Handicap int      `json:"handicap"`
	Removal  bool     `json:"removal"`
	ScoreBy  *int64   `json:"scoreBy"`
}

func extrasOf(t *testing.T, m testserver.Msg) extras {
	t.Helper()
	var x extras
	if err := json.Unmarshal(m.Raw, &x); err != nil {
		t.Fatal(err)
	}
	return x
}

// scoring waits for the spectator's state in the stone-removal phase that
// pred accepts.
func (g *goTable) scoring(pred func(testserver.Msg, extras) bool) (testserver.Msg, extras) {
	g.t.Helper()
	var x extras
	m := g.spectator.State(g.room, func(m testserver.Msg) bool {
		x = extrasOf(g.t, m)
		return pred(m, x)
	})
	return m, x
}

func (g *goTable) send(c *testserver.Client, typ string, fields ...string) {
	msg := map[string]any{"type": typ, "room": g.room}
	for i := 0; i+1 < len(fields); i += 2 {
		msg[fields[i]] = fields[i+1]
	}
	c.Send(msg)
}

// TestGoStoneRemovalOverTheServer: two people play 9x9 with komi 6.5 and
// stone removal over the WebSocket protocol. Two passes start the
// stone-removal phase with the server's proposal (B5 dead); the players
// disagree, toggling B5 alive and dead again (each toggle clearing the
// acceptances), then both accept: the game is black's by 45 to 36 and
// the komi, and the record, its positions, its text and its SGF count B5
// dead. The real GNU Go loads the SGF and its final_score under area rules
// agrees, calling B5 (and nothing else) dead.
func TestGoStoneRemovalOverTheServer(t *testing.T) {
	t.Parallel()
	gg := gtptest.Start(t, "--level", "0", "--chinese-rules")
	s := testserver.Start(t)
	g := newGoTable(t, s, map[string]any{"komi": 6.5, "removal": true})
	first := g.spectator.StateEver(g.room, nil)
	if x := extrasOf(t, first); x.Komi == nil || *x.Komi != 6.5 || !x.Removal || x.Dead != nil {
		t.Fatalf("the room's state: %s", first.Raw)
	}
	g.play(0, wallMoves...)
	ph, x := g.scoring(func(m testserver.Msg, x extras) bool { return m.Status == "scoring" && len(x.Dead) > 0 })
	if !slices.Equal(x.Dead, []string{"B5"}) || len(x.Accepted) != 0 || ph.Turn == nil || *ph.Turn != 0 || slices.Contains(ph.Legal, "pass") {
		t.Fatalf("the proposal: %s", ph.Raw)
	}
	if string(ph.Score) != `{"black":45,"white":36}` || x.Area[4] != "XXXXXOOOO" || x.ScoreBy != nil {
		t.Fatalf("score %s, area %v, scoreBy %v", ph.Score, x.Area, x.ScoreBy)
	}

	// Refusals change nothing.
	g.send(g.spectator, "room.score.toggle", "point", "B5")
	g.spectator.WaitError("not_a_player")
	g.send(g.ana, "room.score.toggle")
	if e := g.ana.WaitError("bad_request"); !strings.Contains(e.Message, `"point"`) {
		t.Fatalf("a toggle without a point: %q", e.Message)
	}
	g.send(g.ana, "room.move", "move", "pass")
	g.ana.WaitError("illegal_move")
	g.send(g.bia, "room.move", "move", "A1")
	g.bia.WaitError("not_your_turn")

	g.send(g.bia, "room.score.toggle", "point", "B5") // white: B5 lives
	g.scoring(func(m testserver.Msg, x extras) bool { return m.Status == "scoring" && len(x.Dead) == 0 })
	g.send(g.bia, "room.score.accept")
	g.scoring(func(_ testserver.Msg, x extras) bool { return slices.Equal(x.Accepted, []int{1}) })
	g.send(g.ana, "room.score.toggle", "point", "B5") // black marks it dead again: white's acceptance goes
	_, x = g.scoring(func(_ testserver.Msg, x extras) bool { return slices.Equal(x.Dead, []string{"B5"}) })
	if len(x.Accepted) != 0 {
		t.Fatalf("a toggle left the acceptances %v", x.Accepted)
	}
	g.send(g.ana, "room.score.accept")
	g.scoring(func(_ testserver.Msg, x extras) bool { return slices.Equal(x.Accepted, []int{0}) })
	g.send(g.bia, "room.score.accept")
	fin, fx := g.scoring(func(m testserver.Msg, _ extras) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Winner == nil || *fin.Result.Winner != 0 || fin.Result.Reason != "scored" ||
		string(fin.Score) != `{"black":45,"white":36}` || !slices.Equal(fx.Dead, []string{"B5"}) {
		t.Fatalf("the end: %s", fin.Raw)
	}

	doc := getRecord(t, s, g.room, true)
	var rec struct {
		Komi    float64
		Removal bool
		Dead    []string
	}
	a := get(t, s.URL+"/api/records/"+g.room)
	if err := json.Unmarshal(a.body, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Komi != 6.5 || !rec.Removal || !slices.Equal(rec.Dead, []string{"B5"}) || doc.Result.Reason != "scored" || *doc.Result.Winner != 0 {
		t.Fatalf("record: %s", a.body)
	}
	last := doc.Positions[len(doc.Positions)-1]
	if string(last["dead"]) != `["B5"]` || string(last["score"]) != `{"black":45,"white":36}` || string(last["area"]) != string(mustMarshal(t, fx.Area)) {
		t.Fatalf("the record's last position: %v", last)
	}
	if txt := string(get(t, s.URL+"/api/records/"+g.room+"/txt").body); !strings.Contains(txt, "\nKomi: 6.5\nRemoval: yes\n") ||
		!strings.Contains(txt, "\nReason: scored\nDead: B5\n") {
		t.Fatalf("text record:\n%s", txt)
	}
	sgf := get(t, s.URL+"/api/records/"+g.room+"/sgf").body
	for _, want := range []string{"KM[6.5]", "RE[B+2.5]", "TB[", "[be]", "TW["} {
		if !strings.Contains(string(sgf), want) {
			t.Fatalf("no %s in the SGF\n%s", want, sgf)
		}
	}
	path := filepath.Join(t.TempDir(), "scored.sgf")
	if err := os.WriteFile(path, sgf, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gg.LoadSGF(path); err != nil {
		t.Fatalf("GNU Go refuses the SGF: %v\n%s", err, sgf)
	}
	if score, err := gg.Command("final_score"); err != nil || score != "B+2.5" {
		t.Fatalf("GNU Go's final_score %q (%v), ours B+2.5\n%s", score, err, sgf)
	}
	if dead, err := gg.Command("final_status_list", "dead"); err != nil || dead != "B5" {
		t.Fatalf("GNU Go calls %q dead (%v), we B5", dead, err)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoHandicapOverTheServer: a handicap of 4 starts with black's four
// stones on the 9x9 star points and white to move: black's move is refused,
// white's is played. The SGF says HA[4], AB and PL[W], and GNU Go loads it
// to the same board.
func TestGoHandicapOverTheServer(t *testing.T) {
	t.Parallel()
	gg := gtptest.Start(t, "--level", "0")
	s := testserver.Start(t)
	g := newGoTable(t, s, map[string]any{"handicap": 4, "komi": 0.5})
	first := g.spectator.StateEver(g.room, nil)
	var rows []string
	if err := json.Unmarshal(first.Board, &rows); err != nil {
		t.Fatal(err)
	}
	want := []string{".........", ".........", "..X...X..", ".........", ".........", ".........", "..X...X..", ".........", "........."}
	if !slices.Equal(rows, want) || first.Turn == nil || *first.Turn != 1 {
		t.Fatalf("a handicap of 4: board %v, turn %v", rows, first.Turn)
	}
	if x := extrasOf(t, first); x.Handicap != 4 || x.Komi != nil || x.Removal {
		t.Fatalf("extras %s", first.Raw)
	}
	g.send(g.ana, "room.move", "move", "E5")
	g.ana.WaitError("not_your_turn")
	after := g.play(1, "E5", "D5")
	if string(after.Score) == "" || *after.Turn != 1 {
		t.Fatalf("after two moves: %s", after.Raw)
	}
	sgf := get(t, s.URL+"/api/records/"+g.room+"/sgf").body
	for _, w := range []string{"HA[4]", "KM[0.5]", "AB[cc][gc][cg][gg]", "PL[W]", ";W[ee];B[de]"} {
		if !strings.Contains(string(sgf), w) {
			t.Fatalf("no %s in\n%s", w, sgf)
		}
	}
	path := filepath.Join(t.TempDir(), "handicap.sgf")
	if err := os.WriteFile(path, sgf, 0o644); err != nil {
		t.Fatal(err)
	}
	if toMove, err := gg.LoadSGF(path); err != nil || toMove != "white" {
		t.Fatalf("GNU Go: %q to move (%v)\n%s", toMove, err, sgf)
	}
	if err := json.Unmarshal(after.Board, &rows); err != nil {
		t.Fatal(err)
	}
	if err := gg.CheckBoard(rows); err != nil {
		t.Fatalf("GNU Go's board: %v", err)
	}
	if stones, err := gg.Stones("black", 9); err != nil || len(stones) != 5 {
		t.Fatalf("GNU Go's black stones %v (%v)", stones, err)
	}
}

// TestGoDefaultsEndAtTwoPasses: a room created with the protocol's defaults
// is the seed's game: the same moves end at the second pass, counted as
// the board stands (white, 37 to 10), with none of the new fields; the
// messages of the stone-removal phase are refused there.
func TestGoDefaultsEndAtTwoPasses(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	g := newGoTable(t, s, map[string]any{})
	fin := g.play(0, wallMoves...)
	if fin.Status != "finished" {
		fin = g.spectator.State(g.room, func(m testserver.Msg) bool { return m.Status == "finished" })
	}
	if fin.Result.Reason != "two_passes" || *fin.Result.Winner != 1 || string(fin.Score) != `{"black":10,"white":37}` {
		t.Fatalf("the end: %s", fin.Raw)
	}
	for _, k := range []string{`"komi"`, `"handicap"`, `"removal"`, `"dead"`, `"accepted"`, `"scoreBy"`} {
		if strings.Contains(string(fin.Raw), k) {
			t.Fatalf("%s in a default room's state %s", k, fin.Raw)
		}
	}
	if sgf := string(get(t, s.URL+"/api/records/"+g.room+"/sgf").body); !strings.Contains(sgf, "KM[0.5]") || strings.Contains(sgf, "TB[") {
		t.Fatalf("SGF of the seed's game:\n%s", sgf)
	}
	g.send(g.ana, "room.score.accept")
	g.ana.WaitError("game_over")
}

// TestGoOptionsRefused: room.create's options are checked before anything
// is made, each refusal saying what is wrong; the stone-removal messages
// are refused outside the phase.
func TestGoOptionsRefused(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	c := s.Hello(t, "ana", "")
	for _, tc := range []struct {
		create map[string]any
		code   string
		says   string
	}{
		{map[string]any{"game": "go", "komi": 7}, "bad_request", "half-integer"},
		{map[string]any{"game": "go", "komi": 0}, "bad_request", "draws"},
		{map[string]any{"game": "go", "komi": "6.5"}, "bad_request", `"komi" must be a number`},
		{map[string]any{"game": "go", "handicap": 1}, "bad_request", "handicap 1"},
		{map[string]any{"game": "go", "handicap": 2.5}, "bad_request", "whole number"},
		{map[string]any{"game": "go", "handicap": 3, "setup": map[string]any{"black": []string{"E5"}}}, "bad_setup", "not both"},
		{map[string]any{"game": "morris", "variant": "3", "removal": true}, "bad_request", "no komi, handicap or stone removal"},
	} {
		tc.create["type"], tc.create["opponent"] = "room.create", "human"
		if _, ok := tc.create["variant"]; !ok {
			tc.create["variant"] = "9"
		}
		c.Send(tc.create)
		e := c.WaitError(tc.code)
		if !strings.Contains(e.Message, tc.says) {
			t.Errorf("%v: %q, want it to say %q", tc.create, e.Message, tc.says)
		}
	}
	var lobby struct{ Rooms []json.RawMessage }
	if n := s.GetJSON(t, "/api/rooms", &lobby); n != http.StatusOK || len(lobby.Rooms) != 0 {
		t.Fatalf("GET /api/rooms: %d, %d rooms made", n, len(lobby.Rooms))
	}
	g := newGoTable(t, s, map[string]any{"removal": true})
	g.send(g.ana, "room.score.accept")
	if e := g.ana.WaitError("bad_request"); !strings.Contains(e.Message, "stone-removal phase") {
		t.Fatalf("accept while playing: %q", e.Message)
	}
}
