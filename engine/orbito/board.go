package orbito

import (
	"fmt"
	"strconv"
	"strings"
)

// Orbit counts the seed allows.
const (
	minOrbits = 2
	maxOrbits = 5
)

// stone is the content of a square: empty or a player's stone.
type stone int8

const (
	empty stone = iota
	black       // seat 0, 'X', moves first
	white       // seat 1, 'O'
)

// stoneOfSeat maps a seat (0 black, 1 white) to its stone.
func stoneOfSeat(seat int) stone { return stone(seat + 1) }

// seat is the seat that owns s (0 black, 1 white); s must not be empty.
func (s stone) seat() int { return int(s) - 1 }

// opponent is the other player's stone.
func (s stone) opponent() stone { return black + white - s }

// char is the board-view character of s: 'X', 'O' or '.'.
func (s stone) char() byte {
	switch s {
	case black:
		return 'X'
	case white:
		return 'O'
	}
	return '.'
}

// name is the protocol name of a player's stone, as in the setup's toMove.
func (s stone) name() string {
	if s == black {
		return "black"
	}
	return "white"
}

// Directions of the four lines through a square, as (row step, column step):
// horizontal left to right, vertical top to bottom, the diagonal descending
// from left to right and the anti-diagonal ascending from left to right (the
// seed's obtem_linha_horizontal, obtem_linha_vertical and
// obtem_linhas_diagonais).
var lineSteps = [4][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}}

// clockwiseSteps are the eight neighbours of a square, clockwise from the one
// above it (the seed's obtem_posicoes_adjacentes order).
var clockwiseSteps = [8][2]int{{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}}

// geometry holds the immutable lookup tables of an Orbito-n board. Squares
// are numbered row*size+col with row 0 the top row (row "1") and col 0
// column "a".
type geometry struct {
	orbits  int      // n, 2..5
	size    int      // 2n squares a side
	k       int      // stones in a row that win: 2n
	names   []string // names[sq] = "a1", ...
	orbit   []int    // orbit[sq]: 1 innermost .. n outermost
	reading []int    // the squares in the seed's reading order
	rank    []int    // rank[sq] = index of sq in reading
	next    []int    // next[sq] = where a stone on sq goes when the board rotates
	// adjacent[sq] lists the 8-neighbours of sq clockwise from the one above.
	adjacent [][]int
	// lines[sq][d] lists the squares of the line through sq in direction
	// lineSteps[d], in that direction's order.
	lines [][4][]int
	// winLines are the lines long enough to hold k stones: every row and
	// column and the two main diagonals.
	winLines [][]int
	// phases are the searching bot's tables (search.go).
	phases *phases
}

// geometries[n] is the geometry of Orbito-n for n in minOrbits..maxOrbits.
var geometries = func() [maxOrbits + 1]*geometry {
	var g [maxOrbits + 1]*geometry
	for n := minOrbits; n <= maxOrbits; n++ {
		g[n] = newGeometry(n)
	}
	return g
}()

func newGeometry(n int) *geometry {
	size := 2 * n
	g := &geometry{orbits: n, size: size, k: size}
	cells := size * size
	g.names = make([]string, cells)
	g.orbit = make([]int, cells)
	g.next = make([]int, cells)
	g.adjacent = make([][]int, cells)
	g.lines = make([][4][]int, cells)
	for sq := range cells {
		r, c := sq/size, sq%size
		g.names[sq] = string(rune('a'+c)) + strconv.Itoa(r+1)
		ring := min(r, c, size-1-r, size-1-c) // 0 = outermost
		g.orbit[sq] = n - ring
		g.next[sq] = g.rotated(r, c, ring)
		for _, st := range clockwiseSteps {
			if g.inside(r+st[0], c+st[1]) {
				g.adjacent[sq] = append(g.adjacent[sq], (r+st[0])*size+c+st[1])
			}
		}
		for d, st := range lineSteps {
			// Walk back to the line's first square, then forward.
			r0, c0 := r, c
			for g.inside(r0-st[0], c0-st[1]) {
				r0, c0 = r0-st[0], c0-st[1]
			}
			for ; g.inside(r0, c0); r0, c0 = r0+st[0], c0+st[1] {
				g.lines[sq][d] = append(g.lines[sq][d], r0*size+c0)
			}
		}
	}
	// Reading order: innermost orbit first; within an orbit top to bottom,
	// then left to right (the seed's corrected text), which is the square
	// numbering itself.
	for o := 1; o <= n; o++ {
		for sq := range cells {
			if g.orbit[sq] == o {
				g.reading = append(g.reading, sq)
			}
		}
	}
	g.rank = make([]int, cells)
	for i, sq := range g.reading {
		g.rank[sq] = i
	}
	for i := range size {
		g.winLines = append(g.winLines, g.lines[i*size][0], g.lines[i][1])
	}
	g.winLines = append(g.winLines, g.lines[0][2], g.lines[(size-1)*size][3])
	g.phases = newPhases(g)
	return g
}

