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

// symbols are the seed's characters of the colors, by color ('.' for
// anything but a stone, as the Playout's border).
const symbols = ".XO."

// symbol is the seed's character for the color: 'X', 'O' or '.'.
func (c color) symbol() byte { return symbols[c] }

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

// board is an n x n goban of the rules engine: an array of colors, with
// the chains of stones and their exact liberty counts kept up to date by
// play, so that a move's captures and suicide are read from its neighbours
// without a flood fill. Random playouts use Playout instead.
type board struct {
	geo   *geometry
	cells []color
	// hash is the Zobrist hash of cells: the XOR of the keys of all stones.
	hash uint64
	// nb and nw are the numbers of black and white stones.
	nb, nw int
	// For a stone on p, head[p] is the representative intersection of its
	// chain and next[p] the next stone of the chain, in a circular list.
	// For a representative h, libs[h] is the number of distinct liberties
	// of the chain and size[h] the number of its stones. Entries of empty
	// intersections are stale and never read.
	head, next, libs, size []int16
	// chains is the one array that head, next, libs and size share.
	chains []int16
	// playable[c-1] holds the empty intersections where a stone of color
	// c would not be suicide, and lost[c-1] those where a stone of c was
	// captured since the start: the only ones where a stone of c may
	// recreate an earlier position (legalset.go). link and play keep them.
	playable, lost [2]pointSet
	// The empty regions (regions.go): regionOf[p] is the id of the
	// region of the empty intersection p (stale for stones); for a
	// region id r, regionSize[r] is its number of intersections and
	// regionBlack[r] and regionWhite[r] its numbers of adjacencies to
	// black and white stones; regionIDs[:freeRegions] are the unused ids.
	// territory[c-1] is the number of intersections of the regions that
	// touch stones of c only. link and play keep them.
	regionOf, regionIDs                  []int16
	regionSize, regionBlack, regionWhite []int16
	freeRegions                          int
	territory                            [2]int
	// areas is the one array that the region slices share.
	areas []int16
	// dirtyRows has bit r set when row r+1 changed since the state's view
	// last read it (view.go).
	dirtyRows uint32
	// captured is try's buffer for the stones a move captures.
	captured []int
	// mark and gen implement visited sets for flood fills without clearing:
	// an intersection is visited when mark[p] == gen. gen goes up by
	// regionSearches at a time, so that splitRegion can tell its searches
	// apart by mark[p] - gen. mark is allocated by the first newMark (a
	// clone that only checks moves needs none).
	mark  []uint32
	gen   uint32
	stack []int
}

// newBoard returns an empty board of the given geometry.
func newBoard(geo *geometry) *board {
	n2 := geo.n * geo.n
	chains := make([]int16, 4*n2)
	areas := make([]int16, 5*n2)
	return &board{
		geo:         geo,
		cells:       make([]color, n2),
		head:        chains[:n2:n2],
		next:        chains[n2 : 2*n2 : 2*n2],
		libs:        chains[2*n2 : 3*n2 : 3*n2],
		size:        chains[3*n2:],
		chains:      chains,
		regionOf:    areas[:n2:n2],
		regionIDs:   areas[n2 : 2*n2 : 2*n2],
		regionSize:  areas[2*n2 : 3*n2 : 3*n2],
		regionBlack: areas[3*n2 : 4*n2 : 4*n2],
		regionWhite: areas[4*n2:],
		areas:       areas,
	}
}

// clone returns an independent copy of b.
func (b *board) clone() *board {
	c := newBoard(b.geo)
	c.copyFrom(b)
	return c
}

// copyFrom makes b a copy of the position of src, a board of the same
// geometry, without allocating.
func (b *board) copyFrom(src *board) {
	copy(b.cells, src.cells)
	b.hash, b.nb, b.nw = src.hash, src.nb, src.nw
	copy(b.chains, src.chains)
	b.playable, b.lost = src.playable, src.lost
	copy(b.areas, src.areas)
	b.freeRegions, b.territory = src.freeRegions, src.territory
	b.dirtyRows = allRows
}

