package orbito

import (
	"math/bits"
	"math/rand/v2"
	"sync"
	"time"
)

// The solved game of Orbito-2 (4x4, four in a row, the seed's rules: no
// final rotations on a full board).
//
// A position is the two colours' stones, as 16-bit masks over the squares
// (bit sq = row*4+col, as in geometry). Only the counts matter for whose turn
// it is: the side to move has as many stones as the other or one fewer
// (checkCounts). Swapping the colours changes nothing in the rules, so a
// position is stored as if black had started: with equal counts black is to
// move, and with one stone more black has just moved. Its index is the board
// read as a base-3 number (digit sq: 0 empty, 1 black, 2 white), 3^16
// indices, of which about ten million are positions play can reach.

// solvedCells is the number of squares of Orbito-2.
const solvedCells = 16

// numSolvedKeys is 3^16, the number of base-3 board indices.
const numSolvedKeys = 43046721

// Values of a solved position for the side to move, as stored.
const (
	valueUnknown uint8 = iota // not a position of the table
	valueLoss
	valueDraw
	valueWin
)

// table2 is the solved game: two bits a base-3 index.
type table2 struct {
	packed []byte // numSolvedKeys/4 rounded up
	// rot[lo] and rotHi[hi] rotate the low and high bytes of a mask.
	rotLo, rotHi [256]uint16
	// base3Lo and base3Hi read the low and high bytes of a mask as base-3
	// digits of value 1.
	base3Lo, base3Hi [256]uint32
	// line[mask] reports whether mask fills a row, column or diagonal.
	line []bool
	// positions counts the stored positions, by value.
	positions [4]int
}

func (t *table2) get(i uint32) uint8 { return t.packed[i>>2] >> (2 * (i & 3)) & 3 }

func (t *table2) set(i uint32, v uint8) {
	t.packed[i>>2] = t.packed[i>>2]&^(3<<(2*(i&3))) | v<<(2*(i&3))
}

// rotate turns a mask one step counter-clockwise.
func (t *table2) rotate(m uint16) uint16 { return t.rotLo[m&0xff] | t.rotHi[m>>8] }

// index is the base-3 index of a position, first as black (digit 1).
func (t *table2) index(first, second uint16) uint32 {
	return t.base3Lo[first&0xff] + t.base3Hi[first>>8] + 2*(t.base3Lo[second&0xff]+t.base3Hi[second>>8])
}

// key is the index of the position with mover to move: when the mover has
// as many stones as the other it plays as black, otherwise as white.
func (t *table2) key(mover, other uint16) uint32 {
	if bits.OnesCount16(mover) == bits.OnesCount16(other) {
		return t.index(mover, other)
	}
	return t.index(other, mover)
}

// newTable2 builds the lookup tables of Orbito-2, without solving.
func newTable2() *table2 {
	g := geometries[2]
	t := &table2{packed: make([]byte, (numSolvedKeys+3)/4), line: make([]bool, 1<<solvedCells)}
	for x := range 256 {
		for b := range 8 {
			if x>>b&1 == 1 {
				t.rotLo[x] |= 1 << g.next[b]
				t.rotHi[x] |= 1 << g.next[b+8]
			}
		}
		p := uint32(1)
		for b := range 8 {
			if x>>b&1 == 1 {
				t.base3Lo[x] += p
				t.base3Hi[x] += p * 6561 // 3^8
			}
			p *= 3
		}
	}
	var lines []uint16
	for _, l := range g.winLines {
		var m uint16
		for _, sq := range l {
			m |= 1 << sq
		}
		lines = append(lines, m)
	}
	for m := range 1 << solvedCells {
		for _, l := range lines {
			if uint16(m)&l == l {
				t.line[m] = true
				break
			}
		}
	}
	return t
}

// judgeMove is the result, for the mover, of placing on the free square sq
// of the position (mover, other): the value when the turn ends the game,
// else valueUnknown and the position that follows (the next mover first).
func (t *table2) judgeMove(mover, other uint16, sq int) (v uint8, nextMover, nextOther uint16) {
	me := t.rotate(mover | 1<<sq)
	opp := t.rotate(other)
	meLine, oppLine := t.line[me], t.line[opp]
	switch {
	case meLine && oppLine:
		return valueDraw, 0, 0
	case meLine:
		return valueWin, 0, 0
	case oppLine:
		return valueLoss, 0, 0
	case me|opp == 1<<solvedCells-1:
		return valueDraw, 0, 0
	}
	return valueUnknown, opp, me
}

// negate is the value of a position for the side that moved into it.
func negate(v uint8) uint8 { return valueWin + valueLoss - v }

