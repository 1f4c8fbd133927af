package server_test

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// recordDoc is GET /api/records/{room} as a client reads it.
type recordDoc struct {
	Room, Game, Variant, Status string
	Setup                       json.RawMessage
	Seed                        *string
	Players                     []struct {
		Seat          int
		ID, Name, Bot string
	}
	Clock *struct{ Base, Increment float64 }
	Moves []struct {
		Seat int
		Move string
		Ms   int64
	}
	Result *protocol.Result
	Chat   []struct {
		From       string
		Seat       *int
		Role, Text string
		At         int64
	}
	Created, Started, Ended *int64
	Positions               []map[string]json.RawMessage
}

// answer is one HTTP answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, url string) answer {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, body}
}

// getRecord fetches the room's record (with its positions when asked).
func getRecord(t *testing.T, s *testserver.Server, room string, positions bool) recordDoc {
	t.Helper()
	url := s.URL + "/api/records/" + room
	if positions {
		url += "?positions=1"
	}
	a := get(t, url)
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s %s", url, a.status, a.header.Get("Content-Type"), a.body)
	}
	var doc recordDoc
	if err := json.Unmarshal(a.body, &doc); err != nil {
		t.Fatalf("GET %s: %v\n%s", url, err, a.body)
	}
	return doc
}

// wsGame is a two-player game played over the WebSocket protocol with the
// server's time injected, watched by a spectator who chats.
type wsGame struct {
	t       *testing.T
	s       *testserver.Server
	now     *fakeclock.Clock
	room    string
	players [2]*testserver.Client
	spect   *testserver.Client
	// moves and ms are what was played and how long each move was
	// thought over; boards[i] is the board the spectator saw after move i
	// (boards[0]: the start).
	moves  []protocol.LastMove
	ms     []int64
	boards []json.RawMessage
	last   testserver.Msg // the spectator's last state
	// think is how long a random move is thought over (nil: 0.1 to 9.1 s).
	think func(rng *rand.Rand) time.Duration
}

// startGame creates the room (create holds the room.create fields), seats
// bia, lets a spectator join, and has ana and the spectator chat.
func startGame(t *testing.T, s *testserver.Server, now *fakeclock.Clock, create map[string]any) *wsGame {
	t.Helper()
	g := &wsGame{t: t, s: s, now: now}
	g.players[0], g.players[1], g.spect = s.Hello(t, "ana", ""), s.Hello(t, "bia", ""), s.Hello(t, "zé", "")
	create["type"], create["opponent"] = "room.create", "human"
	g.players[0].Send(create)
	g.room = g.players[0].Wait("room.joined", nil).Room
	g.players[1].Send(map[string]any{"type": "room.join", "room": g.room, "as": "player"})
	g.players[1].State(g.room, func(m testserver.Msg) bool { return m.Status == "playing" })
	g.spect.Send(map[string]any{"type": "room.join", "room": g.room, "as": "spectator"})
	g.last = g.spect.State(g.room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Spectators == 1 })
	g.boards = append(g.boards, g.last.Board)
	g.players[0].Send(map[string]any{"type": "room.chat", "room": g.room, "text": "boa sorte"})
	g.spect.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "boa sorte" })
	g.spect.Send(map[string]any{"type": "room.chat", "room": g.room, "text": "olá"})
	g.spect.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "olá" })
	return g
}

// move has the seat to move play mv after thinking think.
func (g *wsGame) move(mv string, think time.Duration) {
	g.t.Helper()
	seat := *g.last.Turn
	g.now.Advance(think)
	g.players[seat].Send(map[string]any{"type": "room.move", "room": g.room, "move": mv})
	prev := g.last.Seq
	g.last = g.spect.State(g.room, func(m testserver.Msg) bool { return m.Seq > prev && m.LastMove != nil })
	if *g.last.LastMove != (protocol.LastMove{Seat: seat, Move: mv}) {
		g.t.Fatalf("played %d %s, the spectator saw %+v", seat, mv, *g.last.LastMove)
	}
	g.moves = append(g.moves, *g.last.LastMove)
	g.ms = append(g.ms, think.Milliseconds())
	g.boards = append(g.boards, g.last.Board)
}

