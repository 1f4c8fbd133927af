package gogame

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// color is the content of an intersection: empty, a black stone or a white
// stone.
type color uint8

const (
	empty color = iota
	black
	white
)

// opponent returns the other player's color.
func (c color) opponent() color { return 3 - c }

// symbol is the seed's character for the color: 'X', 'O' or '.'.
func (c color) symbol() byte {
	switch c {
	case black:
		return 'X'
	case white:
		return 'O'
	}
	return '.'
}

// name is the color's name on the wire: "black" or "white".
func (c color) name() string {
	if c == white {
		return "white"
	}
	return "black"
}

// seat is the seat that plays the color: black is seat 0, white seat 1.
func (c color) seat() int { return int(c) - 1 }

// colorOfSeat is the color played by seat 0 or 1.
func colorOfSeat(seat int) color { return color(seat + 1) }

// columns are the seed's column letters, I included (unlike GTP).
const columns = "ABCDEFGHIJKLMNOPQRS"

// sizes are the board sizes the seed allows, which are also the variant ids.
var sizes = []int{9, 13, 19}

// geometry holds the immutable tables of one board size. Intersections are
// numbered in the seed's reading order: p = row*n + col, with row 0 the
// bottom row (row 1) and col 0 column A, so that increasing p is left to
// right, then bottom to top.
type geometry struct {
	n int
	// adj lists the neighbours of each intersection in reading order
	// (below, left, right, above), as obtem_intersecoes_adjacentes does.
	adj [][]int
	// zobrist holds one random key per intersection and color (index
	// 2*p + color - 1) for the position hash.
	zobrist []uint64
	// names are the intersections' names, "A1" ... "S19".
	names []string
}

// geometries maps each board size to its tables. It is built once at start
// up and only read afterwards.
var geometries = func() map[int]*geometry {
	m := make(map[int]*geometry, len(sizes))
	for _, n := range sizes {
		m[n] = newGeometry(n)
	}
	return m
}()

// newGeometry builds the tables of an n x n board. The Zobrist keys come
// from a fixed splitmix64 sequence so that hashes are the same in every
// process (they are never stored, but tests may compare them).
func newGeometry(n int) *geometry {
	g := &geometry{n: n, adj: make([][]int, n*n), zobrist: make([]uint64, 2*n*n), names: make([]string, n*n)}
	for p := range n * n {
		r, c := p/n, p%n
		if r > 0 {
			g.adj[p] = append(g.adj[p], p-n)
		}
		if c > 0 {
			g.adj[p] = append(g.adj[p], p-1)
		}
		if c < n-1 {
			g.adj[p] = append(g.adj[p], p+1)
		}
		if r < n-1 {
			g.adj[p] = append(g.adj[p], p+n)
		}
		g.names[p] = columns[c:c+1] + strconv.Itoa(r+1)
	}
	x := uint64(0x9e3779b97f4a7c15) ^ uint64(n)
	for i := range g.zobrist {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		g.zobrist[i] = z ^ (z >> 31)
	}
	return g
}

// key is the Zobrist key of a stone of color c on p.
func (g *geometry) key(p int, c color) uint64 { return g.zobrist[2*p+int(c)-1] }

// parsePoint reads an intersection in the seed's notation: an upper-case
// column letter and a row number without leading zeros, row 1 at the bottom.
func (g *geometry) parsePoint(s string) (int, error) {
	if len(s) < 2 || len(s) > 3 {
		return 0, fmt.Errorf("%q is not an intersection: want a column letter A-%c and a row 1-%d, or pass", s, columns[g.n-1], g.n)
	}
	c := strings.IndexByte(columns[:g.n], s[0])
	row, err := strconv.Atoi(s[1:])
	if c < 0 || err != nil || row < 1 || row > g.n || s[1] == '0' || s[1] == '+' || s[1] == '-' {
		return 0, fmt.Errorf("%q is not an intersection of the %dx%d board: want a column letter A-%c and a row 1-%d, or pass", s, g.n, g.n, columns[g.n-1], g.n)
	}
	return (row-1)*g.n + c, nil
}

