package gogame

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// TestSetup checks that well-formed setups give the position they describe
// and that malformed or impossible ones are refused with bad_setup.
func TestSetup(t *testing.T) {
	for _, tc := range []struct {
		name, variant, setup string
		wantErr              string // fragment of the message; "" = accepted
		turn                 int
	}{
		{"protocol example", "9", `{"black":["E4","E5"],"white":["C1","C2"],"toMove":"black"}`, "", 0},
		{"white to move", "13", `{"black":["M13"],"white":["A1"],"toMove":"white"}`, "", 1},
		{"toMove defaults to black", "19", `{"black":["S19"]}`, "", 0},
		{"null is the empty board", "9", `null`, "", 0},
		{"empty object", "9", `{}`, "", 0},
		{"unknown field", "9", `{"black":[],"blak":[]}`, "unknown field", 0},
		{"wrong type", "9", `{"black":"E4"}`, "malformed", 0},
		{"trailing data", "9", `{"black":[]} {}`, "after the object", 0},
		{"not an object", "9", `[1,2]`, "malformed", 0},
		{"off the board", "9", `{"black":["J1"]}`, `"J1"`, 0},
		{"lower case", "9", `{"white":["e4"]}`, `"e4"`, 0},
		{"overlap", "9", `{"black":["E4"],"white":["E4"]}`, "E4 is listed twice", 0},
		{"twice in one list", "9", `{"black":["E4","E4"]}`, "E4 is listed twice", 0},
		{"bad toMove", "9", `{"toMove":"X"}`, "toMove", 0},
		{"chain without liberty", "9", `{"black":["A1"],"white":["A2","B1"]}`, "black chain at A1 has no liberty", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Game().New(tc.variant, json.RawMessage(tc.setup), 0)
			if tc.wantErr != "" {
				wantCode(t, err, engine.CodeBadSetup, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if turn, ok := st.Turn(); !ok || turn != tc.turn {
				t.Errorf("turn = %d, %v, want %d", turn, ok, tc.turn)
			}
		})
	}
	_, err := Game().New("8", nil, 0)
	wantCode(t, err, engine.CodeUnknownGame, `"8"`)
}

// TestSetupBoardView checks the orientation of the board view: row n first,
// column A on the left, on every size.
func TestSetupBoardView(t *testing.T) {
	for _, n := range sizes {
		geo := geometries[n]
		s := mustNew(t, strconv.Itoa(n), setupJSON(t, []string{"A1"}, []string{geo.names[n*n-1]}, "black"))
		rows := s.Board().([]string)
		if len(rows) != n || rows[n-1][0] != 'X' || rows[0][n-1] != 'O' {
			t.Errorf("%dx%d: board %q, want X at the bottom left and O at the top right", n, n, rows)
		}
	}
}

// TestSnapshotRoundTrip checks that a snapshot restores the same game,
// superko history included, and that corrupt snapshots are refused.
func TestSnapshotRoundTrip(t *testing.T) {
	s := mustNew(t, "9", setupJSON(t, []string{"C1", "C3", "D1", "D2"}, []string{"A2", "B1", "B3", "C2"}, "black"))
	if err := s.Apply(0, "B2"); err != nil {
		t.Fatal(err)
	}
	snap, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Game().Restore(snap)
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	again, _ := r.MarshalJSON()
	if !bytes.Equal(again, snap) {
		t.Fatalf("round trip:\n got %s\nwant %s", again, snap)
	}
	// White may not retake at C2 later either: the position after black's
	// B2 is in the restored history.
	wantCode(t, r.Apply(1, "C2"), engine.CodeIllegalMove, "repeats")
	for _, m := range []string{"E5", "pass"} {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
	}
	snap, _ = s.MarshalJSON()
	for _, bad := range []string{
		``, `{}`, `null`, `{"variant":"9"}`,
		`{"variant":"7","start":{"black":[],"white":[],"toMove":"black"},"moves":[],"board":[],"toMove":"black"}`,
		string(bytes.Replace(snap, []byte(`"B2"`), []byte(`"B9"`), 1)),
		string(bytes.Replace(snap, []byte(`"pass"`), []byte(`"B2"`), 1)),
		string(bytes.Replace(snap, []byte(`"toMove":"white"}`), []byte(`"toMove":"black"}`), 1)),
		string(snap) + "x",
	} {
		if _, err := Game().Restore([]byte(bad)); err == nil {
			t.Errorf("Restore(%s) accepted a corrupt snapshot", bad)
		}
	}
}

// TestRefusals checks the codes of refused moves and that they change
// nothing.
func TestRefusals(t *testing.T) {
	s := mustNew(t, "9", "")
	before, _ := s.MarshalJSON()
	wantCode(t, s.Apply(1, "E5"), engine.CodeNotYourTurn, "black")
	wantCode(t, s.Apply(2, "E5"), engine.CodeNotYourTurn)
	wantCode(t, s.Apply(-1, "E5"), engine.CodeNotYourTurn)
	wantCode(t, s.Apply(0, "e5"), engine.CodeIllegalMove, `"e5"`)
	wantCode(t, s.Apply(0, "Pass"), engine.CodeIllegalMove)
	if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
		t.Fatal("refused moves changed the state")
	}
	if got := s.Legal(1); got != nil {
		t.Errorf("Legal(1) on black's turn = %v, want nil", got)
	}
	if got := s.Legal(0); len(got) != 82 || got[0] != "A1" || got[1] != "B1" || got[9] != "A2" || got[81] != Pass {
		t.Errorf("Legal(0) on the empty board = %v, want A1 B1 ... I9 pass", got)
	}
	for _, m := range []string{"pass", "pass"} {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.Apply(0, "E5"), engine.CodeGameOver)
	if out := s.Outcome(); out.Winner != 1 || out.Reason != ReasonTwoPasses {
		t.Errorf("outcome on the empty board = %+v, want white (tie) by two passes", out)
	}
	if !slices.Equal(s.Legal(0), nil) {
		t.Error("Legal after the end is not nil")
	}
}

// TestInfo checks the catalog entry.
func TestInfo(t *testing.T) {
	info := Game().Info()
	if info.ID != "go" || len(info.Variants) != 3 || info.Variants[0].ID != "9" || !info.HasLevel("basico") || info.Rules == "" {
		t.Errorf("info = %+v", info)
	}
	for _, v := range info.Variants {
		if v.Seats != 2 || !slices.Equal(v.SeatNames, []string{"black X", "white O"}) {
			t.Errorf("variant %+v", v)
		}
	}
}