// playRandom plays random legal moves (a pass with probability passOdds)
// until the game ends or plies moves were played.
func (g *wsGame) playRandom(rng *rand.Rand, plies int, passOdds float64) {
	for range plies {
		if g.last.Status != "playing" {
			return
		}
		legal := g.last.Legal
		mv := legal[rng.IntN(len(legal))]
		for mv == "pass" && len(legal) > 1 && rng.Float64() >= passOdds {
			mv = legal[rng.IntN(len(legal))]
		}
		think := time.Duration(100+rng.IntN(9000)) * time.Millisecond
		if g.think != nil {
			think = g.think(rng)
		}
		g.move(mv, think)
	}
}

// passOut passes until the game ends.
func (g *wsGame) passOut() {
	for g.last.Status == "playing" {
		g.move("pass", 1500*time.Millisecond)
	}
}

// finished waits for the spectator to see the end.
func (g *wsGame) finished() {
	g.t.Helper()
	g.last = g.spect.State(g.room, func(m testserver.Msg) bool { return m.Status == "finished" })
}

// checkRecord compares the record the server answers with what the
// players and the spectator saw.
func (g *wsGame) checkRecord(setup string, clock *struct{ Base, Increment float64 }) recordDoc {
	t := g.t
	t.Helper()
	doc := getRecord(t, g.s, g.room, true)
	if doc.Room != g.room || doc.Game != "go" || doc.Status != g.last.Status {
		t.Fatalf("record of %s: room %q game %q status %q", g.room, doc.Room, doc.Game, doc.Status)
	}
	if setup == "" && string(doc.Setup) != "null" || setup != "" && string(doc.Setup) != setup {
		t.Errorf("setup %s, want %s", doc.Setup, setup)
	}
	for i, p := range doc.Players {
		if p.Seat != i || p.ID != g.players[i].Player.ID || p.Name != []string{"ana", "bia"}[i] || p.Bot != "" {
			t.Errorf("player %d: %+v", i, p)
		}
	}
	if (clock == nil) != (doc.Clock == nil) || clock != nil && *clock != *doc.Clock {
		t.Errorf("clock %+v, want %+v", doc.Clock, clock)
	}
	if len(doc.Moves) != len(g.moves) {
		t.Fatalf("%d moves, %d played", len(doc.Moves), len(g.moves))
	}
	for i, m := range doc.Moves {
		if m.Seat != g.moves[i].Seat || m.Move != g.moves[i].Move || m.Ms != g.ms[i] {
			t.Fatalf("move %d: %+v, played %+v in %d ms", i+1, m, g.moves[i], g.ms[i])
		}
	}
	switch res := g.last.Result; {
	case res == nil && doc.Result != nil, res != nil && (doc.Result == nil || doc.Result.Reason != res.Reason ||
		(res.Winner == nil) != (doc.Result.Winner == nil) || res.Winner != nil && *res.Winner != *doc.Result.Winner):
		t.Errorf("result %+v, the room says %+v", doc.Result, res)
	}
	if len(doc.Chat) != 2 || doc.Chat[0].From != "ana" || doc.Chat[0].Role != "player" || doc.Chat[0].Seat == nil ||
		*doc.Chat[0].Seat != 0 || doc.Chat[0].Text != "boa sorte" || doc.Chat[1].From != "zé" || doc.Chat[1].Role != "spectator" ||
		doc.Chat[1].Seat != nil || doc.Chat[1].Text != "olá" || doc.Chat[1].At < doc.Chat[0].At {
		t.Errorf("chat %+v", doc.Chat)
	}
	if doc.Created == nil || doc.Started == nil || (doc.Ended != nil) != (g.last.Status == "finished") {
		t.Errorf("created %v started %v ended %v", doc.Created, doc.Started, doc.Ended)
	}
	if doc.Ended != nil {
		var total int64
		for _, ms := range g.ms {
			total += ms
		}
		if *doc.Ended < *doc.Started+total {
			t.Errorf("ended %d before started %d plus the %d ms of the moves", *doc.Ended, *doc.Started, total)
		}
	}
	// Every position is the board the spectator saw, ply by ply.
	if len(doc.Positions) != len(g.boards) {
		t.Fatalf("%d positions for %d moves", len(doc.Positions), len(g.moves))
	}
	for i, p := range doc.Positions {
		if !jsonSame(t, p["board"], g.boards[i]) {
			t.Fatalf("position %d: board %s, the spectator saw %s", i, p["board"], g.boards[i])
		}
		if _, ok := p["stones"]; !ok {
			t.Fatalf("position %d has no stones (the engine's extra fields): %v", i, p)
		}
	}
	last := doc.Positions[len(doc.Positions)-1]
	if !jsonSame(t, last["score"], g.last.Score) {
		t.Errorf("final score %s, the room's %s", last["score"], g.last.Score)
	}
	if wantTurn := "null"; g.last.Status == "playing" {
		wantTurn = strconv.Itoa(*g.last.Turn)
		if string(last["turn"]) != wantTurn {
			t.Errorf("final turn %s, want %s", last["turn"], wantTurn)
		}
	} else if string(last["turn"]) != wantTurn {
		t.Errorf("final turn %s in a finished game", last["turn"])
	}
	return doc
}

