package morris

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// probes are moves tried at every ply of the conformance check: malformed
// notation, placements, movements, passes and non-adjacent jumps.
var probes = []string{
	"", "zz", "a0", "a4", "d1", "A1", "b2 ", "a1a", "a1a1a1", "pass",
	"a1", "b2", "c3", "a1b1", "b2a1", "a1c3", "a1a1", "b2b2", "b1a2", "c1c2",
}

func TestConformance(t *testing.T) {
	t.Parallel()
	games := 800
	if testing.Short() {
		games = 200
	}
	setups := []string{
		"",
		`{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`,
		`{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"O"}`,
		`{"board":[[0,1,-1],[1,-1,0],[1,-1,0]],"toMove":"O"}`,
		`{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`, // already won by O
	}
	for _, setup := range setups {
		t.Run(setup, func(t *testing.T) {
			enginetest.Check(t, Game(), enginetest.Config{
				Variant:   variant3,
				Setup:     json.RawMessage(setup),
				Games:     games / len(setups),
				MaxPlies:  20000,
				Probes:    probes,
				Invariant: invariant,
			})
		})
	}
}

// invariant checks morris's own properties after every move: the piece
// counts follow the phase (a placement adds one piece of the mover, a
// movement or a pass keeps both counts), the side to move alternates, at
// most one player has a line and only the mover can have made one, and the
// outcome says so.
func invariant(t testing.TB, before, after engine.State, seat int, move string) {
	t.Helper()
	b, a := before.(*state), after.(*state)
	me := pieceOfSeat(seat)
	wantX, wantO := b.pos.board.count(pieceX), b.pos.board.count(pieceO)
	if len(move) == 2 {
		if me == pieceX {
			wantX++
		} else {
			wantO++
		}
	}
	if gotX, gotO := a.pos.board.count(pieceX), a.pos.board.count(pieceO); gotX != wantX || gotO != wantO {
		t.Fatalf("after %q by %v: %d X and %d O pieces, want %d and %d", move, me, gotX, gotO, wantX, wantO)
	}
	if a.pos.toMove != me.other() {
		t.Fatalf("after %q by %v: %v to move", move, me, a.pos.toMove)
	}
	xLine, oLine := a.pos.board.winners()
	if xLine && oLine {
		t.Fatalf("after %q: both players have a line: %q", move, a.pos.board.rows())
	}
	out := a.Outcome()
	if w := a.pos.board.winner(); w != free {
		if w != me || out != (engine.Outcome{Over: true, Winner: seat, Reason: ReasonLine}) {
			t.Fatalf("after %q by %v: %v has a line, outcome %+v", move, me, w, out)
		}
	} else if out.Over && out.Reason != ReasonRepetition {
		t.Fatalf("after %q: over with reason %q but nobody has a line", move, out.Reason)
	}
	if out.Over && out.Reason == ReasonRepetition && a.seen[positionKey(a.pos)] != repetitionLimit {
		t.Fatalf("after %q: repetition draw but the position occurred %d times", move, a.seen[positionKey(a.pos)])
	}
}

func TestInfo(t *testing.T) {
	info := Game().Info()
	if info.ID != "morris" || !info.HasVariant("3") {
		t.Errorf("Info() id %q variants %+v, want morris with variant 3", info.ID, info.Variants)
	}
	v, _ := info.Variant("3")
	if v.Seats != 2 || !slices.Equal(v.SeatNames, []string{"X", "O"}) {
		t.Errorf("variant 3: seats %d names %v, want 2 [X O]", v.Seats, v.SeatNames)
	}
	var levels []string
	for _, l := range info.Levels {
		levels = append(levels, l.ID)
		if _, ok := Game().Bot(l.ID); !ok {
			t.Errorf("level %q listed but Bot(%q) missing", l.ID, l.ID)
		}
	}
	if want := []string{"facil", "normal", "dificil"}; len(levels) < 3 || !slices.Equal(levels[:3], want) {
		t.Errorf("levels %v, want the seed's %v first", levels, want)
	}
	if _, ok := Game().Bot("impossivel"); ok {
		t.Errorf("Bot(impossivel) found, want missing")
	}
}

func TestNewUnknownVariant(t *testing.T) {
	for _, v := range []string{"", "9", "4"} {
		if _, err := Game().New(v, nil, 0); engine.CodeOf(err) != engine.CodeUnknownGame {
			t.Errorf("New(%q) error %v, want code unknown_game", v, err)
		}
	}
}

