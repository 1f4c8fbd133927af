package g2048

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// mustCoord builds a coordinate that the test knows to be on the grid.
func mustCoord(t *testing.T, row, col int) coord {
	t.Helper()
	c, err := newCoord(row, col)
	if err != nil {
		t.Fatalf("newCoord(%d, %d): %v", row, col, err)
	}
	return c
}

// gridOf builds a grid from rows, top row first.
func gridOf(rows [Size][Size]int, score int) grid {
	return grid{cells: rows, score: score}
}

// TestSeedCoordinateExamples is the seed's TAD coordenada session:
// cria_coordenada(-1, 1), (1, 5) and (0, 0) are refused; (1, 2) has row 1
// and column 2; (1, 2) and (2, 1) are not the same coordinate.
func TestSeedCoordinateExamples(t *testing.T) {
	tests := []struct {
		row, col int
		wantErr  bool
	}{
		{-1, 1, true},
		{1, 5, true},
		{0, 0, true},
		{1, 2, false},
		{2, 1, false},
		{4, 4, false},
		{5, 1, true},
	}
	for _, tt := range tests {
		c, err := newCoord(tt.row, tt.col)
		if (err != nil) != tt.wantErr {
			t.Errorf("newCoord(%d, %d) error = %v, want error %v", tt.row, tt.col, err, tt.wantErr)
			continue
		}
		if err == nil && (c.row != tt.row || c.col != tt.col) {
			t.Errorf("newCoord(%d, %d) = row %d col %d", tt.row, tt.col, c.row, c.col)
		}
	}
	c1, c2 := mustCoord(t, 1, 2), mustCoord(t, 2, 1)
	if c1 == c2 {
		t.Errorf("coordinates (1, 2) and (2, 1) compare equal, want different")
	}
	if c1 != mustCoord(t, 1, 2) {
		t.Errorf("coordinates (1, 2) and (1, 2) compare different, want equal")
	}
}

// TestSeedBoardSession is the seed's TAD tabuleiro session, step by step:
// the printed boards are compared with testdata/seed_session.golden, which
// holds the seed's printouts verbatim.
func TestSeedBoardSession(t *testing.T) {
	var out strings.Builder
	var g grid // cria_tabuleiro: empty, score 0
	out.WriteString(g.String())

	if err := g.set(mustCoord(t, 2, 2), 2); err != nil {
		t.Fatalf("set (2, 2): %v", err)
	}
	out.WriteString(g.String())
	out.WriteString(g.String()) // the modifier changed t itself

	if _, err := g.at(coord{}); err == nil {
		t.Errorf("at(invalid coordinate) succeeded, want an error (tabuleiro_posicao: argumentos invalidos)")
	}
	for _, tt := range []struct{ row, col, want int }{{2, 4, 0}, {2, 2, 2}} {
		if got, err := g.at(mustCoord(t, tt.row, tt.col)); err != nil || got != tt.want {
			t.Errorf("at(%d, %d) = %d, %v; want %d", tt.row, tt.col, got, err, tt.want)
		}
	}

	if err := g.set(mustCoord(t, 2, 4), 2); err != nil {
		t.Fatalf("set (2, 4): %v", err)
	}
	out.WriteString(g.String())

	empty := g.empties()
	if !slices.Contains(empty, mustCoord(t, 1, 1)) {
		t.Errorf("(1, 1) not in empties %v, want it there", empty)
	}
	if slices.Contains(empty, mustCoord(t, 2, 2)) {
		t.Errorf("(2, 2) in empties %v, want it absent", empty)
	}
	if len(empty) != 14 {
		t.Errorf("len(empties) = %d, want 14", len(empty))
	}

	if !g.reduce(East) {
		t.Errorf("reduce(E) reported no change")
	}
	out.WriteString(g.String())
	out.WriteString(g.String())
	if g.score != 4 {
		t.Errorf("score after reduce(E) = %d, want 4", g.score)
	}
	enginetest.Golden(t, "seed_session.golden", out.String())
}

