package rooms

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// TestMoveLogEncoder: whatever the history did since the last call (grew,
// lost its last entries to a rollback, was replaced), encode writes what
// encoding/json writes for the log entries.
func TestMoveLogEncoder(t *testing.T) {
	mv := func(seat int, move string) protocol.LastMove { return protocol.LastMove{Seat: seat, Move: move} }
	a, b, c, d := mv(0, "D4"), mv(1, "Q16"), mv(0, "pass"), mv(1, `odd"move\`)
	steps := []struct {
		name    string
		history []protocol.LastMove
	}{
		{"empty", nil},
		{"one move", []protocol.LastMove{a}},
		{"two more", []protocol.LastMove{a, b, c}},
		{"same again", []protocol.LastMove{a, b, c}},
		{"rolled back", []protocol.LastMove{a, b}},
		{"another last move", []protocol.LastMove{a, b, d}},
		{"rolled back and regrown past", []protocol.LastMove{a, mv(1, "K10"), d, c}},
		{"new game", []protocol.LastMove{b}},
		{"emptied", []protocol.LastMove{}},
		{"grows again", []protocol.LastMove{c, d}},
	}
	var e moveLogEncoder
	for _, st := range steps {
		entries := []string{}
		for _, m := range st.history {
			entries = append(entries, strconv.Itoa(m.Seat)+":"+m.Move)
		}
		want, _ := json.Marshal(entries)
		got := e.encode(st.history)
		var back []string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s: encode wrote invalid JSON %s: %v", st.name, got, err)
		}
		if len(back) != len(entries) {
			t.Fatalf("%s: got %s, want %s", st.name, got, want)
		}
		for i := range back {
			if back[i] != entries[i] {
				t.Fatalf("%s: got %s, want %s", st.name, got, want)
			}
		}
	}
}

// TestSnapshotDecodesToTheRoom: the spliced snapshot (metadata, move log,
// engine) is one JSON object whose fields are the room's.
func TestSnapshotDecodesToTheRoom(t *testing.T) {
	r := goRoomWithMoves(t, 40)
	done := make(chan struct{})
	var (
		snap []byte
		err  error
		hist []protocol.LastMove
		eng  []byte
		seq  int64
	)
	r.post(func() {
		snap, err = r.snapshot(r.now())
		hist, seq = append([]protocol.LastMove(nil), r.history...), r.seq
		eng, _ = r.state.MarshalJSON()
		close(done)
	})
	<-done
	if err != nil {
		t.Fatal(err)
	}
	var s snapshotV1
	if err := json.Unmarshal(snap, &s); err != nil {
		t.Fatalf("snapshot is not JSON: %v\n%s", err, snap)
	}
	if s.ID != r.ID() || s.Seq != seq || s.Game != "go" || len(s.MoveLog) != len(hist) || string(s.Engine) != string(eng) {
		t.Fatalf("snapshot decodes to id %q seq %d game %q, %d moves, engine equal %v; want %q %d go %d true",
			s.ID, s.Seq, s.Game, len(s.MoveLog), string(s.Engine) == string(eng), r.ID(), seq, len(hist))
	}
	for i, m := range hist {
		if want := strconv.Itoa(m.Seat) + ":" + m.Move; s.MoveLog[i] != want {
			t.Fatalf("moveLog[%d] = %q, want %q", i, s.MoveLog[i], want)
		}
	}
}