// set puts c (possibly empty) on p and keeps the hash and the stone
// counts up to date, but not the chains: a board built with set needs
// link before play or try.
func (b *board) set(p int, c color) {
	if old := b.cells[p]; old != empty {
		b.hash ^= b.geo.key(p, old)
		b.addCount(old, -1)
	}
	if c != empty {
		b.hash ^= b.geo.key(p, c)
		b.addCount(c, 1)
	}
	b.cells[p] = c
	b.dirtyRows |= 1 << (p / b.geo.n)
}

// addCount adds d to the stone count of c.
func (b *board) addCount(c color, d int) {
	if c == black {
		b.nb += d
	} else {
		b.nw += d
	}
}

// link works out the chains, their liberties, the playable intersections
// and the empty regions from the cells, after set.
func (b *board) link() {
	for p, c := range b.cells {
		if c == empty {
			continue
		}
		b.head[p], b.next[p], b.size[p] = int16(p), int16(p), 1
		for _, q := range b.geo.adj[p] {
			if q < p && b.cells[q] == c {
				b.merge(int(b.head[p]), int(b.head[q]))
			}
		}
	}
	for p, c := range b.cells {
		if c != empty && int(b.head[p]) == p {
			b.libs[p] = int16(b.countLiberties(p))
		}
	}
	b.refreshAll()
	b.linkRegions()
}

// merge joins the chains of representatives h1 and h2 (which may be the
// same) and returns the representative of the result. The liberties of the
// result are left for the caller to count.
func (b *board) merge(h1, h2 int) int {
	if h1 == h2 {
		return h1
	}
	if b.size[h1] < b.size[h2] {
		h1, h2 = h2, h1
	}
	for q := h2; ; {
		b.head[q] = int16(h1)
		q = int(b.next[q])
		if q == h2 {
			break
		}
	}
	b.next[h1], b.next[h2] = b.next[h2], b.next[h1]
	b.size[h1] += b.size[h2]
	return h1
}

// countLiberties counts the distinct liberties of the chain of
// representative h by walking its stones.
func (b *board) countLiberties(h int) int {
	var seen pointSet
	n := 0
	for q := h; ; {
		for _, r := range b.geo.adj[q] {
			if b.cells[r] == empty && !seen.has(r) {
				seen.add(r)
				n++
			}
		}
		q = int(b.next[q])
		if q == h {
			return n
		}
	}
}

// maxPoints is the number of intersections of the largest board.
const maxPoints = len(columns) * len(columns)

// pointSet is a set of intersections of a board of any size, small enough
// to live on the stack.
type pointSet [(maxPoints + 63) / 64]uint64

// add puts p in the set.
func (s *pointSet) add(p int) { s[p/64] |= 1 << (p % 64) }

// has reports whether p is in the set.
func (s *pointSet) has(p int) bool { return s[p/64]&(1<<(p%64)) != 0 }

