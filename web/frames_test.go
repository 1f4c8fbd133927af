package web_test

// The room page's model (static/js/room/model.js) is tested with node
// (web/unit, `node --test`) over frames the server really sends: one whole
// game of each of the five games, recorded here from the running server
// and kept in testdata/frames/<game>.json. This test plays the games again
// and fails when the server's frames no longer match the fixtures, so the
// model is never tested against a shape the server has stopped sending.
//
//	go test ./web/ -run TestRoomFrames -update    # rewrites the fixtures
//
// The server runs on a fake clock (the clocks, abortAt, chat times and the
// record's times are exact), both seats are people playing scripted or
// "first legal move" games, and the random ids are renamed (room-1,
// player-ana, ...), so a fixture is the same on every run. room.presence
// frames are kept in the fixtures but not compared: when one is sent
// depends on the real time between joins.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

var (
	seedRe    = regexp.MustCompile(`"seed":"[0-9]+"`)
	createdRe = regexp.MustCompile(`"created":[0-9]+`)
)

var update = flag.Bool("update", false, "rewrite testdata/frames/*.json from the running server")

// table is one room with its three connections: ana in seat 0 (whole
// room.state frames), bia in seat 1 and a spectator, zé, who joins during
// the game (both asking for room.patch, as the web client does).
type table struct {
	t      *testing.T
	s      *testserver.Server
	now    *fakeclock.Clock
	p0, p1 *testserver.Client
	sp     *testserver.Client // nil until watch
	room   string
	next   string // the rematch's room, once there is one
	seq    int64
	last   testserver.Msg // ana's last room.state
	nextID int
}

// hello connects name, asking for patches when patch is set.
func hello(t *testing.T, s *testserver.Server, name string, patch bool) *testserver.Client {
	t.Helper()
	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := map[string]any{"type": "hello", "name": name}
	if patch {
		msg["features"] = []string{"patch"}
	}
	c.Send(msg)
	w := c.Wait("welcome", nil)
	c.Player, c.Token = w.Player, w.Token
	return c
}

// newTable creates the room with create's fields and seats bia.
func newTable(t *testing.T, s *testserver.Server, now *fakeclock.Clock, create map[string]any) *table {
	t.Helper()
	tb := &table{t: t, s: s, now: now, p0: hello(t, s, "ana", false), p1: hello(t, s, "bia", true)}
	msg := map[string]any{"type": "room.create", "id": "create", "opponent": "human", "seat": 0}
	for k, v := range create {
		msg[k] = v
	}
	tb.p0.Send(msg)
	tb.room = tb.p0.Wait("room.joined", nil).Room
	tb.last = tb.p0.State(tb.room, nil)
	tb.p1.Send(map[string]any{"type": "room.join", "id": "join", "room": tb.room, "as": "player"})
	tb.last = tb.p0.State(tb.room, func(m testserver.Msg) bool { return m.Status == "playing" })
	tb.seq = tb.last.Seq
	tb.p1.State(tb.room, func(m testserver.Msg) bool { return m.Status == "playing" })
	return tb
}

// sync waits until every member holds seq (a room.state or room.patch of
// it), and keeps ana's state.
func (tb *table) sync() {
	tb.t.Helper()
	at := func(m testserver.Msg) bool {
		return m.Room == tb.room && !m.Derived && (m.Type == "room.state" || m.Type == "room.patch") && m.Seq >= tb.seq
	}
	tb.last = tb.p0.Wait("room.state", at)
	tb.p1.Wait("", at)
	if tb.sp != nil {
		tb.sp.Wait("", at)
	}
}

// change sends a command that changes the room (its seq) from c.
func (tb *table) change(c *testserver.Client, typ string, fields map[string]any) {
	tb.t.Helper()
	msg := map[string]any{"type": typ, "room": tb.room}
	for k, v := range fields {
		msg[k] = v
	}
	c.Send(msg)
	tb.seq++
	tb.sync()
}

func (tb *table) move(c *testserver.Client, mv string) {
	tb.t.Helper()
	tb.change(c, "room.move", map[string]any{"move": mv})
}

