package queens

// Every example printed in the seed (004, "O jogo das 8 rainhas") as a test.
// The sets are pasted as the seed prints them.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// parseTuples reads the seed's printed set "{(0, 1), (2, 4), ...}" as a
// sorted list of positions.
func parseTuples(t *testing.T, printed string) []pos {
	t.Helper()
	var out []pos
	for _, m := range regexp.MustCompile(`\((\d+),\s*(\d+)\)`).FindAllStringSubmatch(printed, -1) {
		r, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		out = append(out, pos{r, c})
	}
	set := map[pos]bool{}
	for _, p := range out {
		set[p] = true
	}
	if len(set) != len(out) {
		t.Fatalf("printed set has duplicates: %s", printed)
	}
	return sortedPositions(set)
}

func positionsOf(s squares, size int) []pos {
	var out []pos
	for sq := range size * size {
		if s.has(sq) {
			out = append(out, pos{sq / size, sq % size})
		}
	}
	return out
}

// mustNew builds a game of variant from a setup (none when empty), failing
// the test on error.
func mustNew(t testing.TB, variant, setup string) *state {
	t.Helper()
	return enginetest.New(t, Game(), variant, setup, 1).(*state)
}

// TestSeedQ1AttackedBy: pos_atacadas_por('D', (2,3), 8) and
// pos_atacadas_por('C', (0,5), 8).
func TestSeedQ1AttackedBy(t *testing.T) {
	tests := []struct {
		piece    byte
		row, col int
		size     int
		printed  string
	}{
		{'D', 2, 3, 8, `{(0, 1), (2, 4), (1, 2), (2, 1), (2, 7), (4, 3), (3, 4), (7, 3), (6, 7),
(0, 5), (2, 2), (3, 2), (2, 5), (1, 3), (4, 1), (0, 3), (2, 0), (1, 4),
(4, 5), (3, 3), (2, 6), (5, 0), (5, 6), (5, 3), (6, 3)}`},
		{'C', 0, 5, 8, `{(1, 7), (1, 3), (2, 4), (2, 6)}`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%c(%d,%d)", tt.piece, tt.row, tt.col), func(t *testing.T) {
			want := parseTuples(t, tt.printed)
			var got []pos
			for _, a := range attackedBy(tt.piece, tt.row, tt.col, tt.size) {
				got = append(got, pos{a[0], a[1]})
			}
			if !slices.Equal(got, want) {
				t.Errorf("attackedBy = %v, want %v", got, want)
			}
			table := positionsOf(geometries[tt.size].attacks[pieceIndex(tt.piece)][tt.row*tt.size+tt.col], tt.size)
			if !slices.Equal(table, want) {
				t.Errorf("attack table = %v, want %v", table, want)
			}
		})
	}
}

// TestSeedQ2AllAttacked: todas_pos_atacadas with queens on (4,4) and (3,0).
func TestSeedQ2AllAttacked(t *testing.T) {
	s := mustNew(t, "tradicional", `{"placed":{"4,4":"D","3,0":"D"},
		"hands":{"primeiro":["D","D","D"],"segundo":["D","D","D"]},"toMove":"primeiro"}`)
	want := parseTuples(t, `{(0, 0), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 4), (1, 7), (2, 0),
(2, 1), (2, 2), (2, 4), (2, 6), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5),
(3, 6), (3, 7), (4, 0), (4, 1), (4, 2), (4, 3), (4, 5), (4, 6), (4, 7),
(5, 0), (5, 2), (5, 3), (5, 4), (5, 5), (6, 0), (6, 2), (6, 3), (6, 4),
(6, 6), (7, 0), (7, 1), (7, 4), (7, 7)}`)
	if got := positionsOf(s.attacked, 8); !slices.Equal(got, want) {
		t.Errorf("attacked = %v, want %v", got, want)
	}
}