func TestNewSetup(t *testing.T) {
	for _, tc := range []struct {
		name, setup string
		wantErr     string // a part of the error message; "" for accepted
		wantTurn    int    // seat to move, -1 when over
		wantBoard   []string
	}{
		{"nil", "", "", 0, []string{"...", "...", "..."}},
		{"null", "null", "", 0, []string{"...", "...", "..."}},
		{"protocol example", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`, "", 0, []string{"X.O", ".XO", "XO."}},
		{"movement, O to move", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"O"}`, "", 1, []string{"X.O", ".XO", "XO."}},
		{"toMove inferred O", `{"board":[[1,0,0],[0,0,0],[0,0,0]]}`, "", 1, []string{"X..", "...", "..."}},
		{"toMove inferred X", `{"board":[[1,0,0],[0,-1,0],[0,0,0]]}`, "", 0, []string{"X..", ".O.", "..."}},
		{"finished: O has column c", `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`, "", -1, []string{".XO", ".XO", "X.O"}},
		{"diagonal is no line", `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"O"}`, "", 1, []string{"XOO", "OX.", "..X"}},
		{"empty object", `{}`, "board is missing", 0, nil},
		{"unknown field", `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"X","turn":1}`, "unknown field", 0, nil},
		{"trailing data", `{"board":[[0,0,0],[0,0,0],[0,0,0]]} {}`, "trailing data", 0, nil},
		{"not an object", `[1,2,3]`, "cannot unmarshal", 0, nil},
		{"two rows", `{"board":[[0,0,0],[0,0,0]]}`, "2 rows", 0, nil},
		{"short row", `{"board":[[0,0,0],[0,0],[0,0,0]]}`, "row 2 has 2 points", 0, nil},
		{"value 2", `{"board":[[0,0,0],[0,2,0],[0,0,0]]}`, "b2 is 2", 0, nil},
		{"float", `{"board":[[0,0,0],[0,1.5,0],[0,0,0]]}`, "cannot unmarshal", 0, nil},
		{"string cell", `{"board":[[0,0,0],[0,"X",0],[0,0,0]]}`, "cannot unmarshal", 0, nil},
		{"lowercase toMove", `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"x"}`, `toMove is "x"`, 0, nil},
		{"digit zero toMove", `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"0"}`, `toMove is "0"`, 0, nil},
		{"four X", `{"board":[[1,1,0],[1,-1,-1],[1,-1,0]],"toMove":"O"}`, "at most 3", 0, nil},
		{"O to move first", `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"O"}`, "one X piece more", 0, nil},
		{"O ahead", `{"board":[[0,0,0],[0,-1,0],[0,0,0]]}`, "as many X as O", 0, nil},
		{"X two ahead", `{"board":[[1,1,0],[0,0,0],[0,0,0]],"toMove":"O"}`, "one X piece more", 0, nil},
		{"X to move with one more X", `{"board":[[1,0,0],[0,0,0],[0,0,0]],"toMove":"X"}`, "as many X as O", 0, nil},
		{"both have lines", `{"board":[[1,1,1],[0,0,0],[-1,-1,-1]],"toMove":"X"}`, "both X and O", 0, nil},
		{"winner to move", `{"board":[[1,1,1],[0,-1,0],[-1,0,-1]],"toMove":"X"}`, "X has a line but is to move", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Game().New(variant3, json.RawMessage(tc.setup), 0)
			if tc.wantErr != "" {
				if engine.CodeOf(err) != engine.CodeBadSetup || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("New(%s) error %v, want bad_setup containing %q", tc.setup, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%s): %v", tc.setup, err)
			}
			turn, ok := s.Turn()
			if !ok {
				turn = -1
			}
			if turn != tc.wantTurn {
				t.Errorf("Turn() = %d, want %d", turn, tc.wantTurn)
			}
			if got := s.Board().([]string); !slices.Equal(got, tc.wantBoard) {
				t.Errorf("Board() = %q, want %q", got, tc.wantBoard)
			}
		})
	}
}

func TestApplyRefusals(t *testing.T) {
	const (
		placing  = `{"board":[[1,0,0],[0,-1,0],[0,0,0]],"toMove":"X"}`
		moving   = `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`
		blockedO = `{"board":[[-1,-1,1],[-1,1,0],[1,0,0]],"toMove":"O"}`
		finished = `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`
	)
	for _, tc := range []struct {
		name, setup string
		seat        int
		move        string
		wantCode    engine.Code
		wantMsg     string
	}{
		{"game over", finished, 0, "a1a2", engine.CodeGameOver, "over"},
		{"wrong seat", placing, 1, "c3", engine.CodeNotYourTurn, "X's turn"},
		{"seat out of range", placing, 2, "c3", engine.CodeNotYourTurn, "seat 2"},
		{"negative seat", placing, -1, "c3", engine.CodeNotYourTurn, "seat -1"},
		{"malformed", placing, 0, "z9", engine.CodeIllegalMove, "not a move"},
		{"uppercase", placing, 0, "C3", engine.CodeIllegalMove, "not a move"},
		{"long garbage is cut in the message", placing, 0, strings.Repeat("x", 100), engine.CodeIllegalMove, `"xxxxxxxxxxxxxxxx"... is not a move`},
		{"place on occupied", placing, 0, "b2", engine.CodeIllegalMove, "b2 is occupied"},
		{"move while placing", placing, 0, "a1b1", engine.CodeIllegalMove, "still has pieces to place"},
		{"place while moving", moving, 0, "b1", engine.CodeIllegalMove, "placed all its pieces"},
		{"move from empty", moving, 0, "b1a2", engine.CodeIllegalMove, "b1 is empty"},
		{"move opponent's piece", moving, 0, "c1b1", engine.CodeIllegalMove, "c1 holds a piece of O"},
		{"not adjacent", moving, 0, "a1c3", engine.CodeIllegalMove, "not adjacent"},
		{"side to side is not a line", moving, 0, "a3b1", engine.CodeIllegalMove, "not adjacent"},
		{"onto occupied", moving, 0, "a1b2", engine.CodeIllegalMove, "b2 is occupied"},
		{"pass when not blocked", moving, 0, "a1a1", engine.CodeIllegalMove, "only when none of its pieces can move"},
		{"blocked O moves anyway", blockedO, 1, "a1b2", engine.CodeIllegalMove, "b2 is occupied"},
		{"blocked O passes with X's piece", blockedO, 1, "b2b2", engine.CodeIllegalMove, "holds a piece of X"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, tc.setup)
			before, _ := s.MarshalJSON()
			err := s.Apply(tc.seat, tc.move)
			if engine.CodeOf(err) != tc.wantCode || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("Apply(%d, %q) = %v, want code %s containing %q", tc.seat, tc.move, err, tc.wantCode, tc.wantMsg)
			}
			if after, _ := s.MarshalJSON(); string(after) != string(before) {
				t.Errorf("refused move changed the state:\n got %s\nwant %s", after, before)
			}
		})
	}
}