// seat is the client in seat k.
func (tb *table) seat(k int) *testserver.Client {
	if k == 0 {
		return tb.p0
	}
	return tb.p1
}

// firstLegal plays the first legal move of the seat in turn until the
// game ends or max moves were played.
func (tb *table) firstLegal(max int) {
	tb.t.Helper()
	for i := 0; i < max && tb.last.Status == "playing"; i++ {
		if tb.last.Turn == nil || len(tb.last.Legal) == 0 {
			tb.t.Fatalf("no move to play in %s", tb.last.Raw)
		}
		tb.move(tb.seat(*tb.last.Turn), tb.last.Legal[0])
	}
}

// watch joins zé as a spectator and waits until the players know.
func (tb *table) watch() {
	tb.t.Helper()
	tb.sp = hello(tb.t, tb.s, "zé", true)
	tb.sp.Send(map[string]any{"type": "room.join", "id": "watch", "room": tb.room, "as": "spectator"})
	tb.sp.State(tb.room, nil)
	for _, c := range []*testserver.Client{tb.p0, tb.p1} {
		c.Wait("room.presence", func(m testserver.Msg) bool { return m.Room == tb.room && m.Spectators == 1 })
	}
}

// say sends a chat line from c and waits for it where it goes.
func (tb *table) say(c *testserver.Client, text string, to ...*testserver.Client) {
	tb.t.Helper()
	c.Send(map[string]any{"type": "room.chat", "room": tb.room, "text": text})
	for _, r := range to {
		r.Wait("room.chat", func(m testserver.Msg) bool { return m.Room == tb.room && m.Text == text })
	}
}

