package gogame

import (
	"fmt"
	"math/rand/v2"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Playout is a fast board for random playouts, separate from the rules
// board: a bordered array, chains as circular linked lists with
// pseudo-liberty counts (count, sum and sum of squares of the liberty
// indices, which tells a chain in atari), a list of empty points, and only
// the simple ko rule, not superko. It is meant for Monte Carlo bots: load a
// position with Load, copy it with CopyFrom, then Run.
type Playout struct {
	n, stride int
	cells     []color // colorBorder outside the board
	head      []int16 // chain head of each stone
	next      []int16 // next stone in the chain (circular)
	libCnt    []int32 // pseudo-liberties of a chain, at its head
	libSum    []int32
	libSum2   []int64
	empties   []int16 // the empty points
	emptyAt   []int16 // index of each empty point in empties
	ko        int     // point forbidden by simple ko for the next move, or 0
	toMove    color
	passes    int
	moves     int
	seen      []bool // scratch for Score
	// komi2 is twice the komi of the game loaded (the seed's, one half,
	// by default): who wins a playout (BlackWins).
	komi2 int
}

// colorBorder marks the frame around the board of a Playout.
const colorBorder color = 3

// NewPlayout returns an empty Playout board of size n (9, 13 or 19).
func NewPlayout(n int) *Playout {
	stride := n + 2
	size := stride * stride
	p := &Playout{
		n: n, stride: stride,
		cells: make([]color, size), head: make([]int16, size), next: make([]int16, size),
		libCnt: make([]int32, size), libSum: make([]int32, size), libSum2: make([]int64, size),
		empties: make([]int16, 0, n*n), emptyAt: make([]int16, size), seen: make([]bool, size),
		komi2: seedKomi2,
	}
	p.clear()
	return p
}

// clear empties the board, black to move.
func (p *Playout) clear() {
	p.empties = p.empties[:0]
	for i := range p.cells {
		r, c := i/p.stride, i%p.stride
		if r == 0 || c == 0 || r == p.stride-1 || c == p.stride-1 {
			p.cells[i] = colorBorder
			continue
		}
		p.cells[i] = empty
		p.emptyAt[i] = int16(len(p.empties))
		p.empties = append(p.empties, int16(i))
	}
	p.ko, p.toMove, p.passes, p.moves = 0, black, 0, 0
}

// Load copies the position and side to move of a go state (of this
// package) onto the board.
func (p *Playout) Load(st engine.State) error {
	s, ok := st.(*state)
	if !ok {
		return fmt.Errorf("playout: not a go state but %T", st)
	}
	if s.board.geo.n != p.n {
		return fmt.Errorf("playout: a %dx%d board cannot load a %s game", p.n, p.n, s.variant)
	}
	p.clear()
	for q, c := range s.board.cells {
		if c != empty {
			p.place(p.point(q), c)
		}
	}
	p.toMove = s.toMove
	p.passes = s.passes
	p.komi2 = s.komi2
	return nil
}

// CopyFrom makes p a copy of q (same size) without allocating.
func (p *Playout) CopyFrom(q *Playout) {
	copy(p.cells, q.cells)
	copy(p.head, q.head)
	copy(p.next, q.next)
	copy(p.libCnt, q.libCnt)
	copy(p.libSum, q.libSum)
	copy(p.libSum2, q.libSum2)
	p.empties = append(p.empties[:0], q.empties...)
	copy(p.emptyAt, q.emptyAt)
	p.ko, p.toMove, p.passes, p.moves = q.ko, q.toMove, q.passes, q.moves
	p.komi2 = q.komi2
}

// BlackWins reports whether black wins with the area score sc under the
// komi of the game loaded (white wins ties under the seed's).
func (p *Playout) BlackWins(sc Score) bool { return 2*(sc.Black-sc.White) > p.komi2 }

// point converts a rules-board intersection to a Playout point.
func (p *Playout) point(q int) int { return (q/p.n+1)*p.stride + q%p.n + 1 }

// inAtari reports whether the chain with head h has exactly one distinct
// liberty: all its pseudo-liberties are the same point.
func (p *Playout) inAtari(h int) bool {
	c, s := int64(p.libCnt[h]), int64(p.libSum[h])
	return c > 0 && c*p.libSum2[h] == s*s
}

// legal reports whether c may play on the empty point v: not the ko point,
// and not suicide.
func (p *Playout) legal(v int, c color) bool {
	if v == p.ko {
		return false
	}
	for _, w := range [4]int{v - p.stride, v - 1, v + 1, v + p.stride} {
		switch p.cells[w] {
		case empty:
			return true
		case c:
			if !p.inAtari(int(p.head[w])) {
				return true
			}
		case colorBorder:
		default:
			if p.inAtari(int(p.head[w])) {
				return true
			}
		}
	}
	return false
}

// isEye reports whether v is an eye of c, the usual playout test: every
// neighbour is c or the border, and the opponent holds fewer than two
// diagonals (none on the edge).
func (p *Playout) isEye(v int, c color) bool {
	for _, w := range [4]int{v - p.stride, v - 1, v + 1, v + p.stride} {
		if p.cells[w] != c && p.cells[w] != colorBorder {
			return false
		}
	}
	opp, edge := 0, 0
	for _, w := range [4]int{v - p.stride - 1, v - p.stride + 1, v + p.stride - 1, v + p.stride + 1} {
		switch p.cells[w] {
		case colorBorder:
			edge = 1
		case c.opponent():
			opp++
		}
	}
	return opp+edge < 2
}

// addLib and removeLib change the pseudo-liberties of the chain with head h.
func (p *Playout) addLib(h, v int) {
	p.libCnt[h]++
	p.libSum[h] += int32(v)
	p.libSum2[h] += int64(v) * int64(v)
}

func (p *Playout) removeLib(h, v int) {
	p.libCnt[h]--
	p.libSum[h] -= int32(v)
	p.libSum2[h] -= int64(v) * int64(v)
}

// place puts a stone of c on the empty point v, merges chains, captures
// opponent chains left without liberties and returns the number of stones
// captured and the last captured point (for the ko rule).
func (p *Playout) place(v int, c color) (captured, last int) {
	// Take v out of the empty list.
	i, lastEmpty := p.emptyAt[v], p.empties[len(p.empties)-1]
	p.empties[i] = lastEmpty
	p.emptyAt[lastEmpty] = i
	p.empties = p.empties[:len(p.empties)-1]

	p.cells[v] = c
	p.head[v], p.next[v] = int16(v), int16(v)
	p.libCnt[v], p.libSum[v], p.libSum2[v] = 0, 0, 0
	nbrs := [4]int{v - p.stride, v - 1, v + 1, v + p.stride}
	for _, w := range nbrs {
		switch p.cells[w] {
		case empty:
			p.addLib(v, w)
		case colorBorder:
		default:
			p.removeLib(int(p.head[w]), v)
		}
	}
	for _, w := range nbrs {
		if p.cells[w] == c && p.head[w] != p.head[v] {
			p.merge(int(p.head[v]), int(p.head[w]))
		}
	}
	opp := c.opponent()
	for _, w := range nbrs {
		if p.cells[w] == opp && p.libCnt[p.head[w]] == 0 {
			n := p.capture(int(p.head[w]))
			captured += n
			last = w
		}
	}
	return captured, last
}

// merge joins the chains with heads a and b, relabelling the smaller.
func (p *Playout) merge(a, b int) {
	if p.libCnt[a] < p.libCnt[b] {
		a, b = b, a
	}
	p.libCnt[a] += p.libCnt[b]
	p.libSum[a] += p.libSum[b]
	p.libSum2[a] += p.libSum2[b]
	s := b
	for {
		p.head[s] = int16(a)
		s = int(p.next[s])
		if s == b {
			break
		}
	}
	p.next[a], p.next[b] = p.next[b], p.next[a]
}

// capture removes the chain with head h and returns its size.
func (p *Playout) capture(h int) int {
	n := 0
	s := h
	for {
		nextStone := int(p.next[s])
		p.cells[s] = empty
		p.emptyAt[s] = int16(len(p.empties))
		p.empties = append(p.empties, int16(s))
		n++
		for _, w := range [4]int{s - p.stride, s - 1, s + 1, s + p.stride} {
			if c := p.cells[w]; c == black || c == white {
				p.addLib(int(p.head[w]), s)
			}
		}
		s = nextStone
		if s == h {
			break
		}
	}
	return n
}

// play plays c on v (legal, not checked) and sets the ko point.
func (p *Playout) play(v int, c color) {
	captured, last := p.place(v, c)
	p.ko = 0
	if captured == 1 && p.next[v] == int16(v) && p.libCnt[v] == 1 {
		p.ko = last
	}
	p.passes = 0
	p.toMove = c.opponent()
	p.moves++
}

// randomMove plays a random legal move of the side to move that does not
// fill its own eye, or passes when there is none. It starts at a random
// empty point and takes the first suitable one after it.
func (p *Playout) randomMove(rng *rand.Rand) {
	c := p.toMove
	n := len(p.empties)
	if n > 0 {
		start := int((uint64(rng.Uint32()) * uint64(n)) >> 32)
		for k := range n {
			j := start + k
			if j >= n {
				j -= n
			}
			v := int(p.empties[j])
			if p.legal(v, c) && !p.isEye(v, c) {
				p.play(v, c)
				return
			}
		}
	}
	p.passes++
	p.ko = 0
	p.toMove = c.opponent()
	p.moves++
}

// Run plays random moves from the current position until two passes in a
// row (or a cap of 3*n*n moves, a guard against long ko fights) and returns
// the area score of the final board, scored like the rules board.
func (p *Playout) Run(rng *rand.Rand) Score {
	limit := p.moves + 3*p.n*p.n
	for p.passes < 2 && p.moves < limit {
		p.randomMove(rng)
	}
	return p.Score()
}

// Score is the area score of the board: stones plus empty regions bordered
// by one color only.
func (p *Playout) Score() Score {
	var sc Score
	var stack [512]int16
	seen := p.seen
	clear(seen)
	for v, c := range p.cells {
		switch c {
		case black:
			sc.Black++
			continue
		case white:
			sc.White++
			continue
		case colorBorder:
			continue
		}
		if seen[v] {
			continue
		}
		size, borders := 0, color(0)
		st := append(stack[:0], int16(v))
		seen[v] = true
		for len(st) > 0 {
			u := int(st[len(st)-1])
			st = st[:len(st)-1]
			size++
			for _, w := range [4]int{u - p.stride, u - 1, u + 1, u + p.stride} {
				switch cw := p.cells[w]; cw {
				case empty:
					if !seen[w] {
						seen[w] = true
						st = append(st, int16(w))
					}
				case black, white:
					borders |= cw
				}
			}
		}
		switch borders {
		case black:
			sc.Black += size
		case white:
			sc.White += size
		}
	}
	return sc
}

// Rows is the board view, top row first, as the rules board prints it.
func (p *Playout) Rows() []string {
	out := make([]string, p.n)
	line := make([]byte, p.n)
	for r := range p.n {
		for c := range p.n {
			line[c] = p.cells[(r+1)*p.stride+c+1].symbol()
		}
		out[p.n-1-r] = string(line)
	}
	return out
}
