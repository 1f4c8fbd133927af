package loadgen

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestViewFollowsStatesAndPatches(t *testing.T) {
	steps := []struct {
		frame       string
		newMove, ok bool
		seq         int64
		turn        int
		legal       int
	}{
		{`{"type":"room.state","room":"r","seq":5,"status":"playing","turn":0,"legal":["A1","B1"],"lastMove":null}`, false, true, 5, 0, 2},
		{`{"type":"room.patch","room":"r","seq":6,"turn":1,"lastMove":{"seat":0,"move":"A1"},"legal":[]}`, true, true, 6, 1, 0},
		{`{"type":"room.patch","room":"r","seq":7,"spectators":2}`, false, true, 7, 1, 0},
		{`{"type":"room.patch","room":"r","base":7,"seq":9,"turn":0,"lastMove":{"seat":1,"move":"B1"},"legal":["C1"]}`, true, true, 9, 0, 1},
		{`{"type":"room.patch","room":"r","seq":11,"turn":1}`, false, false, 9, 0, 1}, // a gap
		{`{"type":"room.state","room":"r","seq":12,"status":"finished","turn":null,"legal":[],"lastMove":{"seat":1,"move":"B1"}}`, false, true, 12, -1, 0},
	}
	v := &View{Turn: -1}
	for i, s := range steps {
		f, err := ParseFrame([]byte(s.frame))
		if err != nil {
			t.Fatal(err)
		}
		newMove, ok := v.apply(f)
		if legal := v.Legal().Strings(); newMove != s.newMove || ok != s.ok || v.Seq != s.seq || v.Turn != s.turn || len(legal) != s.legal {
			t.Fatalf("step %d: newMove %v ok %v seq %d turn %d legal %v; want %v %v %d %d %d",
				i, newMove, ok, v.Seq, v.Turn, legal, s.newMove, s.ok, s.seq, s.turn, s.legal)
		}
	}
	if !v.Finished {
		t.Fatal("finished state not seen")
	}
}

// movesOf is legal as the server sends it.
func movesOf(legal ...string) Moves {
	if legal == nil {
		return nil
	}
	b, _ := json.Marshal(legal)
	return b
}

func TestChooseMove(t *testing.T) {
	tests := []struct {
		game  string
		size  int
		legal []string
		k     int
		want  string
	}{
		{"go", 19, []string{"A1", "B1", "pass"}, 0, "A1"},
		{"go", 19, []string{"A1", "B1", "pass"}, 1, "B1"},
		{"go", 19, []string{"A1", "C2", "pass"}, 2, "C2"},   // point 2 (C1) taken: next legal
		{"go", 19, []string{"A1", "pass"}, 360, "A1"},       // wraps around
		{"go", 19, []string{"S19", "pass"}, 361 + 5, "S19"}, // k mod 361
		{"go", 19, []string{"C2", "A1", "B1"}, 1, "B1"},     // the list's order does not matter
		{"go", 9, []string{"pass"}, 0, ""},                  // only a pass
		{"go", 9, []string{"Z1", "A99", "pass"}, 0, ""},     // nothing on the board
		{"go", 9, []string{"A01", "J9"}, 0, "A1"},           // a row read as strconv.Atoi reads it
		{"orbito", 0, []string{"a1", "b2", "c3"}, 4, "b2"},  // k mod len
		{"orbito", 0, []string{"pass", "a1", "pass", "b2"}, 3, "b2"},
		{"morris", 0, nil, 0, ""},
	}
	for _, tc := range tests {
		legal := movesOf(tc.legal...)
		if got := ChooseMove(tc.game, tc.size, legal, tc.k); got != tc.want {
			t.Errorf("ChooseMove(%s, %d, %s, %d) = %q, want %q", tc.game, tc.size, legal, tc.k, got, tc.want)
		}
		if ref := chooseMoveRef(tc.game, tc.size, tc.legal, tc.k); ref != tc.want {
			t.Errorf("chooseMoveRef(%s, %d, %v, %d) = %q, want %q", tc.game, tc.size, tc.legal, tc.k, ref, tc.want)
		}
	}
	// An escaped move is the move.
	if got := ChooseMove("go", 19, Moves(`[ "\u0042\u0031" , null ]`), 0); got != "B1" {
		t.Errorf("escaped B1: got %q", got)
	}
}