// TestSeedMoveInput is the seed's pede_jogada example: "1", "a" and "n" are
// refused, "N" is accepted; the other directions too.
func TestSeedMoveInput(t *testing.T) {
	tests := []struct {
		in      string
		want    Direction
		wantErr bool
	}{
		{"1", 0, true},
		{"a", 0, true},
		{"n", 0, true},
		{"N", North, false},
		{"S", South, false},
		{"E", East, false},
		{"W", West, false},
		{"", 0, true},
		{"NN", 0, true},
		{" N", 0, true},
		{"north", 0, true},
	}
	for _, tt := range tests {
		got, err := parseDirection(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
			t.Errorf("parseDirection(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("Direction %v prints as %q, want %q", got, got.String(), tt.in)
		}
	}
}

// TestSlideLine covers the seed's slide rule on one line (index 0 is the
// wall the tiles move to): tiles move one at a time from the wall side,
// each as far as it can; a merged tile does not merge again in the same
// move. The first case is the seed's Fig. 4 row: the 4 at (4, 2) merges
// into (4, 1) giving 8, and the 8 from (4, 3) stops against that new 8.
func TestSlideLine(t *testing.T) {
	tests := []struct {
		in, want   [Size]int
		wantGained int
	}{
		{[Size]int{4, 4, 8, 0}, [Size]int{8, 8, 0, 0}, 8},
		{[Size]int{2, 2, 2, 0}, [Size]int{4, 2, 0, 0}, 4},
		{[Size]int{2, 2, 2, 2}, [Size]int{4, 4, 0, 0}, 8},
		{[Size]int{0, 0, 0, 2}, [Size]int{2, 0, 0, 0}, 0},
		{[Size]int{2, 0, 2, 4}, [Size]int{4, 4, 0, 0}, 4},
		{[Size]int{4, 0, 0, 4}, [Size]int{8, 0, 0, 0}, 8},
		{[Size]int{8, 4, 4, 0}, [Size]int{8, 8, 0, 0}, 8},
		{[Size]int{2, 4, 8, 16}, [Size]int{2, 4, 8, 16}, 0},
		{[Size]int{0, 2, 2, 4}, [Size]int{4, 4, 0, 0}, 4},
		{[Size]int{4, 4, 4, 4}, [Size]int{8, 8, 0, 0}, 16},
		{[Size]int{0, 0, 0, 0}, [Size]int{0, 0, 0, 0}, 0},
		{[Size]int{65536, 65536, 2, 2}, [Size]int{131072, 4, 0, 0}, 131076},
	}
	for _, tt := range tests {
		got, gained := slideLine(tt.in)
		if got != tt.want || gained != tt.wantGained {
			t.Errorf("slideLine(%v) = %v, %d; want %v, %d", tt.in, got, gained, tt.want, tt.wantGained)
		}
	}
}

// TestSeedFigure4 is the reduction the seed describes for Fig. 4 (the
// figure itself is missing from the converted text): action W on a board
// whose row 4 is 4 4 8 gives 8 8 on that row, with 8 points.
func TestSeedFigure4(t *testing.T) {
	g := gridOf([Size][Size]int{
		{0, 0, 0, 2},
		{0, 0, 0, 0},
		{0, 2, 0, 0},
		{4, 4, 8, 0},
	}, 0)
	want := gridOf([Size][Size]int{
		{2, 0, 0, 0},
		{0, 0, 0, 0},
		{2, 0, 0, 0},
		{8, 8, 0, 0},
	}, 8)
	if !g.reduce(West) {
		t.Fatalf("reduce(W) reported no change")
	}
	if !g.equal(&want) {
		t.Errorf("after W:\n%swant:\n%s", g.String(), want.String())
	}
}

// TestReduceEachDirection plays each of the four actions on the same board
// (the seed's Fig. 2 and 3 show such a set, but the converted text lost the
// figures; the expected boards here were worked out by hand from the rule).
func TestReduceEachDirection(t *testing.T) {
	start := [Size][Size]int{
		{2, 0, 2, 4},
		{0, 4, 0, 4},
		{2, 2, 2, 2},
		{0, 0, 0, 8},
	}
	tests := []struct {
		d         Direction
		want      [Size][Size]int
		wantScore int
	}{
		{North, [Size][Size]int{
			{4, 4, 4, 8},
			{0, 2, 0, 2},
			{0, 0, 0, 8},
			{0, 0, 0, 0},
		}, 16},
		{South, [Size][Size]int{
			{0, 0, 0, 0},
			{0, 0, 0, 8},
			{0, 4, 0, 2},
			{4, 2, 4, 8},
		}, 16},
		{East, [Size][Size]int{
			{0, 0, 4, 4},
			{0, 0, 0, 8},
			{0, 0, 4, 4},
			{0, 0, 0, 8},
		}, 20},
		{West, [Size][Size]int{
			{4, 4, 0, 0},
			{8, 0, 0, 0},
			{4, 4, 0, 0},
			{8, 0, 0, 0},
		}, 20},
	}
	for _, tt := range tests {
		g := gridOf(start, 100)
		if !g.reduce(tt.d) {
			t.Errorf("reduce(%v) reported no change", tt.d)
		}
		want := gridOf(tt.want, 100+tt.wantScore)
		if !g.equal(&want) {
			t.Errorf("reduce(%v):\ngot\n%swant\n%s", tt.d, g.String(), want.String())
		}
	}
}

// TestFinished is tabuleiro_terminado: a board is finished when it is full
// and no move changes it.
func TestFinished(t *testing.T) {
	tests := []struct {
		name string
		rows [Size][Size]int
		want bool
	}{
		{"full, no equal neighbours", [Size][Size]int{
			{2, 4, 2, 4},
			{4, 2, 4, 2},
			{2, 4, 2, 4},
			{4, 2, 4, 2},
		}, true},
		{"full, equal neighbours in a row", [Size][Size]int{
			{2, 2, 8, 4},
			{4, 8, 4, 2},
			{2, 4, 2, 4},
			{4, 2, 4, 2},
		}, false},
		{"full, equal neighbours in a column", [Size][Size]int{
			{2, 4, 2, 4},
			{4, 2, 4, 8},
			{2, 4, 2, 8},
			{4, 2, 4, 2},
		}, false},
		{"one empty cell", [Size][Size]int{
			{2, 4, 2, 4},
			{4, 2, 4, 2},
			{2, 4, 0, 4},
			{4, 2, 4, 2},
		}, false},
	}
	for _, tt := range tests {
		g := gridOf(tt.rows, 0)
		if got := g.finished(); got != tt.want {
			t.Errorf("%s: finished() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestEqual is tabuleiros_iguais: same tiles and same score.
func TestEqual(t *testing.T) {
	a := gridOf([Size][Size]int{{2}}, 4)
	tests := []struct {
		name string
		b    grid
		want bool
	}{
		{"same", gridOf([Size][Size]int{{2}}, 4), true},
		{"other score", gridOf([Size][Size]int{{2}}, 8), false},
		{"other tile", gridOf([Size][Size]int{{4}}, 4), false},
		{"other place", gridOf([Size][Size]int{{0, 2}}, 4), false},
	}
	for _, tt := range tests {
		if got := a.equal(&tt.b); got != tt.want {
			t.Errorf("%s: equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSetAndAddScore covers the checks of tabuleiro_preenche_posicao and
// tabuleiro_atualiza_pontuacao (a non-negative multiple of 4).
func TestSetAndAddScore(t *testing.T) {
	var g grid
	setTests := []struct {
		c       coord
		v       int
		wantErr bool
	}{
		{coord{1, 1}, 2, false},
		{coord{4, 4}, 0, false},
		{coord{0, 1}, 2, true},
		{coord{1, 5}, 2, true},
		{coord{1, 1}, 3, true},
		{coord{1, 1}, 1, true},
		{coord{1, 1}, -2, true},
	}
	for _, tt := range setTests {
		if err := g.set(tt.c, tt.v); (err != nil) != tt.wantErr {
			t.Errorf("set(%v, %d) error = %v, want error %v", tt.c, tt.v, err, tt.wantErr)
		}
	}
	scoreTests := []struct {
		v       int
		wantErr bool
	}{{4, false}, {0, false}, {2048, false}, {-4, true}, {6, true}, {2, true}}
	for _, tt := range scoreTests {
		before := g.score
		err := g.addScore(tt.v)
		if (err != nil) != tt.wantErr {
			t.Errorf("addScore(%d) error = %v, want error %v", tt.v, err, tt.wantErr)
		}
		want := before + tt.v
		if tt.wantErr {
			want = before
		}
		if g.score != want {
			t.Errorf("score after addScore(%d) = %d, want %d", tt.v, g.score, want)
		}
	}
}
