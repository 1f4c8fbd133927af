package records

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
	"github.com/tabuleiro/tabuleiro/players"
)

// The go seed's two printed games (002, Exemplo 1 and 2): the moves
// played, without the suicide the first one shows refused.
const goExample2Setup = `{"white":["C2","D2","E2","F2","G2","H2","B3","I3","B4","D4","E4","F4","B5","D5","G5","I5","B6","D6","E6","F6","G6","I6","C7","I7","C8","D8","E8","F8","G8","H8","I8"],` +
	`"black":["C3","D3","E3","F3","G3","C4","G4","H4","C5","H5","C6","H6","D7","E7","F7","G7","H7"]}`

var (
	goExample1 = []string{"A1", "B1", "B2", "A2", "A3", "A1", "C1", "E5", "pass", "pass"}
	goExample2 = []string{"E5", "F5", "E5", "pass", "pass"}
)

// goRecords are the go games of the golden files and of the GNU Go
// referee: the seed's two games, a resignation against a bot under a
// clock, a loss on time, a game that goes on, and a game from a setup
// where white moves first.
func goRecords(t testing.TB) map[string]*Record {
	t.Helper()
	ex1 := newRecord(t, "go", "9", "")
	play(t, ex1, goExample1...)
	ex2 := newRecord(t, "go", "9", goExample2Setup)
	play(t, ex2, goExample2...)

	resign := newRecord(t, "go", "19", "")
	resign.Players[1] = players.Player{Name: "bot forte", Bot: "forte"}
	resign.Clock = &Clock{Base: 600 * time.Second, Increment: 5 * time.Second}
	play(t, resign, "Q16", "D4", "Q4", "D16", "R10", "pass", "C3", "S19", "A1")
	resign.Result, resign.Status, resign.Ended = &Result{Winner: 0, Reason: "resign"}, StatusFinished, t0.Add(time.Minute)

	timeout := newRecord(t, "go", "13", "")
	timeout.Players[0].Name = "ana ] \\ the [first]"
	timeout.Clock = &Clock{Base: 60 * time.Second}
	play(t, timeout, "G7", "G6", "F6", "pass", "H6")
	timeout.Result, timeout.Status, timeout.Ended = &Result{Winner: 0, Reason: "timeout"}, StatusFinished, t0.Add(time.Minute)

	live := newRecord(t, "go", "9", "")
	play(t, live, "E5", "D5", "pass")

	white := newRecord(t, "go", "9", `{"black":["C3","G7"],"white":["C7"],"toMove":"white"}`)
	play(t, white, "G3", "E5", "pass", "pass")

	handicap := newRecord(t, "go", "13", "")
	handicap.Handicap, handicap.Komi = 4, -0.5
	play(t, handicap, "G7", "K7", "C7", "pass", "pass")
	return map[string]*Record{"go_example1": ex1, "go_example2": ex2, "go_resign_19": resign,
		"go_timeout_13": timeout, "go_live": live, "go_white_first": white, "go_handicap_13": handicap,
		"go_scored": scoredWall(t)}
}

// wallMoves is a 9x9 game: black's wall on column E, white's on F, black
// C3 in its own area and white B5 alone inside it, then two passes.
var wallMoves = func() []string {
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	return append(moves, "C3", "B5", "pass", "pass")
}()

// scoredWall is wallMoves played with komi 6.5 and stone removal, both
// players having accepted B5 as dead: black 45, white 36, black by 2.5.
func scoredWall(t testing.TB) *Record {
	t.Helper()
	rec := newRecord(t, "go", "9", "")
	rec.Room = "r-go-scored"
	rec.Komi, rec.Removal = 6.5, true
	play(t, rec, wallMoves...)
	rec.Dead = []string{"B5"}
	rec.Result, rec.Status, rec.Ended = &Result{Winner: 0, Reason: engine.ReasonScored}, StatusFinished, t0.Add(time.Hour)
	return rec
}