// rotated is the square a stone on (r, c), in ring ring (0 = outermost),
// moves to when the board turns one step counter-clockwise: along the top
// row to the left, down the left column, along the bottom row to the right
// and up the right column.
func (g *geometry) rotated(r, c, ring int) int {
	lo, hi := ring, g.size-1-ring
	switch {
	case r == lo && c > lo:
		c--
	case c == lo && r < hi:
		r++
	case r == hi && c < hi:
		c++
	default: // right column, r > lo
		r--
	}
	return r*g.size + c
}

func (g *geometry) inside(r, c int) bool {
	return r >= 0 && r < g.size && c >= 0 && c < g.size
}

// parseSquare reads a position in the seed's notation: a lower-case column
// letter and a row number without sign or leading zero, e.g. "d1", "j10".
func (g *geometry) parseSquare(s string) (int, error) {
	bad := func() (int, error) {
		return 0, fmt.Errorf("%q is not a position of this board (want a column a-%c and a row 1-%d, e.g. %s)",
			s, 'a'+g.size-1, g.size, g.names[g.size+1])
	}
	if len(s) < 2 || len(s) > 3 {
		return bad()
	}
	c := int(s[0]) - 'a'
	digits := s[1:]
	if c < 0 || c >= g.size || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return bad()
	}
	r, err := strconv.Atoi(digits)
	if err != nil || r < 1 || r > g.size {
		return bad()
	}
	return (r-1)*g.size + c, nil
}

// board is the content of every square, indexed like the geometry.
type board []stone

// rotate returns the board after every stone moved one step counter-clockwise
// on its orbit.
func (b board) rotate(g *geometry) board {
	out := make(board, len(b))
	for sq, s := range b {
		out[g.next[sq]] = s
	}
	return out
}

// runThrough is the length of the longest line of consecutive s stones that
// passes through sq, counting sq as holding s whatever it holds (the seed's
// verifica_linha_pedras asks whether it is at least k, with sq holding s).
func (b board) runThrough(g *geometry, sq int, s stone) int {
	best := 0
	for _, line := range g.lines[sq] {
		best = max(best, b.runOnLine(line, sq, s))
	}
	return best
}

// runOnLine counts the consecutive s stones of line around sq (sq included).
func (b board) runOnLine(line []int, sq int, s stone) int {
	at := 0
	for i, x := range line {
		if x == sq {
			at = i
			break
		}
	}
	run := 1
	for i := at + 1; i < len(line) && b[line[i]] == s; i++ {
		run++
	}
	for i := at - 1; i >= 0 && b[line[i]] == s; i-- {
		run++
	}
	return run
}

// hasLine reports whether s fills a whole row, column or main diagonal:
// k = 2n stones in a row on a board 2n wide.
func (b board) hasLine(g *geometry, s stone) bool {
	for _, line := range g.winLines {
		full := true
		for _, sq := range line {
			if b[sq] != s {
				full = false
				break
			}
		}
		if full {
			return true
		}
	}
	return false
}

// count is the number of squares holding s.
func (b board) count(s stone) int {
	n := 0
	for _, x := range b {
		if x == s {
			n++
		}
	}
	return n
}

// rows is the board view: one string a row, top row first.
func (b board) rows(g *geometry) []string {
	out := make([]string, g.size)
	row := make([]byte, g.size)
	for r := range g.size {
		for c := range g.size {
			row[c] = b[r*g.size+c].char()
		}
		out[r] = string(row)
	}
	return out
}
