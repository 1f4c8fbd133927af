package gogame

import (
	"math/rand/v2"
	"slices"
)

// This file holds the playout policy of the MCTS bot: the light heuristics
// that make its playouts less random than Playout.Run (capture a chain the
// last move left in atari, save an own chain in atari, never fill an own
// eye, never put a chain of two or more stones in atari).

// passPoint is the move "pass" in the MCTS tree and the playouts; no board
// point is 0 (row 0 is the frame).
const passPoint = 0

// neighbours returns the four points around v.
func (p *Playout) neighbours(v int) [4]int {
	return [4]int{v - p.stride, v - 1, v + 1, v + p.stride}
}

// atariLiberty is the only liberty of the chain with head h, which must be
// in atari: all its pseudo-liberties are that one point.
func (p *Playout) atariLiberty(h int) int { return int(p.libSum[h] / p.libCnt[h]) }

// libsAfter works out a stone of c on the empty point v without playing
// it: whether it captures, and the liberties of the new chain counted up
// to two. stones is the size of the new chain, exact when libs < 2.
func (p *Playout) libsAfter(v int, c color) (libs int, captures bool, stones int) {
	opp := c.opponent()
	var found [2]int
	var heads [4]int
	nh := 0
	for _, w := range p.neighbours(v) {
		switch p.cells[w] {
		case empty:
			if libs < 2 {
				found[libs] = w
			}
			libs++
		case opp:
			if p.inAtari(int(p.head[w])) {
				captures = true
			}
		case c:
			h := int(p.head[w])
			if !slices.Contains(heads[:nh], h) {
				heads[nh] = h
				nh++
			}
		}
	}
	// Fast answers: a capture frees at least one liberty, and two empty
	// neighbours are two liberties.
	if captures || libs >= 2 {
		return 2, captures, 1
	}
	stones = 1
	for _, h := range heads[:nh] {
		s := h
		for {
			stones++
			if libs < 2 {
				for _, u := range p.neighbours(s) {
					if p.cells[u] == empty && u != v && (libs == 0 || found[0] != u) {
						found[libs] = u
						libs++
						if libs == 2 {
							break
						}
					}
				}
			}
			s = int(p.next[s])
			if s == h {
				break
			}
		}
	}
	return libs, false, stones
}

// badSelfAtari reports whether c on v leaves a new chain of two or more
// stones with a single liberty without capturing anything: it hands the
// opponent a capture for nothing. A single stone in atari may be a useful
// throw-in, so it is allowed.
func (p *Playout) badSelfAtari(v int, c color) bool {
	libs, captures, stones := p.libsAfter(v, c)
	return !captures && libs < 2 && stones >= 2
}

// pass passes the turn.
func (p *Playout) pass() {
	p.passes++
	p.ko = 0
	p.toMove = p.toMove.opponent()
	p.moves++
}

// urgentMoves appends to buf the answers to the last move (a point, not a
// pass) for the side to move: the liberty of an opponent chain next to the
// last move that is in atari (a capture), and for an own chain next to it
// in atari, its liberty when extending there gives two liberties, or the
// liberty of an opponent chain in atari touching it (a capture that saves
// it). Every move returned is legal.
func (p *Playout) urgentMoves(last int, buf []int) []int {
	c := p.toMove
	opp := c.opponent()
	nb := p.neighbours(last)
	for _, w := range [5]int{last, nb[0], nb[1], nb[2], nb[3]} {
		switch p.cells[w] {
		case opp:
			h := int(p.head[w])
			if p.inAtari(h) {
				if lib := p.atariLiberty(h); p.legal(lib, c) {
					buf = append(buf, lib)
				}
			}
		case c:
			h := int(p.head[w])
			if !p.inAtari(h) {
				continue
			}
			if lib := p.atariLiberty(h); p.legal(lib, c) {
				if libs, _, _ := p.libsAfter(lib, c); libs >= 2 {
					buf = append(buf, lib)
				}
			}
			// Counter-capture: an opponent chain in atari touching ours.
			s := h
			for n := 0; n < 64; n++ {
				for _, u := range p.neighbours(s) {
					if p.cells[u] == opp && p.inAtari(int(p.head[u])) {
						if lib := p.atariLiberty(int(p.head[u])); p.legal(lib, c) {
							buf = append(buf, lib)
						}
					}
				}
				s = int(p.next[s])
				if s == h {
					break
				}
			}
		}
	}
	return buf
}

// policyMove plays one move of the playout policy for the side to move and
// returns it (passPoint for a pass). last is the previous move.
func (p *Playout) policyMove(rng *rand.Rand, last int, buf []int) int {
	c := p.toMove
	if last != passPoint && rng.Uint32()&15 != 0 { // 15 times in 16
		if urgent := p.urgentMoves(last, buf[:0]); len(urgent) > 0 {
			v := urgent[rng.IntN(len(urgent))]
			p.play(v, c)
			return v
		}
	}
	if last != passPoint && rng.Uint32()&15 != 0 {
		// A 3x3 shape around the last move.
		buf = buf[:0]
		s := p.stride
		for _, w := range [8]int{last - s - 1, last - s, last - s + 1, last - 1, last + 1, last + s - 1, last + s, last + s + 1} {
			if p.cells[w] == empty && p.matchesPattern(w) && p.legal(w, c) && !p.isEye(w, c) && !p.badSelfAtari(w, c) {
				buf = append(buf, w)
			}
		}
		if len(buf) > 0 {
			v := buf[rng.IntN(len(buf))]
			p.play(v, c)
			return v
		}
	}
	n := len(p.empties)
	if n > 0 {
		start := int((uint64(rng.Uint32()) * uint64(n)) >> 32)
		for k := range n {
			j := start + k
			if j >= n {
				j -= n
			}
			v := int(p.empties[j])
			if p.legal(v, c) && !p.isEye(v, c) && !p.badSelfAtari(v, c) {
				p.play(v, c)
				return v
			}
		}
	}
	p.pass()
	return passPoint
}