// refused sends msg from c and waits for the error that answers it.
func (tb *table) refused(c *testserver.Client, msg map[string]any, code string) {
	tb.t.Helper()
	tb.nextID++
	id := fmt.Sprintf("c%d", tb.nextID)
	msg["id"] = id
	if _, ok := msg["room"]; !ok {
		msg["room"] = tb.room
	}
	c.Send(msg)
	if e := c.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"`+id+`"` }); e.Code != code {
		tb.t.Fatalf("%v: %s, want %s", msg, e.Raw, code)
	}
}

// fixture is what the connections received, with the game's record.
func (tb *table) fixture(game, variant string) []byte {
	tb.t.Helper()
	var rec json.RawMessage
	if code := tb.s.GetJSON(tb.t, "/api/records/"+tb.room+"?positions=1", &rec); code != 200 {
		tb.t.Fatalf("GET /api/records/%s: %d", tb.room, code)
	}
	names := map[string]string{tb.room: "room-1"}
	if tb.next != "" {
		names[tb.next] = "room-2"
	}
	for _, c := range []*testserver.Client{tb.p0, tb.p1, tb.sp} {
		names[c.Player.ID] = "player-" + c.Player.Name
		names[c.Token] = "token-" + c.Player.Name
	}
	rename := func(b []byte) []byte {
		for from, to := range names {
			b = bytes.ReplaceAll(b, []byte(from), []byte(to))
		}
		// Two values the fake clock does not fix: the seed of the game's
		// random generator and the moment the room was made.
		b = seedRe.ReplaceAll(b, []byte(`"seed":"1"`))
		return createdRe.ReplaceAll(b, []byte(fmt.Sprintf(`"created":%d`, fakeclock.New().Now().UnixMilli())))
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "{\"game\":%q,\"variant\":%q,\n", game, variant)
	for i, who := range []struct {
		key string
		c   *testserver.Client
	}{{"p0", tb.p0}, {"p1", tb.p1}, {"spectator", tb.sp}} {
		fmt.Fprintf(&out, "%q:[\n", who.key)
		var lines [][]byte
		for _, m := range who.c.Log() {
			if m.Type == "welcome" || m.Room == tb.room || m.Type == "match.found" {
				lines = append(lines, rename(m.Raw))
			}
		}
		out.Write(bytes.Join(lines, []byte(",\n")))
		out.WriteString("\n]")
		if i < 2 {
			out.WriteString(",\n")
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, rec); err != nil {
		tb.t.Fatal(err)
	}
	fmt.Fprintf(&out, ",\n\"record\":%s}\n", rename(compact.Bytes()))
	return out.Bytes()
}

// withoutPresence drops the room.presence frames (one a line) of a fixture.
func withoutPresence(b []byte) string {
	lines := strings.Split(string(b), "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool {
		return strings.Contains(l, `"type":"room.presence"`)
	}), "\n")
}

// TestRoomFrames records (with -update) or checks the model's fixtures.
func TestRoomFrames(t *testing.T) {
	games := []struct {
		game, variant string
		play          func(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table
		name          string // the fixture's name, when not the game's
	}{
		{"orbito", "2", playOrbito, ""},
		{"morris", "3", playMorris, ""},
		{"go", "9", playGo, ""},
		{"2048", "race", play2048, ""},
		{"queens", "tradicional", playQueens, ""},
		{"go", "9", playGoScoring, "go-scoring"},
	}
	for _, g := range games {
		name := cmp.Or(g.name, g.game)
		t.Run(name, func(t *testing.T) {
			now := fakeclock.New()
			s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
			tb := g.play(t, s, now)
			if tb.last.Status != "finished" {
				t.Fatalf("the game did not end: %s", tb.last.Raw)
			}
			got := tb.fixture(g.game, g.variant)
			path := filepath.Join("testdata", "frames", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./web/ -run TestRoomFrames -update writes it)", err)
			}
			if g, w := withoutPresence(got), withoutPresence(want); g != w {
				gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
				for i := range max(len(gl), len(wl)) {
					if i >= len(gl) || i >= len(wl) || gl[i] != wl[i] {
						t.Fatalf("%s: the server's frames changed (go test ./web/ -run TestRoomFrames -update rewrites the fixture, "+
							"then run node --test web/unit/); first difference, line %d:\n got: %s\nwant: %s",
							path, i+1, lineAt(gl, i), lineAt(wl, i))
					}
				}
			}
		})
	}
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}

// playOrbito: first legal moves to the end, with chat, a spectator from
// the second move and a refused move.
func playOrbito(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	tb := newTable(t, s, now, map[string]any{"game": "orbito", "variant": "2"})
	tb.firstLegal(2)
	tb.watch()
	tb.say(tb.p0, "boa sorte", tb.p0, tb.p1, tb.sp)
	tb.say(tb.sp, "olá", tb.sp)
	tb.refused(tb.p1, map[string]any{"type": "room.move", "move": "a1"}, "not_your_turn")
	tb.firstLegal(40)
	return tb
}

// playMorris: a game with a clock (60 s + 2), time passing between moves,
// a draw offered and declined, a takeback asked and granted, the
// spectators' chat switched off and on, a mute, a resignation and a
// rematch both players ask for.
func playMorris(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	tb := newTable(t, s, now, map[string]any{"game": "morris", "variant": "3", "clock": map[string]any{"base": 60, "increment": 2}})
	now.Advance(2 * time.Second)
	tb.move(tb.p0, "b2")
	now.Advance(3 * time.Second)
	tb.move(tb.p1, "a1")
	tb.watch()
	now.Advance(1500 * time.Millisecond)
	tb.change(tb.p0, "room.draw.offer", nil)
	tb.change(tb.p1, "room.draw.decline", nil)
	now.Advance(4 * time.Second)
	tb.move(tb.p0, "c1")
	tb.change(tb.p1, "room.takeback.ask", nil)
	tb.change(tb.p0, "room.takeback.accept", nil)
	tb.say(tb.p0, "boa sorte", tb.p0, tb.p1, tb.sp)
	tb.say(tb.sp, "força, bia", tb.sp)
	tb.sp.Send(map[string]any{"type": "room.chat.mute", "room": tb.room, "player": tb.p0.Player.ID})
	tb.sp.Wait("room.chat.muted", nil)
	tb.say(tb.p0, "obrigada", tb.p0, tb.p1)
	tb.change(tb.p0, "room.chat.spectators", map[string]any{"on": false})
	tb.refused(tb.sp, map[string]any{"type": "room.chat", "text": "?"}, "bad_request")
	tb.change(tb.p0, "room.chat.spectators", map[string]any{"on": true})
	for i := 0; i < 6; i++ {
		now.Advance(time.Duration(1+i) * time.Second)
		tb.firstLegal(1)
	}
	tb.change(tb.p1, "room.resign", nil)
	tb.change(tb.p0, "room.rematch", nil)
	tb.p1.Send(map[string]any{"type": "room.rematch", "room": tb.room})
	tb.next = tb.p0.Wait("match.found", nil).Room
	tb.p1.Wait("match.found", nil)
	tb.seq++
	tb.sync()
	return tb
}

// playGo: a capture and two passes (the area at the end), watched from
// the third move.
func playGo(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	tb := newTable(t, s, now, map[string]any{"game": "go", "variant": "9"})
	tb.move(tb.p0, "B1")
	tb.move(tb.p1, "A1")
	tb.watch()
	tb.move(tb.p0, "A2") // takes A1
	tb.refused(tb.p1, map[string]any{"type": "room.move", "move": "A1"}, "illegal_move")
	tb.move(tb.p1, "E5")
	tb.move(tb.p0, "pass")
	tb.move(tb.p1, "pass")
	return tb
}

// playGoScoring: go with komi 7.5 and stone removal (docs/protocol.md, "Komi,
// handicap and stone removal"): black walls column E, white column F,
// white plays B5 inside black's area and both pass; the server proposes B5
// dead; white toggles it alive; black resumes the game with A5; both pass
// again, the proposal comes again, and both accept.
func playGoScoring(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	tb := newTable(t, s, now, map[string]any{"game": "go", "variant": "9", "komi": 7.5, "removal": true})
	for row := 1; row <= 9; row++ {
		tb.move(tb.p0, fmt.Sprintf("E%d", row))
		tb.move(tb.p1, fmt.Sprintf("F%d", row))
		if row == 2 {
			tb.watch()
		}
	}
	tb.move(tb.p0, "C3")
	tb.move(tb.p1, "B5")
	passes := func(first, second *testserver.Client) {
		tb.move(first, "pass")
		tb.move(second, "pass") // the phase begins
		tb.seq++                // the server's proposal
		tb.sync()
	}
	passes(tb.p0, tb.p1)
	tb.change(tb.p1, "room.score.toggle", map[string]any{"point": "B5"})
	tb.refused(tb.p0, map[string]any{"type": "room.move", "move": "pass"}, "illegal_move")
	tb.move(tb.p0, "A5") // resumes
	passes(tb.p1, tb.p0)
	tb.change(tb.p0, "room.score.accept", nil)
	tb.change(tb.p1, "room.score.accept", nil)
	return tb
}

// play2048: a race from a nearly full board (a short game), each seat
// playing its first legal move in turn until both boards are finished.
func play2048(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	setup := map[string]any{"board": [][]int{{2, 4, 8, 16}, {32, 64, 128, 256}, {2, 4, 8, 0}, {4, 2, 0, 0}}, "score": 0, "seed": 42}
	tb := newTable(t, s, now, map[string]any{"game": "2048", "variant": "race", "setup": setup})
	for i := 0; tb.last.Status == "playing"; i++ {
		if i == 1 {
			tb.watch()
		}
		moved := false
		for k := range 2 {
			if l := tb.last.LegalBy[fmt.Sprint(k)]; len(l) > 0 && tb.last.Status == "playing" {
				tb.move(tb.seat(k), l[0])
				moved = true
			}
		}
		if !moved || i > 100 {
			t.Fatalf("the race does not end: %s", tb.last.Raw)
		}
	}
	return tb
}

// playQueens: first legal moves to the end, watched from the third.
func playQueens(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *table {
	tb := newTable(t, s, now, map[string]any{"game": "queens", "variant": "tradicional"})
	tb.firstLegal(2)
	tb.watch()
	tb.firstLegal(100)
	return tb
}
