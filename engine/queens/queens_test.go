package queens

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// probes are moves tried at every ply of the conformance check: malformed
// notation, off-board squares, pieces nobody has, occupied squares.
var probes = []string{
	"", "zz", "D", "D@", "D@3", "D@3,", "D@,3", "@3,1", "DD@3,1", "d@3,1", "X@3,1",
	"D@-1,0", "D@+1,0", "D@01,1", "D@1,01", "D@1, 1", " D@1,1", "D@1,1 ", "D@1,1,1",
	"D@8,0", "D@0,8", "D@13,0", "D@20,0", "D@19,19", "D@100,1",
	"D@0,0", "D@3,1", "D@7,7", "R@0,0", "T@4,4", "B@2,2", "C@0,5", "C@12,12",
}

// TestConformance runs the shared engine checks over random games of every
// variant and this game's own invariants after every move.
func TestConformance(t *testing.T) {
	t.Parallel()
	games := map[string]int{"tradicional": 60, "grande": 5, "impar": 12, "x-random": 60}
	for _, v := range variants {
		t.Run(v.id, func(t *testing.T) {
			enginetest.Check(t, Game(), enginetest.Config{
				Variant:   v.id,
				Games:     games[v.id],
				MaxPlies:  2 * maxSize * maxSize,
				Probes:    probes,
				Invariant: checkInvariants,
			})
		})
	}
}

// TestConformanceFromSetups runs the shared checks from the seed's
// positions and from a mixed-piece setup.
func TestConformanceFromSetups(t *testing.T) {
	t.Parallel()
	setups := []struct{ variant, setup string }{
		{"tradicional", seedQ3Setup},
		{"grande", `{"placed":{"4,9":"D","8,7":"D","10,10":"D"},
			"hands":{"primeiro":["D","D","D","D","D","D","D","D"],"segundo":["D","D","D","D","D","D","D","D","D"]},"toMove":"segundo"}`},
		{"impar", `{"placed":{"6,6":"C"},"owners":{"6,6":0},
			"hands":{"primeiro":["R","B","B","T","C","C"],"segundo":["D","C","C","R","T","B","B"]},"toMove":"segundo"}`},
	}
	for _, su := range setups {
		t.Run(su.variant, func(t *testing.T) {
			enginetest.Check(t, Game(), enginetest.Config{
				Variant: su.variant, Setup: json.RawMessage(su.setup), Games: 8,
				MaxPlies: 2 * maxSize * maxSize, Probes: probes, Invariant: checkInvariants,
			})
		})
	}
}