// seedQ3Setup is the position of Questões 3 and 4 (Hugo to move, as the
// faz_jogada example shows).
const seedQ3Setup = `{"placed":{"3,0":"D","6,6":"R"},
	"hands":{"primeiro":["D","R","R","T"],"segundo":["D","D","R","T"]},"toMove":"primeiro"}`

// TestSeedQ3ValidFor: pos_válidas_para('T', jogo), read through Legal: the
// T moves of primeiro, in ascending (row, col) order.
func TestSeedQ3ValidFor(t *testing.T) {
	s := mustNew(t, "tradicional", seedQ3Setup)
	want := parseTuples(t, `{(0, 1), (0, 2), (0, 4), (0, 5), (0, 7), (1, 1), (1, 3), (1, 4), (1, 5), (1, 7),
 (2, 2), (2, 3), (2, 4), (2, 5), (2, 7), (4, 2), (4, 3), (4, 4), (4, 5), (4, 7),
 (5, 1), (5, 3), (5, 4), (7, 1), (7, 2), (7, 3)}`)
	var got []pos
	for _, mv := range s.Legal(First) {
		m, err := s.parseMove(mv)
		if err != nil {
			t.Fatalf("Legal gave unparsable %q: %v", mv, err)
		}
		if pieceLetters[m.piece] == 'T' {
			got = append(got, pos{m.sq / 8, m.sq % 8})
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("T squares in Legal = %v, want %v", got, want)
	}
}

// TestSeedQ4Apply: faz_jogada(jogo, 'primeiro', 'T', (1,7)).
func TestSeedQ4Apply(t *testing.T) {
	s := mustNew(t, "tradicional", seedQ3Setup)
	if err := s.Apply(First, "T@1,7"); err != nil {
		t.Fatalf("Apply(T@1,7): %v", err)
	}
	want := mustNew(t, "tradicional", `{"placed":{"3,0":"D","6,6":"R","1,7":"T"},"owners":{"1,7":0},
		"hands":{"primeiro":["D","R","R"],"segundo":["D","D","R","T"]},"toMove":"segundo"}`)
	got, _ := s.MarshalJSON()
	wantJSON, _ := want.MarshalJSON()
	if string(got) != string(wantJSON) {
		t.Errorf("after T@1,7:\n got %s\nwant %s", got, wantJSON)
	}
	wantBoard := []string{"........", "......R.", "........", "........", "D.......", "........", ".......T", "........"}
	if b := s.Board().([]string); !slices.Equal(b, wantBoard) {
		t.Errorf("Board = %q, want %q", b, wantBoard)
	}
	wantOwners := []string{"........", "......?.", "........", "........", "?.......", "........", ".......0", "........"}
	if o := s.Extra()["owners"].([]string); !slices.Equal(o, wantOwners) {
		t.Errorf("owners = %q, want %q", o, wantOwners)
	}
}

// TestSeedQ5GameOver: jogo_acabou after primeiro's T on (1,7) (False), and
// after segundo's D on (7,1), which attacks that T ('primeiro' wins).
func TestSeedQ5GameOver(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		want  engine.Outcome
	}{
		{"after T@1,7 by primeiro", `{"placed":{"3,0":"D","6,6":"R","1,7":"T"},
			"hands":{"primeiro":["D","R","R"],"segundo":["D","D","R","T"]},"toMove":"segundo"}`,
			engine.Ongoing},
		{"after D@7,1 by segundo", `{"placed":{"3,0":"D","6,6":"R","1,7":"T","7,1":"D"},
			"hands":{"primeiro":["D","R","R"],"segundo":["D","R","T"]},"toMove":"primeiro"}`,
			engine.Outcome{Over: true, Winner: First, Reason: ReasonInvalidPlacement}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, "tradicional", tt.setup)
			if got := s.Outcome(); got != tt.want {
				t.Errorf("Outcome = %+v, want %+v", got, tt.want)
			}
		})
	}
	// Played through Apply, the same invalid D is refused: the service
	// refuses an invalid move instead of ending the game (see the docs).
	s := mustNew(t, "tradicional", seedQ3Setup)
	replay(t, s, "T@1,7")
	err := s.Apply(Second, "D@7,1")
	if engine.CodeOf(err) != engine.CodeIllegalMove {
		t.Fatalf("Apply(D@7,1) = %v, want an illegal_move error", err)
	}
	if want := "D@7,1: a D on 7,1 would attack the T on 1,7"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// TestSeedQ6NewGame: cria_jogo() and cria_jogo('x-random', ...).
