package queens

// A second, deliberately naive implementation of the seed's functions, in
// the shape of the Python assignment (sets of (row, col) tuples, pieces
// walking rays), used to cross-check the bitset engine.

import (
	"cmp"
	"slices"
)

type pos struct{ r, c int }

// refGame is the seed's game dictionary.
type refGame struct {
	size   int
	placed map[pos]byte
	hands  [2][]byte
}

func refFromState(s *state) refGame {
	g := refGame{size: s.geo.size, placed: map[pos]byte{}}
	for sq, l := range s.board {
		if l != 0 {
			g.placed[pos{sq / g.size, sq % g.size}] = l
		}
	}
	g.hands = [2][]byte{slices.Clone(s.hands[0]), slices.Clone(s.hands[1])}
	return g
}

// refAttackedBy is pos_atacadas_por: rays for sliding pieces, offsets for
// the king and the knight, nothing blocks.
func refAttackedBy(piece byte, p pos, size int) map[pos]bool {
	out := map[pos]bool{}
	on := func(q pos) bool { return q.r >= 0 && q.r < size && q.c >= 0 && q.c < size }
	var straight, diagonal bool
	switch piece {
	case 'R':
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				if q := (pos{p.r + dr, p.c + dc}); (dr != 0 || dc != 0) && on(q) {
					out[q] = true
				}
			}
		}
	case 'C':
		for _, d := range []pos{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			if q := (pos{p.r + d.r, p.c + d.c}); on(q) {
				out[q] = true
			}
		}
	case 'D':
		straight, diagonal = true, true
	case 'T':
		straight = true
	case 'B':
		diagonal = true
	}
	var dirs []pos
	if straight {
		dirs = append(dirs, pos{0, 1}, pos{0, -1}, pos{1, 0}, pos{-1, 0})
	}
	if diagonal {
		dirs = append(dirs, pos{1, 1}, pos{1, -1}, pos{-1, 1}, pos{-1, -1})
	}
	for _, d := range dirs {
		for q := (pos{p.r + d.r, p.c + d.c}); on(q); q = (pos{q.r + d.r, q.c + d.c}) {
			out[q] = true
		}
	}
	return out
}

// refAllAttacked is todas_pos_atacadas.
func refAllAttacked(g refGame) map[pos]bool {
	out := map[pos]bool{}
	for p, l := range g.placed {
		for q := range refAttackedBy(l, p, g.size) {
			out[q] = true
		}
	}
	return out
}

// refValidFor is pos_válidas_para.
func refValidFor(piece byte, g refGame) map[pos]bool {
	attacked := refAllAttacked(g)
	out := map[pos]bool{}
	for r := range g.size {
		for c := range g.size {
			p := pos{r, c}
			if _, taken := g.placed[p]; taken || attacked[p] {
				continue
			}
			ok := true
			for q := range refAttackedBy(piece, p, g.size) {
				if _, taken := g.placed[q]; taken {
					ok = false
				}
			}
			if ok {
				out[p] = true
			}
		}
	}
	return out
}

type refMove struct {
	piece byte
	p     pos
}

// refMoves lists seat's valid moves in the documented order: distinct hand
// pieces in order of first appearance, squares sorted as tuples.
func refMoves(g refGame, seat int) []refMove {
	var out []refMove
	var seen []byte
	for _, l := range g.hands[seat] {
		if slices.Contains(seen, l) {
			continue
		}
		seen = append(seen, l)
		sqs := sortedPositions(refValidFor(l, g))
		for _, p := range sqs {
			out = append(out, refMove{l, p})
		}
	}
	return out
}

func sortedPositions(set map[pos]bool) []pos {
	var out []pos
	for p := range set {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b pos) int {
		return cmp.Or(cmp.Compare(a.r, b.r), cmp.Compare(a.c, b.c))
	})
	return out
}

// refGreedy is the greedy player: most squares newly attacked, first on ties.
func refGreedy(g refGame, seat int) (refMove, bool) {
	attacked := refAllAttacked(g)
	best, bestGain := refMove{}, -1
	for _, m := range refMoves(g, seat) {
		gain := 0
		for q := range refAttackedBy(m.piece, m.p, g.size) {
			if !attacked[q] {
				gain++
			}
		}
		if gain > bestGain {
			best, bestGain = m, gain
		}
	}
	return best, bestGain >= 0
}

func (m refMove) String() string {
	return string(m.piece) + "@" + itoa(m.p.r) + "," + itoa(m.p.c)
}

func itoa(n int) string {
	if n >= 10 {
		return itoa(n/10) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}