// chooseMoveRef is ChooseMove as it was written over decoded strings: the
// reference the raw version is checked against.
func chooseMoveRef(game string, size int, legal []string, k int) string {
	if game != "go" || size <= 0 || size > len(goLetters) {
		var moves []string
		for _, m := range legal {
			if m != "pass" {
				moves = append(moves, m)
			}
		}
		if len(moves) == 0 {
			return ""
		}
		return moves[k%len(moves)]
	}
	n := size * size
	free := make([]bool, n)
	found := false
	for _, m := range legal {
		if len(m) < 2 || len(m) > 3 {
			continue
		}
		x := int(m[0] - 'A')
		y, err := strconv.Atoi(m[1:])
		if x < 0 || x >= size || err != nil || y < 1 || y > size {
			continue
		}
		free[(y-1)*size+x] = true
		found = true
	}
	if !found {
		return ""
	}
	for i := 0; i < n; i++ {
		if p := (k + i) % n; free[p] {
			return string(goLetters[p%size]) + strconv.Itoa(p/size+1)
		}
	}
	return ""
}

func TestParseProc(t *testing.T) {
	kb, err := parseRSS("Name:\tlobby\nVmPeak:\t  99 kB\nVmRSS:\t   12345 kB\n")
	if err != nil || kb != 12345 {
		t.Fatalf("parseRSS = %d, %v", kb, err)
	}
	for _, bad := range []string{"", "VmRSS:", "VmRSS: x kB"} {
		if _, err := parseRSS(bad); err == nil {
			t.Errorf("parseRSS(%q) accepted", bad)
		}
	}
	cpu, err := parseStatCPU("42 (lob by) S 1 2 3 4 5 6 7 8 9 10 250 150 0 0")
	if err != nil || cpu != 4 {
		t.Fatalf("parseStatCPU = %v, %v", cpu, err)
	}
	if _, err := parseStatCPU("42 (x) S 1"); err == nil {
		t.Error("short stat accepted")
	}
}

// refFrame is the reference decoding of a server message, with
// encoding/json: the fields the parser reads, keys matched exactly (the
// parser does not take "TYPE" for "type", as json.Unmarshal into a struct
// would), the last of repeated keys winning whole, null a zero value or,
// for the optional fields, absence. Everything else must be valid JSON.
type refFrame struct {
	Type, Room, Code, Message, Status, Next, Token, PlayerID string

	Seq, Base        int64
	HasBase          bool
	Turn, Seat       int
	HasTurn, HasSeat bool
	LastMove         [2]any // seat, move
	HasLastMove      bool
	Legal            []string
	HasLegal         bool
}

func refParse(data []byte) (*refFrame, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	f := &refFrame{}
	for k, dst := range map[string]*string{"type": &f.Type, "room": &f.Room, "code": &f.Code, "message": &f.Message,
		"status": &f.Status, "next": &f.Next, "token": &f.Token} {
		if raw, ok := top[k]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, err
			}
		}
	}
	if raw, ok := top["seq"]; ok {
		if err := json.Unmarshal(raw, &f.Seq); err != nil {
			return nil, err
		}
	}
	var base *int64
	var seat *int
	if raw, ok := top["base"]; ok {
		if err := json.Unmarshal(raw, &base); err != nil {
			return nil, err
		}
	}
	if raw, ok := top["seat"]; ok {
		if err := json.Unmarshal(raw, &seat); err != nil {
			return nil, err
		}
	}
	if base != nil {
		f.Base, f.HasBase = *base, true
	}
	if seat != nil {
		f.Seat, f.HasSeat = *seat, true
	}
	if raw, ok := top["turn"]; ok {
		f.HasTurn, f.Turn = true, -1
		var t int
		if string(raw) != "null" && json.Unmarshal(raw, &t) == nil {
			f.Turn = t
		}
	}
	if raw, ok := top["legal"]; ok {
		if err := json.Unmarshal(raw, &f.Legal); err != nil {
			return nil, err
		}
		f.HasLegal = f.Legal != nil
	}
	if raw, ok := top["lastMove"]; ok && string(raw) != "null" {
		var lm map[string]json.RawMessage
		if err := json.Unmarshal(raw, &lm); err != nil {
			return nil, err
		}
		var s int
		var m string
		if err := json.Unmarshal(orNull(lm["seat"]), &s); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(orNull(lm["move"]), &m); err != nil {
			return nil, err
		}
		f.LastMove, f.HasLastMove = [2]any{s, m}, true
	}
	if raw, ok := top["player"]; ok {
		var pl map[string]json.RawMessage
		if err := json.Unmarshal(raw, &pl); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(orNull(pl["id"]), &f.PlayerID); err != nil {
			return nil, err
		}
	}
	if f.Type == "" {
		return nil, errNoType
	}
	return f, nil
}