// board is an n x n goban of the rules engine: a plain array of colors with
// flood fills. It favours clarity; random playouts use Playout instead.
type board struct {
	geo   *geometry
	cells []color
	// hash is the Zobrist hash of cells: the XOR of the keys of all stones.
	hash uint64
	// mark and gen implement visited sets for flood fills without clearing:
	// an intersection is visited when mark[p] == gen.
	mark  []uint32
	gen   uint32
	stack []int
}

// newBoard returns an empty board of the given geometry.
func newBoard(geo *geometry) *board {
	n2 := geo.n * geo.n
	return &board{geo: geo, cells: make([]color, n2), mark: make([]uint32, n2)}
}

// clone returns an independent copy of b.
func (b *board) clone() *board {
	c := newBoard(b.geo)
	copy(c.cells, b.cells)
	c.hash = b.hash
	return c
}

// set puts c (possibly empty) on p and keeps the hash up to date.
func (b *board) set(p int, c color) {
	if old := b.cells[p]; old != empty {
		b.hash ^= b.geo.key(p, old)
	}
	if c != empty {
		b.hash ^= b.geo.key(p, c)
	}
	b.cells[p] = c
}

// newMark starts a new visited set.
func (b *board) newMark() {
	b.gen++
	if b.gen == 0 {
		clear(b.mark)
		b.gen = 1
	}
}

// chain returns the intersections connected to p through intersections of
// p's content (a chain of stones, or a region of empty intersections), in
// reading order, as obtem_cadeia does.
func (b *board) chain(p int) []int {
	var out []int
	b.flood(p, func(q int) { out = append(out, q) }, nil)
	slices.Sort(out)
	return out
}

// flood visits the connected set of intersections of p's content, calling
// in for each of them and border for each neighbour of another content (a
// neighbour may be reported once per adjacent member).
func (b *board) flood(p int, in func(int), border func(int)) {
	c := b.cells[p]
	b.newMark()
	b.mark[p] = b.gen
	stack := append(b.stack[:0], p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in != nil {
			in(q)
		}
		for _, r := range b.geo.adj[q] {
			switch {
			case b.cells[r] != c:
				if border != nil {
					border(r)
				}
			case b.mark[r] != b.gen:
				b.mark[r] = b.gen
				stack = append(stack, r)
			}
		}
	}
	b.stack = stack
}

// hasLibertyBesides reports whether the chain through p has a liberty other
// than the intersection except.
func (b *board) hasLibertyBesides(p, except int) bool {
	found := false
	b.flood(p, nil, func(r int) {
		if r != except && b.cells[r] == empty {
			found = true
		}
	})
	return found
}

// libertyCount is the number of distinct liberties of the chain through p.
func (b *board) libertyCount(p int) int {
	var libs []int
	b.flood(p, nil, func(r int) {
		if b.cells[r] == empty {
			libs = append(libs, r)
		}
	})
	slices.Sort(libs)
	return len(slices.Compact(libs))
}

// outcome is what placing a stone would do, computed without changing the
// board.
type outcome struct {
	// captured lists the opponent stones that would be removed.
	captured []int
	// suicide is true when the placed stone's chain would have no liberty.
	suicide bool
	// hash is the position hash after the move.
	hash uint64
}

// try works out placing a stone of color c on the empty intersection p:
// which opponent chains lose their last liberty and are captured, whether
// the move is suicide, and the hash of the resulting position.
func (b *board) try(p int, c color) outcome {
	var o outcome
	o.hash = b.hash ^ b.geo.key(p, c)
	opp := c.opponent()
	for _, q := range b.geo.adj[p] {
		if b.cells[q] != opp || slices.Contains(o.captured, q) || b.hasLibertyBesides(q, p) {
			continue
		}
		b.flood(q, func(r int) {
			o.captured = append(o.captured, r)
			o.hash ^= b.geo.key(r, opp)
		}, nil)
	}
	if len(o.captured) > 0 {
		return o
	}
	// Without captures, the stone lives if it touches an empty intersection
	// or joins a chain of its own with another liberty.
	o.suicide = true
	for _, q := range b.geo.adj[p] {
		if b.cells[q] == empty || (b.cells[q] == c && b.hasLibertyBesides(q, p)) {
			o.suicide = false
			break
		}
	}
	return o
}