// checkInvariants checks one applied move: exactly one piece of the mover's
// hand went to an empty square, owned by the mover; no placed pieces attack
// each other; the derived sets match the board; the legal moves of the new
// position match the naive reference; the outcome follows the rules.
func checkInvariants(t testing.TB, before, after engine.State, seat int, mv string) {
	t.Helper()
	b, a := before.(*state), after.(*state)
	m, err := b.parseMove(mv)
	if err != nil {
		t.Fatalf("applied move %q does not parse: %v", mv, err)
	}
	if b.board[m.sq] != 0 || a.board[m.sq] != pieceLetters[m.piece] || a.owner[m.sq] != int8(seat) {
		t.Fatalf("%s: square went from %q to %q owned by %d, want empty to %c owned by %d",
			mv, b.board[m.sq], a.board[m.sq], a.owner[m.sq], pieceLetters[m.piece], seat)
	}
	if got, want := a.occupied.count(), b.occupied.count()+1; got != want {
		t.Fatalf("%s: %d pieces placed, want %d", mv, got, want)
	}
	if got, want := len(a.hands[seat]), len(b.hands[seat])-1; got != want {
		t.Fatalf("%s: mover's hand has %d pieces, want %d", mv, got, want)
	}
	if !slices.Equal(a.hands[1-seat], b.hands[1-seat]) {
		t.Fatalf("%s: the other hand changed from %q to %q", mv, b.hands[1-seat], a.hands[1-seat])
	}
	if c := a.conflicts(); len(c) != 0 {
		t.Fatalf("%s: placed pieces attack each other: %v", mv, c)
	}
	var occ, att squares
	for sq, l := range a.board {
		if l != 0 {
			occ.add(sq)
			att.union(&a.geo.attacks[pieceIndex(l)][sq])
		}
	}
	if occ != a.occupied || att != a.attacked {
		t.Fatalf("%s: derived sets out of date", mv)
	}
	ref := refFromState(a)
	var want []string
	for _, rm := range refMoves(ref, a.toMove) {
		want = append(want, rm.String())
	}
	got := a.moves(a.toMove)
	if len(got) != len(want) {
		t.Fatalf("%s: %d moves, reference %d", mv, len(got), len(want))
	}
	for i := range got {
		if a.moveName(got[i]) != want[i] {
			t.Fatalf("%s: move %d is %s, reference %s", mv, i, a.moveName(got[i]), want[i])
		}
	}
	out := a.Outcome()
	switch {
	case len(a.hands[0]) == 0 && len(a.hands[1]) == 0:
		if out != (engine.Outcome{Over: true, Winner: seat, Reason: ReasonAllPlaced}) {
			t.Fatalf("%s: both hands empty but outcome %+v", mv, out)
		}
	case len(want) == 0:
		if out != (engine.Outcome{Over: true, Winner: seat, Reason: ReasonNoValidPlacement}) {
			t.Fatalf("%s: opponent stuck but outcome %+v", mv, out)
		}
	default:
		if out != engine.Ongoing {
			t.Fatalf("%s: moves left but outcome %+v", mv, out)
		}
	}
}

func TestInfo(t *testing.T) {
	info := Game().Info()
	if info.ID != "queens" {
		t.Errorf("ID = %q, want queens", info.ID)
	}
	var ids []string
	for _, v := range info.Variants {
		ids = append(ids, v.ID)
		if v.Seats != 2 || !slices.Equal(v.SeatNames, []string{"primeiro", "segundo"}) {
			t.Errorf("variant %s: seats %d %v, want 2 [primeiro segundo]", v.ID, v.Seats, v.SeatNames)
		}
	}
	if want := []string{"tradicional", "grande", "impar", "x-random"}; !slices.Equal(ids, want) {
		t.Errorf("variants = %v, want %v", ids, want)
	}
	var levels []string
	for _, l := range info.Levels {
		levels = append(levels, l.ID)
		if _, ok := Game().Bot(l.ID); !ok {
			t.Errorf("level %s has no bot", l.ID)
		}
	}
	if want := []string{"apressado", "roleta", "gulosa", "forte"}; !slices.Equal(levels, want) {
		t.Errorf("levels = %v, want %v", levels, want)
	}
	if _, ok := Game().Bot("dificil"); ok {
		t.Error(`Bot("dificil") exists, want none`)
	}
}

func TestInitialPositions(t *testing.T) {
	tests := []struct {
		variant string
		size    int
		hands   [2]string
	}{
		{"tradicional", 8, [2]string{"DDDD", "DDDD"}},
		{"grande", 20, [2]string{"DDDDDDDDDD", "DDDDDDDDDD"}},
		{"impar", 13, [2]string{"DDDDDDD", "DDDDDD"}},
	}
	for _, tt := range tests {
		s := mustNew(t, tt.variant, "")
		rows := s.Board().([]string)
		if len(rows) != tt.size || rows[0] != strings.Repeat(".", tt.size) {
			t.Errorf("%s: board %q, want %d empty rows of %d", tt.variant, rows, tt.size, tt.size)
		}
		if got := [2]string{string(s.hands[0]), string(s.hands[1])}; got != tt.hands {
			t.Errorf("%s: hands %q, want %q", tt.variant, got, tt.hands)
		}
		if got := len(s.Legal(First)); got != tt.size*tt.size {
			t.Errorf("%s: %d first moves, want %d", tt.variant, got, tt.size*tt.size)
		}
		if s.Legal(Second) != nil {
			t.Errorf("%s: segundo has moves before primeiro played", tt.variant)
		}
	}
	if _, err := Game().New("classico", nil, 0); engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("New(classico) = %v, want unknown_game", err)
	}
}