// A blocked player passes with any own piece, named twice; the board stays
// and the turn goes to the opponent.
func TestBlockedPass(t *testing.T) {
	s := mustNew(t, `{"board":[[-1,-1,1],[-1,1,0],[1,0,0]],"toMove":"O"}`)
	if got, want := s.Legal(1), []string{"a1a1", "b1b1", "a2a2"}; !slices.Equal(got, want) {
		t.Fatalf("Legal(O) = %v, want %v", got, want)
	}
	if err := s.Apply(1, "b1b1"); err != nil {
		t.Fatalf("pass b1b1: %v", err)
	}
	if got, want := s.Board().([]string), []string{"OOX", "OX.", "X.."}; !slices.Equal(got, want) {
		t.Errorf("board after the pass = %q, want %q", got, want)
	}
	if turn, ok := s.Turn(); !ok || turn != 0 {
		t.Errorf("Turn() after the pass = %d, %v; want 0", turn, ok)
	}
}

func TestLegalOrder(t *testing.T) {
	for _, tc := range []struct {
		name, setup string
		seat        int
		want        []string
	}{
		{"empty board", "", 0, []string{"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}},
		{"not this seat's turn", "", 1, nil},
		{"movement", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`, 0,
			[]string{"a1b1", "a1a2", "b2b1", "b2a2", "b2c3", "a3a2"}},
		{"game over", `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, tc.setup)
			if got := s.Legal(tc.seat); !slices.Equal(got, tc.want) {
				t.Errorf("Legal(%d) = %v, want %v", tc.seat, got, tc.want)
			}
		})
	}
}

// Three occurrences of the same board with the same side to move draw the
// game; the start position counts as the first.
func TestRepetitionDraw(t *testing.T) {
	s := mustNew(t, `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`)
	cycle := []string{"a1b1", "c2c3", "b1a1", "c3c2"}
	enginetest.Replay(t, s, cycle...)
	if s.Outcome().Over {
		t.Fatalf("over after the first cycle (2 occurrences): %+v", s.Outcome())
	}
	enginetest.Replay(t, s, cycle[:3]...)
	if s.Outcome().Over {
		t.Fatalf("over before the third occurrence: %+v", s.Outcome())
	}
	enginetest.Replay(t, s, cycle[3])
	want := engine.Outcome{Over: true, Winner: -1, Reason: ReasonRepetition}
	if got := s.Outcome(); got != want {
		t.Errorf("Outcome() after the third occurrence = %+v, want %+v", got, want)
	}
}

// MarshalJSON writes by hand exactly what json.Marshal writes for the
// snapshot it describes, and Restore reads it back to the same game.
func TestMarshalJSONMatchesEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		setup string
		moves []string
	}{
		{"", nil},
		{"", []string{"a2", "b2", "a1", "a3", "c1", "b1", "c1c2"}},
		{`{"board":[[-1,-1,1],[-1,1,0],[1,0,0]],"toMove":"O"}`, []string{"b1b1", "c1c2"}},
	} {
		s := mustNew(t, tc.setup)
		enginetest.Replay(t, s, tc.moves...)
		got, err := s.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		moves := s.moves
		if moves == nil {
			moves = []string{}
		}
		want, _ := json.Marshal(snapshot{
			Game: gameID, Variant: variant3, Start: s.start.setup(), Moves: moves,
			Board: s.pos.board.rows(), ToMove: s.pos.toMove.String(),
		})
		if string(got) != string(want) {
			t.Errorf("MarshalJSON after %v:\n got %s\nwant %s", tc.moves, got, want)
		}
		r, err := Game().Restore(got)
		if err != nil {
			t.Fatalf("Restore(%s): %v", got, err)
		}
		if err := enginetest.Same(s, r); err != nil {
			t.Errorf("restored game differs: %v", err)
		}
	}
}
