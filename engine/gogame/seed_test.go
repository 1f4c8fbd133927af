package gogame

import (
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// The seed's stones of section 2.1.3 (goban examples) and 2.2.
var (
	seedWhite       = []string{"C1", "C2", "C3", "D2", "D3", "D4", "A3", "B3"}
	seedBlack       = []string{"E4", "E5", "F4", "F5", "G6", "G7"}
	seedBlackCorner = []string{"A1", "A2", "B1", "E4", "E5", "F4", "F5", "G6", "G7"}
)

// TestSeedIntersections covers the examples of the TAD intersecao: a
// lower-case column is refused, names print as "B13", adjacent
// intersections and sorting follow the reading order.
func TestSeedIntersections(t *testing.T) {
	geo := geometries[19]
	for _, bad := range []string{"a12", "T1", "A0", "A20", "A02", "B", "", "A1 ", "A+1"} {
		if _, err := geo.parsePoint(bad); err == nil {
			t.Errorf("parsePoint(%q) accepted, want refused", bad)
		}
	}
	i1, i2 := point(t, geo, "A2"), point(t, geo, "B13")
	if i1 == i2 {
		t.Errorf("A2 and B13 are the same intersection %d", i1)
	}
	if got := geo.names[i2]; got != "B13" {
		t.Errorf("name of B13 = %q, want B13", got)
	}
	if got := names(geo, geo.adj[i1]); !slices.Equal(got, []string{"A1", "B2", "A3"}) {
		t.Errorf("adjacent to A2 = %v, want [A1 B2 A3]", got)
	}
	tup := []int{point(t, geo, "A1"), point(t, geo, "A3"), point(t, geo, "B1"), point(t, geo, "B2")}
	slices.Sort(tup)
	if got := names(geo, tup); !slices.Equal(got, []string{"A1", "B1", "B2", "A3"}) {
		t.Errorf("sorted = %v, want [A1 B1 B2 A3]", got)
	}
}

// TestSeedStones covers the TAD pedra: white prints 'O', black 'X', the
// neutral stone '.', and only the first two belong to a player.
func TestSeedStones(t *testing.T) {
	for _, tc := range []struct {
		c      color
		symbol byte
		seat   int
	}{{white, 'O', 1}, {black, 'X', 0}, {empty, '.', -1}} {
		if got := tc.c.symbol(); got != tc.symbol {
			t.Errorf("symbol of %d = %c, want %c", tc.c, got, tc.symbol)
		}
		if got := tc.c.seat(); got != tc.seat {
			t.Errorf("seat of %d = %d, want %d", tc.c, got, tc.seat)
		}
	}
	if black == white {
		t.Error("black and white stones are equal")
	}
}

// TestSeedGoban covers the goban examples: size 10 is refused, an empty
// intersection holds a neutral stone, and on the seed's position the chain
// of F5, its liberties, the first territory, its border and the stone counts.
func TestSeedGoban(t *testing.T) {
	_, err := Game().New("10", nil, 0)
	wantCode(t, err, engine.CodeUnknownGame, `"10"`)

	s := mustNew(t, "9", "")
	geo := s.board.geo
	if got := s.board.cells[point(t, geo, "C8")]; got != empty {
		t.Errorf("C8 on the empty board holds %c, want .", got.symbol())
	}
	s = mustNew(t, "9", setupJSON(t, seedBlack, seedWhite, "black"))
	wantRows := []string{
		".........",
		".........",
		"......X..",
		"......X..",
		"....XX...",
		"...OXX...",
		"OOOO.....",
		"..OO.....",
		"..O......",
	}
	if got := s.board.rows(); !slices.Equal(got, wantRows) {
		t.Fatalf("board = %q, want %q", got, wantRows)
	}
	b := s.board
	cad := b.chain(point(t, geo, "F5"))
	for _, tc := range []struct {
		what string
		got  []int
		want []string
	}{
		{"chain of F5", cad, []string{"E4", "F4", "E5", "F5"}},
		{"liberties", b.differentNeighbours(cad), []string{"E3", "F3", "G4", "D5", "G5", "E6", "F6"}},
		{"first territory", b.territories()[0], []string{"A1", "B1", "A2", "B2"}},
		{"its border", b.differentNeighbours(b.territories()[0]), []string{"C1", "C2", "A3", "B3"}},
	} {
		if got := names(geo, tc.got); !slices.Equal(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.what, got, tc.want)
		}
	}
	if nb, nw := b.count(); nw != 8 || nb != 6 {
		t.Errorf("stones (white, black) = (%d, %d), want (8, 6)", nw, nb)
	}
}