var errNoType = errors.New("no type")

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// sameFrame says how got differs from the reference (empty: it does not).
func sameFrame(got *Frame, want *refFrame) string {
	var diffs []string
	check := func(name string, g, w any) {
		if g != w {
			diffs = append(diffs, name+": got "+strconv.Quote(toString(g))+", want "+strconv.Quote(toString(w)))
		}
	}
	check("type", got.Type, want.Type)
	check("room", got.Room, want.Room)
	check("code", got.Code, want.Code)
	check("message", got.Message, want.Message)
	check("status", got.Status, want.Status)
	check("next", got.Next, want.Next)
	check("token", got.Token, want.Token)
	check("player.id", got.PlayerID, want.PlayerID)
	check("seq", got.Seq, want.Seq)
	check("base", [2]any{got.Base, got.HasBase}, [2]any{want.Base, want.HasBase})
	check("seat", [2]any{got.Seat, got.HasSeat}, [2]any{want.Seat, want.HasSeat})
	check("turn", [2]any{got.Turn, got.HasTurn}, [2]any{want.Turn, want.HasTurn})
	check("lastMove present", got.HasLastMove, want.HasLastMove)
	if got.HasLastMove {
		check("lastMove", [2]any{got.LastMove.Seat, got.LastMove.Move}, want.LastMove)
	}
	check("legal present", got.Legal() != nil, want.HasLegal)
	if legal := got.Legal().Strings(); !slices.Equal(legal, want.Legal) {
		diffs = append(diffs, "legal: got "+strings.Join(legal, ",")+", want "+strings.Join(want.Legal, ","))
	}
	return strings.Join(diffs, "; ")
}