func TestSeedQ6NewGame(t *testing.T) {
	s := mustNew(t, "tradicional", "")
	wantHands := map[string][]string{"primeiro": {"D", "D", "D", "D"}, "segundo": {"D", "D", "D", "D"}}
	if got := s.Extra()["hands"]; fmt.Sprint(got) != fmt.Sprint(wantHands) {
		t.Errorf("tradicional hands = %v, want %v", got, wantHands)
	}
	if s.occupied.count() != 0 {
		t.Errorf("tradicional starts with %d pieces, want 0", s.occupied.count())
	}
	if seat, ok := s.Turn(); !ok || seat != First {
		t.Errorf("Turn = %d, %v, want primeiro (0), true", seat, ok)
	}
	// The seed prints one draw, ['B', 'C', 'C', 'C', 'T'] for both; some
	// seed must give it, and every draw is five sorted pieces, the same for
	// both players.
	found := false
	for seed := range uint64(3000) {
		x, err := Game().New("x-random", nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		h := x.(*state).hands
		if !slices.Equal(h[0], h[1]) || len(h[0]) != xRandomHand || !slices.IsSorted(h[0]) {
			t.Fatalf("seed %d: hands %q and %q, want the same 5 sorted pieces", seed, h[0], h[1])
		}
		found = found || string(h[0]) == "BCCCT"
	}
	if !found {
		t.Errorf("no seed in 0..2999 draws BCCCT, the seed's example")
	}
}

// TestSeedFigure1FirstMove: the first round of Figure 1, ('D', (3,1)).
func TestSeedFigure1FirstMove(t *testing.T) {
	s := mustNew(t, "tradicional", "")
	replay(t, s, "D@3,1")
	if got, want := s.Board().([]string)[7-3], ".D......"; got != want {
		t.Errorf("row 3 = %q, want %q", got, want)
	}
	if got := fmt.Sprint(s.Extra()["hands"]); got != "map[primeiro:[D D D] segundo:[D D D D]]" {
		t.Errorf("hands = %s, want primeiro 3 D, segundo 4 D", got)
	}
	if seat, _ := s.Turn(); seat != Second {
		t.Errorf("Turn = %d, want segundo", seat)
	}
}

// TestSeedFigure3Grande: the dictionary of Figure 3, a Grande game after
// three rounds, is a valid setup with segundo to move.
func TestSeedFigure3Grande(t *testing.T) {
	s := mustNew(t, "grande", `{"placed":{"4,9":"D","8,7":"D","10,10":"D"},
		"hands":{"primeiro":["D","D","D","D","D","D","D","D"],"segundo":["D","D","D","D","D","D","D","D","D"]},
		"toMove":"segundo"}`)
	if s.Outcome().Over {
		t.Fatalf("Outcome = %+v, want ongoing", s.Outcome())
	}
	if got, want := len(s.Board().([]string)), 20; got != want {
		t.Errorf("board has %d rows, want %d", got, want)
	}
	if got := s.Board().([]string)[19-10][10]; got != 'D' {
		t.Errorf("square 10,10 = %c, want D", got)
	}
}

// TestSeedPositionsBots asks every seed bot for a move in every position the
// seed prints that is still going, built from its setup JSON as POST
// /api/bot/move does (the seed prints no bot move of its own), and checks
// the seed bots against the naive reference (ref_test.go) and against the
// expected move, counted by hand where the comment says so.
func TestSeedPositionsBots(t *testing.T) {
	t.Parallel()
	positions := []struct {
		name, variant, setup string
		seat                 int
		wantApressado        string
		wantGulosa           string
	}{
		// Q2: queens on 4,4 and 3,0. 0,0 is attacked, and a queen on 0,1
		// attacks neither queen. Counting on the printed set, a queen on
		// 0,5 attacks 11 unattacked squares: 0,1 0,2 0,6 0,7 (row), 1,5
		// 2,5 6,5 7,5 (column), 2,3, 1,6 2,7 (diagonals); no earlier
		// square does as well.
		{"Q2", "tradicional", `{"placed":{"4,4":"D","3,0":"D"},
			"hands":{"primeiro":["D","D","D"],"segundo":["D","D","D"]},"toMove":"primeiro"}`,
			First, "D@0,1", "D@0,5"},
		// Q3/Q4, Hugo to move with D, R, R, T: D comes first in the hand;
		// 0,0 is on the D of 3,0's column, 0,1 is free and its queen's
		// lines miss 3,0 and 6,6.
		{"Q3", "tradicional", seedQ3Setup, First, "D@0,1", "D@2,4"},
		// Q5, Bernardo to move with D, D, R, T after T@1,7.
		{"Q5", "tradicional", `{"placed":{"3,0":"D","6,6":"R","1,7":"T"},
			"hands":{"primeiro":["D","R","R"],"segundo":["D","D","R","T"]},"toMove":"segundo"}`,
			Second, "D@0,1", "D@2,4"},
		// Figure 1 after ('D', (3,1)): 0,0 is on none of its lines.
		{"Figure1", "tradicional", `{"placed":{"3,1":"D"},
			"hands":{"primeiro":["D","D","D"],"segundo":["D","D","D","D"]},"toMove":"segundo"}`,
			Second, "D@0,0", "D@1,6"},
		// Figure 3, Grande after three rounds: 0,0 is on the diagonal of
		// 10,10, 0,1 on no line of the three queens.
		{"Figure3", "grande", `{"placed":{"4,9":"D","8,7":"D","10,10":"D"},
			"hands":{"primeiro":["D","D","D","D","D","D","D","D"],"segundo":["D","D","D","D","D","D","D","D","D"]},
			"toMove":"segundo"}`, Second, "D@0,1", "D@11,8"},
	}
	for _, p := range positions {
		t.Run(p.name, func(t *testing.T) {
			s := mustNew(t, p.variant, p.setup)
			ref := refFromState(s)
			refAll := refMoves(ref, p.seat)
			refGreedyMove, _ := refGreedy(ref, p.seat)
			checks := []struct {
				level string
				want  string
			}{
				{LevelApressado, refAll[0].String()},
				{LevelApressado, p.wantApressado},
				{LevelGulosa, refGreedyMove.String()},
				{LevelGulosa, p.wantGulosa},
			}
			for _, c := range checks {
				bot, _ := Game().Bot(c.level)
				got, err := bot(s.Clone(), p.seat, nil, time.Time{})
				if err != nil {
					t.Fatalf("%s: %v", c.level, err)
				}
				if got != c.want {
					t.Errorf("%s plays %s, want %s", c.level, got, c.want)
				}
			}
			for _, level := range []string{LevelRoleta, LevelForte} {
				bot, _ := Game().Bot(level)
				got, err := bot(s.Clone(), p.seat, rand.New(rand.NewPCG(1, 2)), time.Time{})
				if err != nil {
					t.Fatalf("%s: %v", level, err)
				}
				if !slices.Contains(s.Legal(p.seat), got) {
					t.Errorf("%s plays %s, not a valid move", level, got)
				}
			}
		})
	}
}

func replay(t *testing.T, s engine.State, moves ...string) {
	t.Helper()
	for _, m := range moves {
		seat, ok := s.Turn()
		if !ok {
			t.Fatalf("move %s: game over", m)
		}
		if err := s.Apply(seat, m); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
}