// TestSeedCapture covers jogada: white B2 captures the black chain A1 A2 B1.
func TestSeedCapture(t *testing.T) {
	s := mustNew(t, "9", setupJSON(t, seedBlackCorner, seedWhite, "white"))
	before := []string{
		".........",
		".........",
		"......X..",
		"......X..",
		"....XX...",
		"...OXX...",
		"OOOO.....",
		"X.OO.....",
		"XXO......",
	}
	if got := s.board.rows(); !slices.Equal(got, before) {
		t.Fatalf("board = %q, want %q", got, before)
	}
	if err := s.Apply(1, "B2"); err != nil {
		t.Fatalf("white B2: %v", err)
	}
	after := slices.Clone(before)
	after[7], after[8] = ".OOO.....", "..O......"
	if got := s.board.rows(); !slices.Equal(got, after) {
		t.Errorf("after white B2, board = %q, want %q", got, after)
	}
}

// TestSeedScore covers calcula_pontos: (white, black) = (12, 6).
func TestSeedScore(t *testing.T) {
	s := mustNew(t, "9", setupJSON(t, seedBlack, seedWhite, "black"))
	if got, want := scoreOf(t, s), (Score{Black: 6, White: 12}); got != want {
		t.Errorf("score = %+v, want %+v", got, want)
	}
}

// TestSeedLegality covers eh_jogada_legal: black B2 is suicide and white B2
// legal in the corner position; in the ko position black B2 is legal, and
// once it is played, white retaking at C2 repeats the earlier position and
// white B2 is occupied. A refused move changes nothing.
func TestSeedLegality(t *testing.T) {
	corner := setupJSON(t, seedBlackCorner, seedWhite, "black")
	s := mustNew(t, "9", corner)
	wantCode(t, s.Apply(0, "B2"), engine.CodeIllegalMove, "B2", "suicide")
	if slices.Contains(s.Legal(0), "B2") {
		t.Error("black B2 (suicide) is in Legal")
	}
	s = mustNew(t, "9", setupJSON(t, seedBlackCorner, seedWhite, "white"))
	if !slices.Contains(s.Legal(1), "B2") {
		t.Errorf("white B2 is not in Legal %v", s.Legal(1))
	}

	ko := setupJSON(t, []string{"C1", "C3", "D1", "D2"}, []string{"A2", "B1", "B3", "C2"}, "black")
	s = mustNew(t, "9", ko)
	wantKo := []string{
		".........", ".........", ".........", ".........", ".........", ".........",
		".OX......",
		"O.OX.....",
		".OXX.....",
	}
	if got := s.board.rows(); !slices.Equal(got, wantKo) {
		t.Fatalf("ko position = %q, want %q", got, wantKo)
	}
	if err := s.Apply(0, "B2"); err != nil {
		t.Fatalf("black B2: %v", err)
	}
	wantKo[7] = "OX.X....."
	if got := s.board.rows(); !slices.Equal(got, wantKo) {
		t.Fatalf("after black B2 = %q, want %q", got, wantKo)
	}
	before, _ := s.MarshalJSON()
	wantCode(t, s.Apply(1, "C2"), engine.CodeIllegalMove, "C2 repeats an earlier position")
	wantCode(t, s.Apply(1, "B2"), engine.CodeIllegalMove, "B2 is occupied")
	if after, _ := s.MarshalJSON(); string(after) != string(before) {
		t.Errorf("refused moves changed the state:\n got %s\nwant %s", after, before)
	}
}

// TestSeedPlayerTurn covers turno_jogador: B10 is not an intersection of
// the 9x9 board, B2 is suicide for black, G5 is played.
func TestSeedPlayerTurn(t *testing.T) {
	s := mustNew(t, "9", setupJSON(t, seedBlackCorner, seedWhite, "black"))
	wantCode(t, s.Apply(0, "B10"), engine.CodeIllegalMove, `"B10"`, "9x9")
	wantCode(t, s.Apply(0, "B2"), engine.CodeIllegalMove, "suicide")
	if err := s.Apply(0, "G5"); err != nil {
		t.Fatalf("black G5: %v", err)
	}
	want := []string{
		".........",
		".........",
		"......X..",
		"......X..",
		"....XXX..",
		"...OXX...",
		"OOOO.....",
		"X.OO.....",
		"XXO......",
	}
	if got := s.board.rows(); !slices.Equal(got, want) {
		t.Errorf("board = %q, want %q", got, want)
	}
}

// step is one input of a transcript: the move typed by the side to move, the
// refusal it gets (a fragment of the message, "" when it is played), and
// the scores and board printed after it (rows nil: unchanged).
type step struct {
	move         string
	refused      string
	white, black int
	rows         []string
}

// transcript is one of the seed's go(n, tb, tn) examples.
type transcript struct {
	name         string
	setup        string
	white, black int
	rows         []string
	steps        []step
	whiteWins    bool
}