// TestApplyRefusals checks each refusal's code and message, and that the
// state did not change.
func TestApplyRefusals(t *testing.T) {
	tests := []struct {
		name     string
		seat     int
		move     string
		code     engine.Code
		contains string
	}{
		{"wrong seat", Second, "D@0,1", engine.CodeNotYourTurn, "primeiro's turn"},
		{"seat out of range", 2, "D@0,1", engine.CodeNotYourTurn, "primeiro's turn"},
		{"negative seat", -1, "D@0,1", engine.CodeNotYourTurn, "primeiro's turn"},
		{"empty", First, "", engine.CodeIllegalMove, "not piece@row,col"},
		{"no @", First, "D3,1", engine.CodeIllegalMove, "not piece@row,col"},
		{"lower case", First, "d@3,1", engine.CodeIllegalMove, `"d" is not a piece`},
		{"unknown piece", First, "P@3,1", engine.CodeIllegalMove, `"P" is not a piece`},
		{"off board", First, "D@8,0", engine.CodeIllegalMove, "off the 8x8 board"},
		{"leading zero", First, "D@02,4", engine.CodeIllegalMove, "row"},
		{"not in hand", First, "B@2,4", engine.CodeIllegalMove, "primeiro has no B in hand"},
		{"occupied", First, "R@3,0", engine.CodeIllegalMove, "3,0 is occupied by D"},
		{"attacked", First, "R@0,0", engine.CodeIllegalMove, "0,0 is attacked by the D on 3,0"},
		{"attacks", First, "T@0,6", engine.CodeIllegalMove, "a T on 0,6 would attack the R on 6,6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, "tradicional", seedQ3Setup)
			before, _ := s.MarshalJSON()
			err := s.Apply(tt.seat, tt.move)
			if engine.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.contains) {
				t.Errorf("Apply(%d, %q) = %v (%s), want %s containing %q", tt.seat, tt.move, err, engine.CodeOf(err), tt.code, tt.contains)
			}
			if after, _ := s.MarshalJSON(); string(after) != string(before) {
				t.Errorf("refused move changed the state:\n got %s\nwant %s", after, before)
			}
		})
	}
}

// TestOutcomes plays positions to their end and checks winner and reason.
func TestOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		variant string
		setup   string
		moves   []string
		want    engine.Outcome
	}{
		{"last placement wins", "tradicional", `{"placed":{},"hands":{"primeiro":["R"],"segundo":["R"]},"toMove":"primeiro"}`,
			[]string{"R@0,0", "R@7,7"}, engine.Outcome{Over: true, Winner: Second, Reason: ReasonAllPlaced}},
		{"impar: primeiro places the last queen", "impar", `{"placed":{},"hands":{"primeiro":["D","D"],"segundo":["D"]},"toMove":"primeiro"}`,
			[]string{"D@0,0", "D@1,2", "D@2,4"}, engine.Outcome{Over: true, Winner: First, Reason: ReasonAllPlaced}},
		// Seven queens leave one free row and column, and their crossing
		// 7,7 is on 0,0's diagonal: primeiro, to move, cannot place.
		{"stuck player loses", "tradicional", `{"placed":{"0,0":"D","1,2":"D","2,4":"D","3,6":"D","4,1":"D","5,3":"D","6,5":"D"},
			"hands":{"primeiro":["D"],"segundo":["T"]},"toMove":"primeiro"}`,
			nil, engine.Outcome{Over: true, Winner: Second, Reason: ReasonNoValidPlacement}},
		{"empty hand to move loses", "tradicional", `{"placed":{},"hands":{"primeiro":[],"segundo":["D"]},"toMove":"primeiro"}`,
			nil, engine.Outcome{Over: true, Winner: Second, Reason: ReasonNoValidPlacement}},
		{"both hands empty in a setup", "tradicional", `{"placed":{"1,1":"R"},"hands":{"primeiro":[],"segundo":[]},"toMove":"primeiro"}`,
			nil, engine.Outcome{Over: true, Winner: Second, Reason: ReasonAllPlaced}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, tt.variant, tt.setup)
			replay(t, s, tt.moves...)
			if got := s.Outcome(); got != tt.want {
				t.Errorf("Outcome = %+v, want %+v", got, tt.want)
			}
			if _, ok := s.Turn(); ok {
				t.Error("Turn ok after the end")
			}
			if err := s.Apply(tt.want.Winner, "D@5,5"); engine.CodeOf(err) != engine.CodeGameOver {
				t.Errorf("Apply after the end = %v, want game_over", err)
			}
		})
	}
}