func jsonSame(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// download GETs the room's record in format ext ("sgf", "txt"), fails
// unless it comes as an attachment of contentType named after the room,
// and returns its body.
func (g *wsGame) download(ext, contentType string) []byte {
	t := g.t
	t.Helper()
	a := get(t, g.s.URL+"/api/records/"+g.room+"/"+ext)
	if a.status != http.StatusOK || a.header.Get("Content-Type") != contentType ||
		a.header.Get("Content-Disposition") != `attachment; filename=tabuleiro-`+g.room+`.`+ext {
		t.Fatalf("GET %s: %d %v %s", ext, a.status, a.header, a.body)
	}
	return a.body
}

// checkSGF downloads the room's SGF, loads it in the real GNU Go and
// compares GNU Go's board with the final board the spectator saw, stone by
// stone; it returns the SGF.
func (g *wsGame) checkSGF(gg *gtp.Client) string {
	t := g.t
	t.Helper()
	sgf := g.download("sgf", "application/x-go-sgf; charset=utf-8")
	path := filepath.Join(t.TempDir(), "game.sgf")
	if err := os.WriteFile(path, sgf, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gg.LoadSGF(path); err != nil {
		t.Fatalf("GNU Go refuses the SGF: %v\n%s", err, sgf)
	}
	var rows []string
	if err := json.Unmarshal(g.last.Board, &rows); err != nil {
		t.Fatal(err)
	}
	if err := gg.CheckBoard(rows); err != nil {
		t.Fatalf("GNU Go's board is not the room's: %v\n%s", err, sgf)
	}
	return string(sgf)
}

// checkText downloads the room's plain-text record: its header and one
// line a move.
func (g *wsGame) checkText() {
	t := g.t
	t.Helper()
	txt := g.download("txt", "text/plain; charset=utf-8")
	head, body, _ := strings.Cut(string(txt), "\n\n")
	if !strings.HasPrefix(head, "Format: Tabuleiro record 1\n") || !strings.Contains(head, "\nRoom: "+g.room+"\n") ||
		!strings.Contains(head, "\nStatus: "+g.last.Status+"\n") || !strings.HasSuffix(head, "\nMoves: "+strconv.Itoa(len(g.moves))) {
		t.Fatalf("txt header:\n%s", head)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	for i, m := range g.moves {
		if want := strconv.Itoa(i+1) + ". " + strconv.Itoa(m.Seat) + " " + m.Move + " " + strconv.FormatInt(g.ms[i], 10) + "ms"; lines[i] != want {
			t.Fatalf("txt line %d %q, want %q", i+1, lines[i], want)
		}
	}
}

// TestGoRecordsOverHTTP: go games played to the end over the WebSocket
// protocol (9x9 from setup stones and 19x19 to two passes, one resigned,
// one lost on time) answer GET /api/records/{room} with what was played,
// said and seen, position by position; their SGF loads in the real GNU Go
// to the room's final board; their plain text lists the moves.
func TestGoRecordsOverHTTP(t *testing.T) {
	t.Parallel()
	gg := gtptest.Start(t, "--level", "0")
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	const setup = `{"black":["C3","D4","E5","G7"],"white":["C7","D6","F4","G3"],"toMove":"white"}`
	for _, tc := range []struct {
		name   string
		create map[string]any
		setup  string
		clock  *struct{ Base, Increment float64 }
		play   func(g *wsGame, rng *rand.Rand)
		re     string // the SGF's RE prefix
	}{
		{"9x9 from a setup, two passes", map[string]any{"game": "go", "variant": "9", "setup": json.RawMessage(setup)}, setup, nil,
			func(g *wsGame, rng *rand.Rand) { g.playRandom(rng, 90, 0.02); g.passOut() }, ""},
		{"19x19, two passes", map[string]any{"game": "go", "variant": "19"}, "", nil,
			func(g *wsGame, rng *rand.Rand) { g.playRandom(rng, 260, 0); g.passOut() }, ""},
		{"9x9 resigned", map[string]any{"game": "go", "variant": "9"}, "", nil,
			func(g *wsGame, rng *rand.Rand) {
				g.playRandom(rng, 41, 0)
				g.players[*g.last.Turn].Send(map[string]any{"type": "room.resign", "room": g.room})
				g.finished()
			}, "RE[B+R]"},
		// The room's flag timer waits in real time for the time left by
		// the injected clock: one second.
		{"19x19 lost on time", map[string]any{"game": "go", "variant": "19", "clock": map[string]any{"base": 1}}, "",
			&struct{ Base, Increment float64 }{1, 0},
			func(g *wsGame, rng *rand.Rand) {
				g.think = func(rng *rand.Rand) time.Duration { return time.Duration(1+rng.IntN(30)) * time.Millisecond }
				g.playRandom(rng, 30, 0)
				g.now.Advance(time.Second)
				g.finished()
			}, "RE[W+T]"}, // 30 moves: black is to move when its time runs out
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := startGame(t, s, now, tc.create)
			g.t = t
			tc.play(g, rand.New(rand.NewPCG(uint64(len(tc.name)), 16)))
			doc := g.checkRecord(tc.setup, tc.clock)
			t.Logf("%d moves, winner %d by %s", len(g.moves), *doc.Result.Winner, doc.Result.Reason)
			sgf := g.checkSGF(gg)
			g.checkText()
			re := tc.re
			if re == "" { // two passes: the winner by area, with komi 0.5
				var sc struct{ Black, White int }
				_ = json.Unmarshal(g.last.Score, &sc)
				re = "RE[B+"
				if *doc.Result.Winner == 1 {
					re = "RE[W+"
				}
				if doc.Result.Reason != "two_passes" || (*doc.Result.Winner == 0) != (sc.Black > sc.White) {
					t.Fatalf("result %+v with score %+v", doc.Result, sc)
				}
			}
			if !strings.Contains(sgf, re) || !strings.Contains(sgf, "PB[ana]\nPW[bia]\n") {
				t.Fatalf("no %s or players in\n%s", re, sgf)
			}
			if tc.setup != "" && (!strings.Contains(sgf, "AB[gc][ee][df][cg]\nAW[cc][dd][ff][gg]\nPL[W]\n")) {
				t.Fatalf("setup stones missing from\n%s", sgf)
			}
			if doc.Seed == nil {
				t.Errorf("a finished game's record has no seed")
			}
		})
	}
}

// TestRecordOfALiveRoom: a game in progress answers the game so far: no
// result, no end, no seed, the side to move in its last position; its SGF
// has no result.
func TestRecordOfALiveRoom(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	g := startGame(t, s, now, map[string]any{"game": "go", "variant": "13"})
	g.move("G7", 2*time.Second)
	g.move("pass", 800*time.Millisecond)
	g.move("F6", 1234*time.Millisecond)
	doc := g.checkRecord("", nil)
	if doc.Result != nil || doc.Ended != nil || doc.Seed != nil || doc.Status != "playing" {
		t.Fatalf("live record: result %v ended %v seed %v status %s", doc.Result, doc.Ended, doc.Seed, doc.Status)
	}
	if sgf := g.checkSGF(gtptest.Start(t, "--level", "0")); strings.Contains(sgf, "RE[") {
		t.Fatalf("a live game's SGF has a result:\n%s", sgf)
	}
	g.checkText()
}

// TestRecordErrors: clear JSON errors and nothing else.
func TestRecordErrors(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.MaxPositionsBytes = 100 })
	a := s.Hello(t, "ana", "")
	a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "bot", "level": "facil"})
	room := a.Wait("room.joined", nil).Room
	st := a.State(room, func(m testserver.Msg) bool { return m.Turn != nil && *m.Turn == 0 })
	for _, mv := range []string{st.Legal[0]} {
		a.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
	}
	a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Seat == 1 })
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/records/nosuchroom", 404, "unknown_room"},
		{"/api/records/nosuchroom/sgf", 404, "unknown_room"},
		{"/api/records/nosuchroom/txt", 404, "unknown_room"},
		{"/api/records/" + strings.Repeat("x", 65), 404, "unknown_room"},
		{"/api/records/" + room + "/sgf", 404, "bad_request"},
		{"/api/records/" + room + "?positions=yes", 400, "bad_request"},
		// The positions of a morris game of two moves pass 100 bytes.
		{"/api/records/" + room + "?positions=1", 413, "too_large"},
	} {
		a := get(t, s.URL+tc.path)
		var e protocol.HTTPError
		if a.status != tc.status || a.header.Get("Content-Type") != "application/json" || json.Unmarshal(a.body, &e) != nil ||
			e.Error.Code != protocol.Code(tc.code) || e.Error.Message == "" {
			t.Errorf("GET %s: %d %s, want %d %s", tc.path, a.status, a.body, tc.status, tc.code)
		}
	}
	// What does work for a morris game: the record, and its text.
	if doc := getRecord(t, s, room, false); doc.Game != "morris" || len(doc.Moves) != 2 || doc.Positions != nil ||
		doc.Players[1].Bot != "facil" || doc.Players[1].ID != "" {
		t.Fatalf("morris record %+v", doc)
	}
	if a := get(t, s.URL+"/api/records/"+room+"/txt"); a.status != 200 || !strings.Contains(string(a.body), "Seat 1 bot: facil\n") {
		t.Fatalf("morris txt: %d\n%s", a.status, a.body)
	}
}