func toString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func readFrame(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realFrames are messages as the server sent them (go 19x19, patch mode).
var realFrames = []string{"go19-player-patch.json", "go19-spectator-patch.json", "go19-state.json"}

// TestParseFrameAgreesWithEncodingJSON: the hand-written parser accepts
// what encoding/json accepts, refuses what it refuses, and reads the same
// fields, on the server's own frames and on the corners of JSON.
func TestParseFrameAgreesWithEncodingJSON(t *testing.T) {
	deep := func(n int) string {
		return `{"type":"x","board":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	}
	tests := []struct {
		name, msg string
		ok        bool
	}{
		{"spectator patch", string(readFrame(t, realFrames[1])), true},
		{"player patch", string(readFrame(t, realFrames[0])), true},
		{"full state", string(readFrame(t, realFrames[2])), true},
		{"welcome", `{"type":"welcome","player":{"id":"pX","name":"n"},"token":"tok","rooms":[],"features":["patch"]}`, true},
		{"error", `{"type":"error","id":3,"room":"r","code":"illegal_move","message":"no \"liberty\" \u00e9"}`, true},
		{"match.found", `{"type":"match.found","room":"r","seat":1}`, true},
		{"whitespace everywhere", " \t\r\n{ \"type\" : \"room.patch\" , \"base\" : 7 , \"legal\" : [ \"A1\" , null ] , \"turn\" : null } \n", true},
		{"nulls", `{"type":"room.state","seq":null,"base":null,"seat":null,"legal":null,"lastMove":null,"player":null,"room":null}`, true},
		{"turn not a whole number", `{"type":"room.patch","turn":1.5}`, true},
		{"turn a string", `{"type":"room.patch","turn":"1"}`, true},
		{"turn an object", `{"type":"room.patch","turn":{"a":[1,{}]}}`, true},
		{"turn too large", `{"type":"room.patch","turn":123456789012345678901}`, true},
		{"negative zero", `{"type":"room.patch","seq":-0,"turn":-0}`, true},
		{"escaped key", `{"typ\u0065":"room.patch","se\u0071":3}`, true},
		{"repeated keys: the last wins", `{"type":"a","type":"b","seq":1,"seq":null,"lastMove":{"seat":1,"move":"A1"},"lastMove":{"move":"B2"}}`, true},
		{"repeated lastMove then null", `{"type":"a","lastMove":{"seat":1},"lastMove":null}`, true},
		{"case matters", `{"TYPE":"a","type":"b","Seq":4}`, true},
		{"non-ASCII", `{"type":"room.chat","message":"olá","room":"\u00e9\ud800"}`, true},
		{"invalid UTF-8", "{\"type\":\"a\xff\",\"code\":\"\xc3\"}", true},
		{"numbers", `{"type":"a","x":[0,-1,1.5e3,2E-2,0.0,-0.5e+7]}`, true},
		{"big seq", `{"type":"a","seq":9223372036854775807}`, true},
		{"deep", deep(9999), true},
		{"too deep", deep(10000), false},
		{"seq too big", `{"type":"a","seq":9223372036854775808}`, false},
		{"seq fraction", `{"type":"a","seq":1.0}`, false},
		{"seq exponent", `{"type":"a","seq":1e2}`, false},
		{"seq a string", `{"type":"a","seq":"1"}`, false},
		{"type a number", `{"type":1}`, false},
		{"legal of numbers", `{"type":"a","legal":[1]}`, false},
		{"legal an object", `{"type":"a","legal":{}}`, false},
		{"lastMove a string", `{"type":"a","lastMove":"A1"}`, false},
		{"lastMove seat a string", `{"type":"a","lastMove":{"seat":"0"}}`, false},
		{"player an array", `{"type":"a","player":[]}`, false},
		{"no type", `{"room":"r"}`, false},
		{"empty type", `{"type":""}`, false},
		{"null", `null`, false},
		{"array", `[{"type":"a"}]`, false},
		{"empty", ``, false},
		{"trailing garbage", `{"type":"a"}x`, false},
		{"two objects", `{"type":"a"}{}`, false},
		{"trailing comma", `{"type":"a",}`, false},
		{"trailing comma in legal", `{"type":"a","legal":["A1",]}`, false},
		{"trailing comma in array", `{"type":"a","x":[1,]}`, false},
		{"unterminated", `{"type":"a"`, false},
		{"unterminated string", `{"type":"a`, false},
		{"control character", "{\"type\":\"a\x01\"}", false},
		{"bad escape", `{"type":"\x"}`, false},
		{"short unicode escape", `{"type":"\u12"}`, false},
		{"leading zero", `{"type":"a","x":01}`, false},
		{"bare fraction", `{"type":"a","x":.5}`, false},
		{"bad literal", `{"type":"a","x":nul}`, false},
		{"single quotes", `{'type':'a'}`, false},
		{"missing colon", `{"type" "a"}`, false},
	}
	for _, tc := range tests {
		data := []byte(tc.msg)
		got, err := ParseFrame(data)
		want, werr := refParse(data)
		if (err == nil) != tc.ok || (werr == nil) != tc.ok {
			t.Errorf("%s: parser error %v, encoding/json error %v; want ok %v", tc.name, err, werr, tc.ok)
			continue
		}
		if err == nil {
			if d := sameFrame(got, want); d != "" {
				t.Errorf("%s: %s", tc.name, d)
			}
		}
	}
}

// TestParserReusesNothingStale: a parser and a frame reused from message
// to message (as the reader does) read each one as a fresh parser would.
func TestParserReusesNothingStale(t *testing.T) {
	msgs := [][]byte{readFrame(t, realFrames[0]), readFrame(t, realFrames[1]),
		[]byte(`{"type":"room.patch","room":"other","seq":9,"status":"finished","next":"n2"}`),
		readFrame(t, realFrames[2]), []byte(`{"type":"error","code":"illegal_move"}`), readFrame(t, realFrames[1])}
	var p parser
	f := new(Frame)
	for i, m := range msgs {
		if err := p.parse(f, m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		want, err := refParse(m)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameFrame(f, want); d != "" {
			t.Errorf("message %d: %s", i, d)
		}
	}
}

// TestParseFrameAllocations: in the steady state the reader decodes a
// patch without allocating (the strings repeat, moves come from a table).
func TestParseFrameAllocations(t *testing.T) {
	for _, name := range realFrames[:2] {
		data := readFrame(t, name)
		var p parser
		f := new(Frame)
		if err := p.parse(f, data); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = p.parse(f, data) }); n != 0 {
			t.Errorf("%s: %v allocations a parse", name, n)
		}
	}
}

func BenchmarkParseFrame(b *testing.B) {
	for _, name := range realFrames {
		data := readFrame(b, name)
		b.Run(strings.TrimSuffix(name, ".json"), func(b *testing.B) {
			var p parser
			f := new(Frame)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := p.parse(f, data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(strings.TrimSuffix(name, ".json")+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := refParse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzServerFrame: any bytes from the server are accepted by ParseFrame
// exactly when encoding/json accepts them, with the same fields, also by a
// parser that read other frames before; the legal list chooses the same
// move as the decoded one; and an accepted frame is applied to a view
// without a panic, a refused patch leaving the view's seq alone.
func FuzzServerFrame(f *testing.F) {
	f.Add([]byte(`{"type":"room.patch","room":"r","seq":6,"turn":1,"lastMove":{"seat":0,"move":"A1"}}`))
	f.Add([]byte(`{"type":"room.state","room":"r","seq":5,"turn":null,"legal":["A1"]}`))
	f.Add([]byte(`{"type":"error","code":"illegal_move"}`))
	f.Add([]byte(`{"type":"welcome","player":{"id":"p","name":"n"},"token":"t","base":4,"legal":["\u0041\u0031",null,"pass","c3"]}`))
	for _, name := range realFrames {
		f.Add(readFrame(f, name))
	}
	warm := readFrame(f, realFrames[0])
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := ParseFrame(data)
		want, werr := refParse(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: parser error %v, encoding/json error %v", data, err, werr)
		}
		var p parser
		reused := new(Frame)
		if p.parse(reused, warm) != nil || (p.parse(reused, data) == nil) != (err == nil) {
			t.Fatalf("%q: a reused parser disagrees", data)
		}
		if err != nil {
			return
		}
		if d := sameFrame(fr, want); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
		if d := sameFrame(reused, want); d != "" {
			t.Fatalf("%q, reused parser: %s", data, d)
		}
		for _, g := range []struct {
			game string
			size int
		}{{"go", 19}, {"go", 9}, {"orbito", 0}} {
			for _, k := range []int{0, 1, 7, 400} {
				if got, ref := ChooseMove(g.game, g.size, fr.Legal(), k), chooseMoveRef(g.game, g.size, want.Legal, k); got != ref {
					t.Fatalf("%q: ChooseMove(%s, %d, k=%d) = %q, reference %q", data, g.game, g.size, k, got, ref)
				}
			}
		}
		v := &View{Room: "r", Seq: 5, Turn: -1}
		if _, ok := v.apply(fr); !ok && v.Seq != 5 {
			t.Fatalf("refused frame %q moved the view to seq %d", data, v.Seq)
		}
	})
}

func BenchmarkChooseMove(b *testing.B) {
	var p parser
	f := new(Frame)
	if err := p.parse(f, readFrame(b, realFrames[0])); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		if ChooseMove("go", 19, f.Legal(), k) == "" {
			b.Fatal("no move")
		}
		k++
	}
}

// TestAppendMove: SendMove's hand-written message is the one json.Marshal
// writes for the same map, escapes included.
func TestAppendMove(t *testing.T) {
	tests := []struct{ room, move string }{
		{"3JMttelDMt", "D4"},
		{"3JMttelDMt", ""}, // a resign
		{`r"1\`, "b1a1"},
		{"r<&>", "D@3,1"},
		{"olá\x01\u2028", "\xff"},
	}
	for _, tc := range tests {
		want := map[string]any{"type": "room.move", "room": tc.room, "move": tc.move}
		if tc.move == "" {
			want = map[string]any{"type": "room.resign", "room": tc.room}
		}
		wantJSON, _ := json.Marshal(want)
		var w, got map[string]any
		b := appendMove([]byte("junk"), tc.room, tc.move)
		if !strings.HasPrefix(string(b), "junk") {
			t.Fatalf("%q: appendMove lost what b held", b)
		}
		if err := json.Unmarshal(b[4:], &got); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		_ = json.Unmarshal(wantJSON, &w)
		if toString(got) != toString(w) {
			t.Errorf("appendMove(%q, %q) = %s, want %s", tc.room, tc.move, b[4:], wantJSON)
		}
	}
}