// TestSetupErrors refuses malformed and impossible setups with bad_setup
// and a message that says why.
func TestSetupErrors(t *testing.T) {
	const hands = `"hands":{"primeiro":["D"],"segundo":["D"]}`
	tests := []struct {
		name, setup, contains string
	}{
		{"not an object", `[1,2]`, "cannot unmarshal"},
		{"not JSON", `{"placed":`, "unexpected end of JSON input"},
		{"trailing data", `{` + hands + `,"toMove":"primeiro"} {}`, "trailing data"},
		{"unknown field", `{` + hands + `,"toMove":"primeiro","board":[]}`, `unknown field "board"`},
		{"unknown hand", `{"hands":{"primeiro":[],"segundo":[],"terceiro":[]},"toMove":"primeiro"}`, `unknown field "terceiro"`},
		{"duplicate key", `{"placed":{"1,1":"R","1,1":"D"},` + hands + `,"toMove":"primeiro"}`, `"1,1" appears twice`},
		{"no toMove", `{` + hands + `}`, `"toMove" is required`},
		{"bad toMove", `{` + hands + `,"toMove":"terceiro"}`, `"toMove" is "terceiro"`},
		{"toMove as seat", `{` + hands + `,"toMove":0}`, "cannot unmarshal number"},
		{"no hands", `{"toMove":"primeiro"}`, `"hands" is required`},
		{"missing hand", `{"hands":{"primeiro":["D"]},"toMove":"primeiro"}`, `"hands" has no "segundo"`},
		{"bad hand piece", `{"hands":{"primeiro":["Q"],"segundo":[]},"toMove":"primeiro"}`, `"Q" is not a piece`},
		{"hand piece as word", `{"hands":{"primeiro":["DD"],"segundo":[]},"toMove":"primeiro"}`, `"DD" is not a piece`},
		{"off board", `{"placed":{"8,0":"D"},` + hands + `,"toMove":"primeiro"}`, "off the 8x8 board"},
		{"bad square", `{"placed":{"a1":"D"},` + hands + `,"toMove":"primeiro"}`, `square "a1" is not row,col`},
		{"leading zero", `{"placed":{"01,1":"D"},` + hands + `,"toMove":"primeiro"}`, "row"},
		{"bad placed piece", `{"placed":{"1,1":"K"},` + hands + `,"toMove":"primeiro"}`, `"K" is not a piece`},
		{"owner of empty square", `{"placed":{"1,1":"R"},"owners":{"2,2":0},` + hands + `,"toMove":"primeiro"}`, "no piece is placed on 2,2"},
		{"bad owner", `{"placed":{"1,1":"R"},"owners":{"1,1":2},` + hands + `,"toMove":"primeiro"}`, "seat 2, want 0 or 1"},
		{"two invalid placements", `{"placed":{"0,0":"D","0,5":"D","7,2":"D","7,6":"D"},` + hands + `,"toMove":"primeiro"}`, "pieces attack each other"},
		{"invalid placement by the player to move", `{"placed":{"0,0":"D","0,5":"D"},"owners":{"0,0":0,"0,5":0},` + hands + `,"toMove":"primeiro"}`, "only the last placement, by segundo"},
		{"hand too big", `{"hands":{"primeiro":[` + strings.Repeat(`"R",`, 64) + `"R"],"segundo":[]},"toMove":"primeiro"}`, "more than the 64 squares"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game().New("tradicional", json.RawMessage(tt.setup), 0)
			if engine.CodeOf(err) != engine.CodeBadSetup || !strings.Contains(fmt.Sprint(err), tt.contains) {
				t.Errorf("New(%s) = %v, want bad_setup containing %q", tt.setup, err, tt.contains)
			}
		})
	}
}

