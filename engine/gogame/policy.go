package gogame

import "math/rand/v2"

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
	var found [2]int
	add := func(u int) {
		if libs < 2 && u != v && (libs == 0 || found[0] != u) {
			found[libs] = u
			libs++
		}
	}
	opp := c.opponent()
	var heads [4]int
	nh := 0
	for _, w := range p.neighbours(v) {
		switch p.cells[w] {
		case empty:
			add(w)
		case opp:
			if p.inAtari(int(p.head[w])) {
				captures = true
			}
		case c:
			h := int(p.head[w])
			dup := false
			for _, x := range heads[:nh] {
				dup = dup || x == h
			}
			if !dup {
				heads[nh] = h
				nh++
			}
		}
	}
	stones = 1
	if captures {
		return 2, true, stones
	}
	for _, h := range heads[:nh] {
		s := h
		for {
			stones++
			if libs < 2 {
				for _, u := range p.neighbours(s) {
					if p.cells[u] == empty {
						add(u)
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