// TestSGFGolden writes the go records as SGF against golden files
// (go test ./records -run SGFGolden -update rewrites them).
func TestSGFGolden(t *testing.T) {
	for name, rec := range goRecords(t) {
		t.Run(name, func(t *testing.T) {
			sgf, err := SGF(context.Background(), catalog, rec)
			if err != nil {
				t.Fatal(err)
			}
			enginetest.Golden(t, name+".sgf", string(sgf))
		})
	}
}

func TestSGFProperties(t *testing.T) {
	recs := goRecords(t)
	for _, tc := range []struct {
		rec  string
		want []string
		not  []string
	}{
		// Exemplo 1: black 6, white 1 on the final board (the seed prints
		// them), so black by 5 less the half point.
		{"go_example1", []string{"SZ[9]", "RE[B+4.5]", "KM[0.5]", "PB[ana]", "PW[bia]", "DT[2030-01-02]", ";B[ai]", ";W[bi]", ";B[]", ";W[]"},
			[]string{"AB[", "AW[", "PL[", "TM["}},
		// Exemplo 2: white 51, black 28.
		{"go_example2", []string{"RE[W+23.5]", "AB[dc][ec]", "AW[cb][db]", ";B[ee];W[fe];B[ee];W[];B[]"}, nil},
		{"go_resign_19", []string{"SZ[19]", "RE[B+R]", "PW[bot forte]", "TM[600]OT[Fischer +5 s a move]", ";B[qd];W[dp];B[qp]", ";W[sa];B[as]"}, nil},
		{"go_timeout_13", []string{"RE[B+T]", `PB[ana \] \\ the [first\]]`, "TM[60]\n"}, []string{"OT["}},
		{"go_live", []string{";B[ee];W[de];B[]\n)"}, []string{"RE["}},
		{"go_white_first", []string{"PL[W]", "AB[gc][cg]", "AW[cc]", ";W[gg];B[ee];W[];B[]"}, nil},
		// Handicap 4 on 13x13 (D4 J4 D10 J10), white first, komi -0.5:
		// black's 5 stones and white's 2 with the empty board between
		// them nobody's, so black by 3 and the half point.
		{"go_handicap_13", []string{"KM[-0.5]", "HA[4]", "AB[dd][jd][dj][jj]", "PL[W]", ";W[gg];B[kg];W[cg];B[];W[]", "RE[B+3.5]", "RU[" + SGFRulesKomi + "]"}, []string{"TB[", "TW["}},
		// B5 (be) dead: black's territory holds it, white's is G-I.
		{"go_scored", []string{"KM[6.5]", "RU[" + SGFRulesRemoval + "]", "RE[B+2.5]", ";B[];W[]TB[aa][ba]", "[ae][be][ce]", "TW[ga][ha][ia]"},
			[]string{"HA[", "TB[ei]", "TW[fi]"}},
	} {
		t.Run(tc.rec, func(t *testing.T) {
			sgf, err := SGF(context.Background(), catalog, recs[tc.rec])
			if err != nil {
				t.Fatal(err)
			}
			s := string(sgf)
			if !strings.HasPrefix(s, "(;FF[4]GM[1]CA[UTF-8]") || !strings.HasSuffix(s, ")\n") {
				t.Errorf("not an FF[4] go game tree:\n%s", s)
			}
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("no %q in\n%s", w, s)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(s, w) {
					t.Errorf("%q in\n%s", w, s)
				}
			}
		})
	}
}

func TestSGFPoints(t *testing.T) {
	for _, tc := range []struct {
		n          int
		move, want string
	}{
		{9, "A1", "ai"}, {9, "A9", "aa"}, {9, "I9", "ia"}, {9, "I1", "ii"}, {9, "E5", "ee"},
		{13, "I13", "ia"}, {13, "J1", "jm"}, // I is a column of ours and of SGF's: no skip
		{19, "S19", "sa"}, {19, "A1", "as"}, {19, "Q16", "qd"}, {19, "D4", "dp"},
	} {
		col, row, ok := square(tc.move, goColumns[:tc.n], tc.n)
		if got := sgfPoint(col, tc.n-row); !ok || got != tc.want {
			t.Errorf("%s on %dx%d: %q, want %q", tc.move, tc.n, tc.n, got, tc.want)
		}
	}
}