// seedTranscripts are the seed's Exemplo 1 and Exemplo 2, with the
// conversion's '0' read as 'O' and the dropped dots of the PDF restored.
var seedTranscripts = []transcript{
	{
		name: "example1",
		rows: []string{".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."},
		steps: []step{
			{move: "A1", white: 0, black: 81, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "X........"}},
			{move: "B1", white: 1, black: 1, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XO......."}},
			{move: "B2", white: 1, black: 2, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", ".........", ".X.......", "XO......."}},
			{move: "A2", white: 3, black: 1, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", ".........", "OX.......", ".O......."}},
			{move: "A1", refused: "suicide"},
			{move: "A3", white: 3, black: 2, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", "X........", "OX.......", ".O......."}},
			{move: "A1", white: 3, black: 2, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", "X........", "OX.......", "OO......."}},
			{move: "C1", white: 0, black: 81, rows: []string{".........", ".........", ".........", ".........", ".........", ".........", "X........", ".X.......", "..X......"}},
			{move: "E5", white: 1, black: 6, rows: []string{".........", ".........", ".........", ".........", "....O....", ".........", "X........", ".X.......", "..X......"}},
			{move: "pass", white: 1, black: 6},
			{move: "pass", white: 1, black: 6},
		},
		whiteWins: false,
	},
	{
		name: "example2",
		setup: `{"white":["C2","D2","E2","F2","G2","H2","B3","I3","B4","D4","E4","F4","B5","D5","G5","I5","B6","D6","E6","F6","G6","I6","C7","I7","C8","D8","E8","F8","G8","H8","I8"],` +
			`"black":["C3","D3","E3","F3","G3","C4","G4","H4","C5","H5","C6","H6","D7","E7","F7","G7","H7"]}`,
		white: 62, black: 17,
		rows: []string{".........", "..OOOOOOO", "..OXXXXXO", ".OXOOOOXO", ".OXO..OXO", ".OXOOOXX.", ".OXXXXX.O", "..OOOOOO.", "........."},
		steps: []step{
			{move: "E5", white: 60, black: 18, rows: []string{".........", "..OOOOOOO", "..OXXXXXO", ".OXOOOOXO", ".OXOX.OXO", ".OXOOOXX.", ".OXXXXX.O", "..OOOOOO.", "........."}},
			{move: "F5", white: 62, black: 17, rows: []string{".........", "..OOOOOOO", "..OXXXXXO", ".OXOOOOXO", ".OXO.OOXO", ".OXOOOXX.", ".OXXXXX.O", "..OOOOOO.", "........."}},
			{move: "E5", white: 51, black: 28, rows: []string{".........", "..OOOOOOO", "..OXXXXXO", ".OX....XO", ".OX.X..XO", ".OX...XX.", ".OXXXXX.O", "..OOOOOO.", "........."}},
			{move: "pass", white: 51, black: 28},
			{move: "pass", white: 51, black: 28},
		},
		whiteWins: true,
	},
}

// TestSeedTranscripts replays the seed's two games move by move: every
// refusal, every printed score and board, the final printout against a
// golden file, and the final True/False (whether white wins).
func TestSeedTranscripts(t *testing.T) {
	for _, tr := range seedTranscripts {
		t.Run(tr.name, func(t *testing.T) {
			s := mustNew(t, "9", tr.setup)
			rows := tr.rows
			check := func(when string, white, black int) {
				t.Helper()
				if got, want := scoreOf(t, s), (Score{Black: black, White: white}); got != want {
					t.Errorf("%s: score %+v, want %+v", when, got, want)
				}
				if got := s.Board().([]string); !slices.Equal(got, rows) {
					t.Errorf("%s: board %q, want %q", when, got, rows)
				}
			}
			check("start", tr.white, tr.black)
			for i, st := range tr.steps {
				seat, _ := s.Turn()
				err := s.Apply(seat, st.move)
				if st.refused != "" {
					wantCode(t, err, engine.CodeIllegalMove, st.refused)
					continue
				}
				if err != nil {
					t.Fatalf("step %d: seat %d %s refused: %v", i, seat, st.move, err)
				}
				if st.rows != nil {
					rows = st.rows
				}
				check("after "+st.move, st.white, st.black)
			}
			out := s.Outcome()
			if !out.Over || out.Reason != ReasonTwoPasses {
				t.Fatalf("outcome %+v, want over by %s", out, ReasonTwoPasses)
			}
			if got := out.Winner == white.seat(); got != tr.whiteWins {
				t.Errorf("white wins = %v, want %v (outcome %+v)", got, tr.whiteWins, out)
			}
			enginetest.Golden(t, tr.name+"_final.golden", s.String()+"\n")
		})
	}
}