// TestSetupAccepted: a setup without owners leaves owners unknown ('?'),
// partial owners are kept, and "null" is the initial position.
func TestSetupAccepted(t *testing.T) {
	s := mustNew(t, "tradicional", `{"placed":{"0,0":"R","7,7":"C"},"owners":{"7,7":1},
		"hands":{"primeiro":["T"],"segundo":["B","R"]},"toMove":"segundo"}`)
	owners := s.Extra()["owners"].([]string)
	if owners[0] != ".......1" || owners[7] != "?......." {
		t.Errorf("owners = %q, want 1 on 7,7 and ? on 0,0", owners)
	}
	if got := fmt.Sprint(s.Extra()["hands"]); got != "map[primeiro:[T] segundo:[B R]]" {
		t.Errorf("hands = %s", got)
	}
	if seat, ok := s.Turn(); !ok || seat != Second {
		t.Errorf("Turn = %d, %v, want segundo", seat, ok)
	}
	n := mustNew(t, "tradicional", "null")
	if len(n.hands[0]) != 4 {
		t.Errorf(`setup "null": hands %q, want the initial hands`, n.hands)
	}
}

// TestSnapshotRoundTrip restores snapshots of setups and finished games
// byte for byte, and refuses corrupt ones.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, setup := range []string{seedQ3Setup, `{"placed":{"3,0":"D","6,6":"R","1,7":"T","7,1":"D"},
			"hands":{"primeiro":["D","R","R"],"segundo":["D","R","T"]},"toMove":"primeiro"}`} {
		s := mustNew(t, "tradicional", setup)
		snap, _ := s.MarshalJSON()
		r, err := Game().Restore(snap)
		if err != nil {
			t.Fatalf("Restore(%s): %v", snap, err)
		}
		if again, _ := r.MarshalJSON(); string(again) != string(snap) {
			t.Errorf("round trip:\n got %s\nwant %s", again, snap)
		}
		if err := enginetest.Same(s, r); err != nil {
			t.Error(err)
		}
	}
	// The x-random draw is part of the format: seed 1 must keep drawing
	// the same hand, or replays of stored games would change.
	x := mustNew(t, "x-random", "")
	snap, _ := x.MarshalJSON()
	want := `{"version":1,"variant":"x-random","placed":{},"hands":{"primeiro":["B","C","C","R","R"],"segundo":["B","C","C","R","R"]},"toMove":"primeiro"}`
	if string(snap) != want {
		t.Errorf("x-random snapshot (seed 1):\n got %s\nwant %s", snap, want)
	}
	bad := []string{"", "null", "{}", `{"version":2,"variant":"tradicional","placed":{},"hands":{"primeiro":[],"segundo":["D"]},"toMove":"primeiro"}`,
		`{"version":1,"variant":"huge","placed":{},"hands":{"primeiro":[],"segundo":["D"]},"toMove":"primeiro"}`,
		`{"version":1,"variant":"tradicional","placed":{"9,9":"D"},"hands":{"primeiro":[],"segundo":["D"]},"toMove":"primeiro"}`}
	for _, b := range bad {
		if _, err := Game().Restore([]byte(b)); engine.CodeOf(err) != engine.CodeBadSetup {
			t.Errorf("Restore(%q) = %v, want bad_setup", b, err)
		}
	}
}

func TestCloneIndependent(t *testing.T) {
	s := mustNew(t, "tradicional", seedQ3Setup)
	c := s.Clone()
	replay(t, s, "T@1,7")
	if c.(*state).board[15] != 0 || len(c.(*state).hands[0]) != 4 {
		t.Error("clone saw the original's move")
	}
	replay(t, c, "D@0,1")
	if s.board[1] != 0 {
		t.Error("original saw the clone's move")
	}
}