// value computes a stored position's value from its children, which must
// be solved.
func (t *table2) value(mover, other uint16) uint8 {
	best := valueLoss
	free := ^(mover | other)
	for free != 0 {
		sq := bits.TrailingZeros16(free)
		free &= free - 1
		v, nm, no := t.judgeMove(mover, other, sq)
		if v == valueUnknown {
			v = negate(t.get(t.key(nm, no)))
		}
		best = max(best, v)
		if best == valueWin {
			break
		}
	}
	return best
}

// forEachPosition calls f on every position of the table with stones
// stones on the board, black (first) to move when stones is even: every
// board with the right counts on which nobody has a line.
func (t *table2) forEachPosition(stones int, f func(first, second uint16)) {
	nFirst, nSecond := (stones+1)/2, stones/2
	for first := range 1 << solvedCells {
		b := uint16(first)
		if bits.OnesCount16(b) != nFirst || t.line[b] {
			continue
		}
		comp := ^b
		// Every subset of the free squares, through the usual trick.
		for w := comp; ; w = (w - 1) & comp {
			if bits.OnesCount16(w) == nSecond && !t.line[w] {
				f(b, w)
			}
			if w == 0 {
				break
			}
		}
	}
}

// solve2 solves every position, the fullest boards first: a position's
// children have one stone more, so they are solved before it.
func solve2() *table2 {
	t := newTable2()
	for stones := solvedCells - 1; stones >= 0; stones-- {
		t.forEachPosition(stones, func(first, second uint16) {
			mover, other := first, second
			if stones%2 == 1 {
				mover, other = second, first
			}
			v := t.value(mover, other)
			t.set(t.index(first, second), v)
			t.positions[v]++
		})
	}
	return t
}

// verify re-derives every stored value from its children and checks that
// no other index holds a value. It returns the number of positions checked
// and the first inconsistent index, if any.
func (t *table2) verify() (checked int, badIndex uint32, ok bool) {
	stored := make([]byte, len(t.packed))
	setStored := func(i uint32) { stored[i>>2] |= 3 << (2 * (i & 3)) }
	ok = true
	for stones := solvedCells - 1; stones >= 0 && ok; stones-- {
		t.forEachPosition(stones, func(first, second uint16) {
			if !ok {
				return
			}
			mover, other := first, second
			if stones%2 == 1 {
				mover, other = second, first
			}
			i := t.index(first, second)
			setStored(i)
			checked++
			if got := t.get(i); got == valueUnknown || got != t.value(mover, other) {
				badIndex, ok = i, false
			}
		})
	}
	if !ok {
		return checked, badIndex, false
	}
	for i, b := range t.packed {
		if b&^stored[i] != 0 {
			return checked, uint32(4 * i), false
		}
	}
	return checked, 0, true
}

// solved2 is the solved game, worked out on first use (a few seconds) and
// only read afterwards. Like morris's table it is package state, but
// immutable once built and a pure function of the rules, so no caller can
// tell it from a constant; building it at init instead would make every
// program that links the catalog pay for it.
var solved2 = sync.OnceValue(solve2)

// masks2 returns the stones of the mover and of the other side of an
// Orbito-2 state.
func masks2(s *state) (mover, other uint16) {
	for sq, c := range s.cells {
		switch c {
		case s.toMove:
			mover |= 1 << sq
		case s.toMove.opponent():
			other |= 1 << sq
		}
	}
	return mover, other
}

// perfectValue is the value of the Orbito-2 state s for its side to move.
func perfectValue(t *table2, s *state) uint8 {
	mover, other := masks2(s)
	return t.get(t.key(mover, other))
}

// choosePerfeito plays Orbito-2 from the solved table: a move that wins at
// once if there is one, else the first move in reading order whose result
// is best for the mover (a won position before a drawn one before a lost
// one). A game always ends within 16 turns, so keeping a won position won
// wins it. On larger boards, which are not solved, it plays forte.
func choosePerfeito(s *state, rng *rand.Rand, deadline time.Time) int {
	if s.geo.orbits != 2 {
		return chooseForte(s, rng, deadline)
	}
	t := solved2()
	mover, other := masks2(s)
	best, bestValue, immediate := -1, uint8(0), false
	for _, sq := range s.geo.reading {
		if s.cells[sq] != empty {
			continue
		}
		v, nm, no := t.judgeMove(mover, other, sq)
		now := v != valueUnknown
		if !now {
			v = negate(t.get(t.key(nm, no)))
		}
		if v > bestValue || v == bestValue && v == valueWin && now && !immediate {
			best, bestValue, immediate = sq, v, now
		}
	}
	return best
}

// WarmUp solves Orbito-2 now rather than on perfeito's first move on 2
// orbits, which otherwise pays for it: a few seconds of one core and about
// 11 MB, more than a bot turn's default deadline. A server may call it once
// at start-up on a goroutine of its own; it is safe to call at any time,
// from any goroutine, any number of times.
func WarmUp() { solved2() }
