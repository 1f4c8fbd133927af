package g2048

import (
	"math/rand/v2"
	"testing"
)

// randomRows returns a random board with tiles up to 2^maxExp.
func randomRows(rng *rand.Rand, maxExp int) [Size][Size]int {
	var rows [Size][Size]int
	for r := range Size {
		for c := range Size {
			if e := rng.IntN(maxExp + 1); e > 0 {
				rows[r][c] = 1 << e
			}
		}
	}
	return rows
}

// TestRowTablesMatchSlideLine checks all 65536 rows: the packed table gives
// what the reference slide gives, except that two 32768 tiles do not merge.
func TestRowTablesMatchSlideLine(t *testing.T) {
	for row := range 1 << 16 {
		cells := unpackRow(uint16(row))
		var vals [Size]int
		for i, e := range cells {
			if e != 0 {
				vals[i] = 1 << e
			}
		}
		want, wantScore := slideLine(vals)
		overflow := false
		for _, v := range want {
			overflow = overflow || v > MaxBitboardTile
		}
		got := unpackRow(tables.left[row])
		if overflow {
			// The row holds two 32768 tiles that would merge: the table
			// keeps them apart, and the tile count never drops below the
			// reference's.
			if countNonZero(got) < countNonZero(cells)-2 {
				t.Fatalf("row %v: table %v merged a pair of 32768", cells, got)
			}
			continue
		}
		for i := range Size {
			var v int
			if got[i] != 0 {
				v = 1 << got[i]
			}
			if v != want[i] {
				t.Fatalf("left(%v) = %v, want %v", vals, got, want)
			}
		}
		if int(tables.leftScore[row]) != wantScore {
			t.Fatalf("leftScore(%v) = %d, want %d", vals, tables.leftScore[row], wantScore)
		}
	}
}

func countNonZero(cells [Size]uint8) int {
	n := 0
	for _, e := range cells {
		if e != 0 {
			n++
		}
	}
	return n
}

func TestBitboardRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		rows := randomRows(rng, 15)
		b, err := NewBitboard(rows)
		if err != nil {
			t.Fatalf("NewBitboard(%v): %v", rows, err)
		}
		if got := b.Rows(); got != rows {
			t.Fatalf("Rows() = %v, want %v", got, rows)
		}
		g := grid{cells: rows}
		if got := bitboardOf(&g); got != b {
			t.Fatalf("bitboardOf = %016x, want %016x", uint64(got), uint64(b))
		}
		if got, want := b.EmptyCells(), len(g.empties()); got != want {
			t.Fatalf("EmptyCells() = %d, want %d", got, want)
		}
	}
}

func TestNewBitboardRefuses(t *testing.T) {
	for _, v := range []int{1, 3, -2, 65536, 6} {
		rows := [Size][Size]int{{0, 0}, {0, 0, v}}
		if _, err := NewBitboard(rows); err == nil {
			t.Errorf("NewBitboard with tile %d succeeded, want an error", v)
		}
	}
}

func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		rows := randomRows(rng, 15)
		b, _ := NewBitboard(rows)
		var want [Size][Size]int
		for r := range Size {
			for c := range Size {
				want[c][r] = rows[r][c]
			}
		}
		if got := b.Transpose().Rows(); got != want {
			t.Fatalf("Transpose(%v) = %v, want %v", rows, got, want)
		}
	}
}

// TestBitboardMoveMatchesGrid: on random boards, every direction gives the
// same board, score and "changed" answer as the reference grid.
func TestBitboardMoveMatchesGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		rows := randomRows(rng, 1+rng.IntN(14))
		b, _ := NewBitboard(rows)
		for _, d := range directions {
			g := grid{cells: rows}
			changed := g.reduce(d)
			next, score := b.Move(d)
			if next.Rows() != g.cells || score != g.score || (next != b) != changed || b.CanMove(d) != changed {
				t.Fatalf("%v on %v: bitboard %v +%d, grid %v +%d (changed %v)", d, rows, next.Rows(), score, g.cells, g.score, changed)
			}
		}
	}
}

// TestEvaluatePrefersOrder: the heuristic ranks a monotone board with room
// above a scattered full one, and is symmetric under transposition.
func TestEvaluatePrefersOrder(t *testing.T) {
	ordered, _ := NewBitboard([Size][Size]int{
		{256, 128, 64, 32},
		{16, 8, 4, 2},
		{0, 0, 0, 0},
		{0, 0, 0, 0},
	})
	scattered, _ := NewBitboard([Size][Size]int{
		{2, 256, 4, 32},
		{128, 2, 64, 2},
		{4, 16, 2, 8},
		{2, 4, 8, 4},
	})
	if o, s := ordered.Evaluate(), scattered.Evaluate(); o <= s {
		t.Errorf("Evaluate(ordered) = %v <= Evaluate(scattered) = %v", o, s)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		b, _ := NewBitboard(randomRows(rng, 12))
		if a, c := b.Evaluate(), b.Transpose().Evaluate(); a != c {
			t.Fatalf("Evaluate not symmetric under transposition: %v vs %v", a, c)
		}
	}
}