// newMark starts a new visited set of the flood fills.
func (b *board) newMark() {
	if b.mark == nil {
		b.mark = make([]uint32, len(b.cells))
	}
	b.gen += regionSearches
	if b.gen == 0 {
		clear(b.mark)
		b.gen = regionSearches
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
	// captured lists the opponent stones that would be removed. It is
	// the board's buffer, valid until the next try on the same board.
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
	o := outcome{captured: b.captured[:0]}
	o.hash, o.suicide = b.scan(p, c, &o.captured)
	b.captured = o.captured[:0]
	return o
}

// scan is try without building the outcome: the hash after c plays on the
// empty intersection p and whether that is suicide, appending the captured
// stones to *captured unless captured is nil (Legal asks this of every
// empty point and needs no list). p is a liberty of every chain next to
// it, so an opponent chain with one liberty is captured, and an own chain
// with more than one keeps the stone alive.
func (b *board) scan(p int, c color, captured *[]int) (hash uint64, suicide bool) {
	hash = b.hash ^ b.geo.key(p, c)
	opp := c.opponent()
	var taken [4]int16
	nt, lives := 0, false
	for _, q := range b.geo.adj[p] {
		switch b.cells[q] {
		case empty:
			lives = true
		case c:
			lives = lives || b.libs[b.head[q]] > 1
		default:
			h := b.head[q]
			if b.libs[h] != 1 || slices.Contains(taken[:nt], h) {
				continue
			}
			taken[nt] = h
			nt++
			for r := int(h); ; {
				if captured != nil {
					*captured = append(*captured, r)
				}
				hash ^= b.geo.key(r, opp)
				r = int(b.next[r])
				if r == int(h) {
					break
				}
			}
		}
	}
	// A capture gives the stone a liberty.
	return hash, nt == 0 && !lives
}

// play places a stone of color c on p and removes the captured stones that
// try computed, keeping the chains, their liberties, the playable
// intersections and the empty regions. It does not check legality.
func (b *board) play(p int, c color, o outcome) {
	b.place(p, c, o)
	b.refreshAfter(p, c, o.captured)
}

// place is play without the playable intersections.
func (b *board) place(p int, c color, o outcome) {
	key := b.geo.key(p, c)
	b.cells[p] = c
	b.hash ^= key
	b.addCount(c, 1)
	b.dirtyRows |= 1 << (p / b.geo.n)
	b.placeRegion(p, c)
	b.head[p], b.next[p], b.size[p] = int16(p), int16(p), 1
	// p was a liberty of each chain next to it.
	var touched [4]int16
	nt := 0
	for _, q := range b.geo.adj[p] {
		if b.cells[q] == empty {
			continue
		}
		if h := b.head[q]; !slices.Contains(touched[:nt], h) {
			touched[nt] = h
			nt++
			b.libs[h]--
		}
	}
	// The stone joins its own chains; the captured stones are still on the
	// board, so they are not counted as liberties yet.
	h, joined := p, false
	for _, q := range b.geo.adj[p] {
		if b.cells[q] == c {
			h = b.merge(h, int(b.head[q]))
			joined = true
		}
	}
	if joined {
		b.libs[h] = int16(b.countLiberties(h))
	} else {
		n := 0
		for _, q := range b.geo.adj[p] {
			if b.cells[q] == empty {
				n++
			}
		}
		b.libs[p] = int16(n)
	}
	if len(o.captured) == 0 {
		return
	}
	opp := c.opponent()
	for _, q := range o.captured {
		b.cells[q] = empty
		b.hash ^= b.geo.key(q, opp)
		b.dirtyRows |= 1 << (q / b.geo.n)
	}
	b.addCount(opp, -len(o.captured))
	// Each freed intersection is a new liberty of every chain next to it
	// (all of color c: an opponent neighbour was captured with it).
	for _, q := range o.captured {
		nt = 0
		for _, r := range b.geo.adj[q] {
			if b.cells[r] != c {
				continue
			}
			if h := b.head[r]; !slices.Contains(touched[:nt], h) {
				touched[nt] = h
				nt++
				b.libs[h]++
			}
		}
	}
	b.captureRegions(o.captured)
}

// count returns the number of stones of each color: black, then white.
func (b *board) count() (nb, nw int) { return b.nb, b.nw }

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

// areaScore is the seed's calcula_pontos, flood-filled over the whole board
// (area): it needs no link and is the reference of score, which the board
// keeps move by move (regions.go); the tests compare them.
func (b *board) areaScore() (scoreBlack, scoreWhite int) { return b.area(nil) }

// rows returns the board view: one string per row, top row (row n) first,
// with 'X', 'O' and '.'. The rows are slices of one string.
func (b *board) rows() []string {
	n := b.geo.n
	var sb strings.Builder
	sb.Grow(n * n)
	var line [len(columns)]byte
	for r := n - 1; r >= 0; r-- {
		for i, c := range b.cells[r*n : (r+1)*n] {
			line[i] = symbols[c]
		}
		sb.Write(line[:n])
	}
	all := sb.String()
	out := make([]string, n)
	for i := range out {
		out[i] = all[i*n : (i+1)*n]
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