func TestSGFRefuses(t *testing.T) {
	morris := newRecord(t, "morris", "3", "")
	if _, err := SGF(context.Background(), catalog, morris); !errors.Is(err, ErrNotGo) {
		t.Errorf("morris: %v", err)
	}
	bad := newRecord(t, "go", "9", "")
	bad.Moves = []Move{{Seat: 0, Move: "E5", Ms: 1}, {Seat: 1, Move: "E5", Ms: 1}}
	if _, err := SGF(context.Background(), catalog, bad); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("an occupied point: %v", err)
	}
}

// textRecords are the games of the plain-text golden files: the seeds'
// printed games, go Exemplo 2, and a random game of 2048, queens and
// orbito n=3 under a clock, with chat (which the notation leaves out).
func textRecords(t testing.TB) map[string]*Record {
	t.Helper()
	out := map[string]*Record{}
	for i, tr := range seedgames.Transcripts {
		out[[]string{"orbito_example1", "orbito_example2", "orbito_example3", "morris_facil"}[i]] = seedRecord(t, tr)
	}
	out["go_example2"] = goRecords(t)["go_example2"]
	rng := rand.New(rand.NewPCG(2048, 1))
	solo := newRecord(t, "2048", "solo", "")
	playRandom(t, solo, rng, 25, 0)
	solo.Result, solo.Status, solo.Ended = &Result{Winner: -1, Reason: "resign"}, StatusFinished, t0.Add(time.Hour)
	out["2048_solo_resigned"] = solo
	q := newRecord(t, "queens", "x-random", "")
	playRandom(t, q, rng, 100, 0)
	out["queens_x-random"] = q
	o := newRecord(t, "orbito", "3", "")
	o.Clock = &Clock{Base: 90 * time.Second, Increment: 1500 * time.Millisecond}
	o.Chat = []ChatLine{{From: "ana", Seat: 0, Text: "boa\nsorte", At: t0}}
	playRandom(t, o, rng, 12, 0)
	out["orbito_3_live"] = o
	return out
}

// TestTextGolden writes the records in the plain-text notation against
// golden files (go test ./records -run TextGolden -update rewrites them).
func TestTextGolden(t *testing.T) {
	for name, rec := range textRecords(t) {
		t.Run(name, func(t *testing.T) {
			enginetest.Golden(t, name+".txt", string(Text(rec)))
		})
	}
}

// TestTextShape: the header is "Key: value" lines, then a blank line, then
// exactly one line a move, numbered from 1, with the move's seat and move.
func TestTextShape(t *testing.T) {
	for name, rec := range textRecords(t) {
		head, body, ok := strings.Cut(string(Text(rec)), "\n\n")
		if !ok {
			t.Fatalf("%s: no blank line", name)
		}
		for _, l := range strings.Split(head, "\n") {
			if k, v, ok := strings.Cut(l, ": "); !ok || k == "" || v == "" {
				t.Errorf("%s: header line %q", name, l)
			}
		}
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if len(rec.Moves) == 0 {
			lines = nil
		}
		if len(lines) != len(rec.Moves) {
			t.Fatalf("%s: %d move lines for %d moves", name, len(lines), len(rec.Moves))
		}
		for i, l := range lines {
			m := rec.Moves[i]
			want := itoa(i+1) + ". " + itoa(m.Seat) + " " + m.Move + " "
			if !strings.HasPrefix(l, want) || !strings.HasSuffix(l, "ms") {
				t.Errorf("%s: line %q, want it to start %q", name, l, want)
			}
		}
	}
}