// play places a stone of color c on p and removes the captured stones that
// try computed. It does not check legality.
func (b *board) play(p int, c color, o outcome) {
	b.set(p, c)
	for _, q := range o.captured {
		b.set(q, empty)
	}
}

// count returns the number of stones of each color: black, then white.
func (b *board) count() (nb, nw int) {
	for _, c := range b.cells {
		switch c {
		case black:
			nb++
		case white:
			nw++
		}
	}
	return nb, nw
}

// territories returns the empty regions of the board, each in reading
// order, ordered by their first intersection, as obtem_territorios does.
func (b *board) territories() [][]int {
	var out [][]int
	seen := make([]bool, len(b.cells))
	for p, c := range b.cells {
		if c != empty || seen[p] {
			continue
		}
		t := b.chain(p)
		for _, q := range t {
			seen[q] = true
		}
		out = append(out, t)
	}
	return out
}

// differentNeighbours returns, in reading order and without repeats, the
// intersections next to the set t that hold something else than t's first
// intersection: the liberties of a chain, or the border of a territory, as
// obtem_adjacentes_diferentes does.
func (b *board) differentNeighbours(t []int) []int {
	if len(t) == 0 {
		return nil
	}
	inside := b.cells[t[0]] == empty
	var out []int
	for _, p := range t {
		for _, q := range b.geo.adj[p] {
			if (b.cells[q] == empty) != inside && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return out
}

// areaScore is the seed's calcula_pontos: for each player, the stones of
// that player plus the empty intersections of the territories whose border
// holds only that player's stones. A territory without any border (the
// empty board) belongs to nobody.
func (b *board) areaScore() (scoreBlack, scoreWhite int) {
	scoreBlack, scoreWhite = b.count()
	seen := make([]bool, len(b.cells))
	for p, c := range b.cells {
		if c != empty || seen[p] {
			continue
		}
		size, borders := 0, color(0)
		b.flood(p, func(q int) { size++; seen[q] = true }, func(r int) { borders |= b.cells[r] })
		switch borders {
		case black:
			scoreBlack += size
		case white:
			scoreWhite += size
		}
	}
	return scoreBlack, scoreWhite
}

// rows returns the board view: one string per row, top row (row n) first,
// with 'X', 'O' and '.'.
func (b *board) rows() []string {
	n := b.geo.n
	out := make([]string, n)
	line := make([]byte, n)
	for r := range n {
		for c := range n {
			line[c] = b.cells[r*n+c].symbol()
		}
		out[n-1-r] = string(line)
	}
	return out
}

// String prints the board as the seed's goban_para_str does: the column
// letters above and below, and the row number on both sides of each row,
// top row first.
func (b *board) String() string {
	n := b.geo.n
	w := len(strconv.Itoa(n))
	var sb strings.Builder
	letters := strings.Join(strings.Split(columns[:n], ""), " ")
	header := strings.Repeat(" ", w+1) + letters
	sb.WriteString(header)
	sb.WriteByte('\n')
	for r := n - 1; r >= 0; r-- {
		fmt.Fprintf(&sb, "%*d", w, r+1)
		for c := range n {
			sb.WriteByte(' ')
			sb.WriteByte(b.cells[r*n+c].symbol())
		}
		fmt.Fprintf(&sb, " %d\n", r+1)
	}
	sb.WriteString(header)
	return sb.String()
}

// chainLiberties labels the board's chains in one pass: chain[p] is the
// label of the chain of the stone on p (-1 on an empty intersection), and
// libs[label] the number of its distinct liberties, counted up to 2 (one, or
// more than one, is what move legality needs).
func (b *board) chainLiberties() (chain []int, libs []int) {
	chain = make([]int, len(b.cells))
	for p := range chain {
		chain[p] = -1
	}
	for p, c := range b.cells {
		if c == empty || chain[p] >= 0 {
			continue
		}
		label, first, n := len(libs), -1, 0
		b.flood(p, func(q int) { chain[q] = label }, func(r int) {
			if b.cells[r] == empty && r != first && n < 2 {
				if first < 0 {
					first = r
				}
				n++
			}
		})
		libs = append(libs, n)
	}
	return chain, libs
}