// TestRecordsOnRedisOutliveTheServer: on Redis, the records of a finished
// morris game and of a go game in progress are read from the store by a
// new server after the first one stopped, as they were.
func TestRecordsOnRedisOutliveTheServer(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	now := fakeclock.New()
	s1 := testserver.Start(t, func(c *server.Config) { c.Store, c.Now = open(), now.Now })
	m := startGame(t, s1, now, map[string]any{"game": "morris", "variant": "3"})
	for _, mv := range []string{"a1", "b2", "c3", "a3", "c1", "b1"} {
		m.move(mv, 700*time.Millisecond)
	}
	m.players[0].Send(map[string]any{"type": "room.resign", "room": m.room})
	m.finished()
	gm := startGame(t, s1, now, map[string]any{"game": "go", "variant": "9"})
	gm.move("E5", time.Second)
	gm.move("D4", 2*time.Second)
	before := map[string]answer{}
	for _, path := range []string{m.room, m.room + "?positions=1", m.room + "/txt", gm.room + "?positions=1", gm.room + "/sgf"} {
		before[path] = get(t, s1.URL+"/api/records/"+path)
		if before[path].status != 200 {
			t.Fatalf("GET %s: %d %s", path, before[path].status, before[path].body)
		}
	}
	var doc recordDoc
	_ = json.Unmarshal(before[m.room].body, &doc)
	if doc.Status != "finished" || doc.Result == nil || doc.Result.Reason != "resign" || *doc.Result.Winner != 1 || len(doc.Moves) != 6 || len(doc.Chat) != 2 {
		t.Fatalf("morris record %s", before[m.room].body)
	}
	s1.Stop()
	s2 := testserver.Start(t, func(c *server.Config) { c.Store, c.Now = open(), now.Now })
	for path, want := range before {
		if got := get(t, s2.URL+"/api/records/"+path); got.status != 200 || string(got.body) != string(want.body) {
			t.Fatalf("GET %s after the restart: %d\n%s\nbefore:\n%s", path, got.status, got.body, want.body)
		}
	}
	if n := s2.Rooms.Len(); n != 0 {
		t.Fatalf("reading records started %d rooms", n)
	}
}
