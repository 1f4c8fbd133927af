package protocol

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/codectest"
	"github.com/tabuleiro/tabuleiro/players"
)

func decodeState(t testing.TB, st RoomState) map[string]any {
	t.Helper()
	st.Legal, st.LegalBy = nil, nil
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "legal")
	return m
}

func intp(i int) *int { return &i }

// TestPatchRoundTrip: for each change, the patch applied to the old state
// gives the new state, and it carries only what changed.
func TestPatchRoundTrip(t *testing.T) {
	base := RoomState{Type: TypeRoomState, Room: "r1", Game: "go", Variant: "9", Seq: 7, Status: "playing",
		Players: []Player{{Seated: players.Seated{Seat: 0, Player: players.Player{Name: "a"}}, Connected: true}, {Seated: players.Seated{Seat: 1, Player: players.Player{Name: "b"}}, Connected: true}},
		Turn:    intp(0), Board: []string{"...", "...", "..."}, Score: map[string]int{"black": 0, "white": 0},
		Extra: map[string]any{"stones": map[string]int{"black": 0, "white": 0}}}
	tests := []struct {
		name     string
		change   func(s *RoomState)
		wantIn   []string // substrings of the patch
		wantOut  []string // substrings the patch must not hold
		wantFull bool     // no patch: a full room.state is needed
	}{
		{"a stone", func(s *RoomState) {
			s.Seq++
			s.Board = []string{"...", ".X.", "..."}
			s.Turn = intp(1)
			s.LastMove = &LastMove{Seat: 0, Move: "B2"}
			s.Score = map[string]int{"black": 1, "white": 0}
			s.Extra = map[string]any{"stones": map[string]int{"black": 1, "white": 0}}
		}, []string{`"cells":[[1,1,"X"]]`, `"score":{"black":1}`, `"stones":{"black":1}`, `"turn":1`, `"seq":8`},
			[]string{`"base"`, `"board"`, `"players"`, `"white"`, `"legal"`}, false},
		{"a spectator", func(s *RoomState) { s.Seq++; s.Spectators = 3 },
			[]string{`"spectators":3`}, []string{`"cells"`, `"turn"`}, false},
		{"a skipped seq", func(s *RoomState) { s.Seq += 2; s.Spectators = 1 },
			[]string{`"base":7`, `"seq":9`}, nil, false},
		{"the end", func(s *RoomState) {
			s.Seq++
			s.Status, s.Turn, s.Result = "finished", nil, &Result{Winner: nil, Reason: "two_passes"}
		}, []string{`"result":{"winner":null,"reason":"two_passes"}`, `"turn":null`, `"status":"finished"`}, nil, false},
		{"a new board shape", func(s *RoomState) { s.Seq++; s.Board = []string{"..", ".."} },
			[]string{`"board":["..",".."]`}, []string{`"cells"`}, false},
		{"most of the board", func(s *RoomState) { s.Seq++; s.Board = []string{"XXX", "XXX", "..."} },
			[]string{`"board":["XXX","XXX","..."]`}, nil, false},
		// Rows the board before had are not scanned again (asciiRows):
		// a changed row that needs escaping still sends the whole board.
		{"a row to escape", func(s *RoomState) { s.Seq++; s.Board = []string{"...", `"X\`, "..."} },
			[]string{`"board":["...","\"X\\","..."]`}, []string{`"cells"`}, false},
		{"a row outside ASCII", func(s *RoomState) { s.Seq++; s.Board = []string{"...", ".é", "..."} },
			[]string{`"board":["...",".é","..."]`}, []string{`"cells"`}, false},
		{"a field disappears", func(s *RoomState) { s.Seq++; s.Extra = map[string]any{} }, nil, nil, true},
		{"a nested key disappears", func(s *RoomState) { s.Seq++; s.Score = map[string]int{"black": 0} }, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p Patcher
			if _, ok, err := p.Diff(&base); ok || err != nil {
				t.Fatalf("first Diff: ok %v err %v, want no patch", ok, err)
			}
			cur := base
			cur.Extra = maps.Clone(base.Extra)
			tc.change(&cur)
			patch, ok, err := p.Diff(&cur)
			if err != nil {
				t.Fatal(err)
			}
			if ok == tc.wantFull {
				t.Fatalf("patch %s: ok %v, want %v", patch, ok, !tc.wantFull)
			}
			if p.Seq() != cur.Seq {
				t.Errorf("patcher at seq %d, want %d", p.Seq(), cur.Seq)
			}
			if !ok {
				return
			}
			for _, s := range tc.wantIn {
				if !strings.Contains(string(patch), s) {
					t.Errorf("patch %s lacks %s", patch, s)
				}
			}
			for _, s := range tc.wantOut {
				if strings.Contains(string(patch), s) {
					t.Errorf("patch %s holds %s", patch, s)
				}
			}
			state := decodeState(t, base)
			if err := ApplyPatch(state, patch); err != nil {
				t.Fatalf("apply %s: %v", patch, err)
			}
			if want := decodeState(t, cur); !reflect.DeepEqual(state, want) {
				t.Fatalf("patched state\n%v\nwant\n%v", state, want)
			}
		})
	}
}

func TestWithField(t *testing.T) {
	got, err := WithField([]byte(`{"type":"room.patch","seq":3}`), "legal", []string{"A1"})
	if err != nil || string(got) != `{"type":"room.patch","seq":3,"legal":["A1"]}` {
		t.Fatalf("WithField = %s, %v", got, err)
	}
}

// TestApplyPatchRefusesAndChangesNothing: a patch for another room, another
// base or with a bad cell is refused and leaves the state as it was.
func TestApplyPatchRefusesAndChangesNothing(t *testing.T) {
	for _, p := range []string{
		`not json`,
		`{"type":"room.state","room":"r1","seq":8}`,
		`{"type":"room.patch","room":"r2","seq":8}`,
		`{"type":"room.patch","room":"r1","seq":9}`,
		`{"type":"room.patch","room":"r1","base":6,"seq":8}`,
		`{"type":"room.patch","room":"r1","seq":8,"spectators":2,"cells":[[5,0,"X"]]}`,
		`{"type":"room.patch","room":"r1","seq":8,"spectators":2,"cells":[[0,9,"X"]]}`,
		`{"type":"room.patch","room":"r1","seq":8,"cells":[[0,0,"XY"]]}`,
		`{"type":"room.patch","room":"r1","seq":8,"cells":{}}`,
	} {
		state := map[string]any{"type": "room.state", "room": "r1", "seq": 7.0, "spectators": 1.0, "board": []any{"...", "..."}}
		want := maps.Clone(state)
		if err := ApplyPatch(state, []byte(p)); err == nil {
			t.Errorf("ApplyPatch(%s) accepted", p)
		}
		if !reflect.DeepEqual(state, want) {
			t.Errorf("ApplyPatch(%s) changed the state to %v", p, state)
		}
	}
}

func FuzzApplyPatch(f *testing.F) {
	f.Add([]byte(`{"type":"room.patch","room":"r1","seq":8,"cells":[[1,1,"X"]],"score":{"black":1}}`))
	f.Add([]byte(`{"type":"room.patch","room":"r1","base":7,"seq":8,"cells":[[0,2,"O"]]}`))
	f.Add([]byte(`{"type":"room.patch","room":"r1","seq":8,"cells":[[-1,1e9,""]]}`))
	f.Fuzz(func(t *testing.T, patch []byte) {
		state := map[string]any{"type": "room.state", "room": "r1", "seq": 7.0,
			"score": map[string]any{"black": 0.0}, "board": []any{"...", "...", "..."}}
		before := maps.Clone(state)
		if err := ApplyPatch(state, patch); err != nil {
			if !reflect.DeepEqual(state, before) {
				t.Fatalf("refused patch %q changed the state", patch)
			}
			return
		}
		if s, _ := state["seq"].(float64); s != 8 {
			t.Fatalf("applied patch %q: seq %v, want 8", patch, state["seq"])
		}
	})
}

func TestAppendPlainStringsMatchesEncodingJSON(t *testing.T) {
	for _, ss := range [][]string{nil, {}, {"A1", "pass"}, {"D@3,1", "b1a1"}, {`a"b`}, {"<x>"}, {"é"}, {"tab\t"}} {
		want, _ := json.Marshal(ss)
		if got, ok := appendPlainStrings(nil, ss); ok && string(got) != string(want) {
			t.Errorf("appendPlainStrings(%q) = %s, encoding/json %s", ss, got, want)
		}
		got, err := WithField([]byte(`{}`), "legal", ss)
		if err != nil || string(got) != `{,"legal":`+string(want)+`}` {
			t.Errorf("WithField(%q) = %s, %v", ss, got, err)
		}
	}
}

func BenchmarkPatchGo19(b *testing.B) {
	rows := make([]string, 19)
	for i := range rows {
		rows[i] = strings.Repeat(".", 19)
	}
	legal := make([]string, 0, 361)
	for i := 0; i < 361; i++ {
		legal = append(legal, string(rune('A'+i%19))+strconv.Itoa(i/19+1))
	}
	st := RoomState{Type: TypeRoomState, Room: "r1", Game: "go", Variant: "19", Status: "playing",
		Players: []Player{{Seated: players.Seated{Seat: 0, Player: players.Player{Name: "a"}}, Connected: true}, {Seated: players.Seated{Seat: 1, Player: players.Player{Name: "b"}}, Connected: true}},
		Turn:    intp(0), Board: rows, Score: map[string]int{"black": 0, "white": 0}, Legal: legal,
		Extra: map[string]any{"passes": 0, "stones": map[string]int{"black": 0, "white": 0}}}
	var p Patcher
	for i := 0; b.Loop(); i++ {
		st.Seq++
		r := []byte(rows[i%19])
		r[i%19/1] = 'X'
		rows = slices.Clone(rows)
		rows[i%19] = string(r)
		st.Board = rows
		st.Turn = intp(i % 2)
		st.LastMove = &LastMove{Seat: i % 2, Move: legal[i%361]}
		patch, ok, err := p.Diff(&st)
		if err != nil {
			b.Fatal(err)
		}
		if !ok {
			continue
		}
		if _, err := WithField(patch, "legal", legal); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPatchCoversEveryField: a change to any one field of RoomState, set by
// reflection, reaches a client through the patch. A field added to
// RoomState without its line in Patcher.Diff fails here.
func TestPatchCoversEveryField(t *testing.T) {
	notPatched := map[string]string{
		"Type": "the patch's own", "Room": "the patch's own", "Seq": "the patch's own",
		"Legal": "added per seat (WithField)", "LegalBy": "added per seat (WithField)",
		"Moves": "only in the state that answers a join",
		"Chat":  "only in the state that answers a join",
	}
	base := RoomState{Type: TypeRoomState, Room: "r1", Seq: 7}
	var filled RoomState
	codectest.Fill(&filled)
	rt := reflect.TypeFor[RoomState]()
	for i := range rt.NumField() {
		name := rt.Field(i).Name
		if notPatched[name] != "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			cur := base
			cur.Seq++
			reflect.ValueOf(&cur).Elem().Field(i).Set(reflect.ValueOf(filled).Field(i))
			var p Patcher
			if _, _, err := p.Diff(&base); err != nil {
				t.Fatal(err)
			}
			patch, ok, err := p.Diff(&cur)
			if err != nil || !ok {
				t.Fatalf("Diff: ok %v, %v", ok, err)
			}
			state := decodeState(t, base)
			if err := ApplyPatch(state, patch); err != nil {
				t.Fatalf("apply %s: %v", patch, err)
			}
			if want := decodeState(t, cur); !reflect.DeepEqual(state, want) {
				t.Fatalf("patch %s gives\n%v\nwant\n%v", patch, state, want)
			}
		})
	}
}

// TestDiffAllocations counts what a go 19x19 move's Diff allocates once the
// patcher has seen a few states: the patch itself and the copies the
// patcher keeps of the players and the board's rows, nothing per field.
func TestDiffAllocations(t *testing.T) {
	rows := make([]string, 19)
	for i := range rows {
		rows[i] = strings.Repeat(".", 19)
	}
	states := make([]RoomState, 2)
	for i := range states {
		board := slices.Clone(rows)
		board[3] = strings.Repeat(".", i) + "X" + strings.Repeat(".", 18-i)
		states[i] = RoomState{Type: TypeRoomState, Room: "r1", Game: "go", Variant: "19", Status: "playing",
			Players: []Player{{Seated: players.Seated{Seat: 0, Player: players.Player{Name: "a"}}, Connected: true}, {Seated: players.Seated{Seat: 1, Player: players.Player{Name: "b"}}, Connected: true}},
			Turn:    intp(i), Board: board, Score: map[string]int{"black": i, "white": 0},
			Clocks: map[string]int{"black": 1000 - i, "white": 1000},
			Extra:  map[string]any{"passes": 0, "stones": map[string]int{"black": i, "white": 0}}}
	}
	var p Patcher
	seq := int64(0)
	diff := func() {
		seq++
		st := &states[seq%2]
		st.Seq = seq
		if _, ok, err := p.Diff(st); err != nil || (!ok && seq > 1) {
			t.Fatalf("Diff at seq %d: ok %v err %v", seq, ok, err)
		}
	}
	for range 4 {
		diff()
	}
	// The patch's buffer: nothing per field or per changed object, and
	// the patcher's copies of the players and the board's rows go into
	// the arrays of the Diff before last.
	const want = 1
	if got := testing.AllocsPerRun(100, diff); got > want {
		t.Errorf("a Diff allocates %.0f times, want at most %d", got, want)
	}
}

// BenchmarkWithFieldLegal19 is a seat's frame on 19x19: the legal list of
// an empty board written into a patch.
func BenchmarkWithFieldLegal19(b *testing.B) {
	legal := make([]string, 0, 362)
	for i := 0; i < 361; i++ {
		legal = append(legal, string(rune('A'+i%19))+strconv.Itoa(i/19+1))
	}
	legal = append(legal, "pass")
	patch := []byte(`{"type":"room.patch","room":"r1","seq":8,"cells":[[1,1,"X"]],"turn":1}`)
	for b.Loop() {
		if _, err := WithField(patch, "legal", legal); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPatchSequence: patches of a run of states, applied one after the
// other, give every state; the players and the board come back to what
// they were two states before (the Patcher's copies take turns in two
// arrays, which must not mix them up).
func TestPatchSequence(t *testing.T) {
	a := []Player{{Seated: players.Seated{Seat: 0, Player: players.Player{Name: "a"}}, Connected: true}, {Seated: players.Seated{Seat: 1, Player: players.Player{Name: "b"}}, Connected: true}}
	b := []Player{{Seated: players.Seated{Seat: 0, Player: players.Player{Name: "a"}}, Connected: false}, {Seated: players.Seated{Seat: 1, Player: players.Player{Name: "b"}}, Connected: true}}
	boards := [][]string{{"...", "...", "..."}, {"...", ".X.", "..."}, {"...", ".XO", "..."}, {"...", ".X.", "..."}}
	var states []RoomState
	for i := range 8 {
		players := a
		if i%4 == 1 || i%4 == 2 {
			players = b
		}
		board := slices.Clone(boards[i%len(boards)]) // a new array, as the engine's may be
		states = append(states, RoomState{Type: TypeRoomState, Room: "r1", Game: "go", Variant: "3", Seq: int64(i + 1),
			Status: "playing", Players: slices.Clone(players), Turn: intp(i % 2), Board: board,
			Score: map[string]int{"black": i, "white": 0}})
	}
	var p Patcher
	var state map[string]any
	for i := range states {
		patch, ok, err := p.Diff(&states[i])
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			state = decodeState(t, states[0])
			continue
		}
		if !ok {
			t.Fatalf("state %d: no patch", i)
		}
		// The engine may write over its rows after the Diff (here with
		// the next state's, which would hide the next change).
		copy(states[i].Board.([]string), boards[(i+1)%len(boards)])
		if err := ApplyPatch(state, patch); err != nil {
			t.Fatalf("state %d: apply %s: %v", i, patch, err)
		}
		want := states[i]
		want.Board = boards[i%len(boards)]
		if w := decodeState(t, want); !reflect.DeepEqual(state, w) {
			t.Fatalf("state %d after %s:\n%v\nwant\n%v", i, patch, state, w)
		}
	}
}
