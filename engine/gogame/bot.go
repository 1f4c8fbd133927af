package gogame

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// basicBot is the level "basico": legal, sensible moves without search. It
// answers at once, so it needs no deadline.
func basicBot(st engine.State, seat int, rng *rand.Rand, _ time.Time) (string, error) {
	s, err := botState(st, seat)
	if err != nil {
		return "", err
	}
	return s.basicMove(rng), nil
}

// botState is st as a go state, refused when it is another game's, the
// game is over or seat is not to move.
func botState(st engine.State, seat int) (*state, error) {
	s, ok := st.(*state)
	if !ok {
		return nil, fmt.Errorf("go bot: not a go state but %T", st)
	}
	if err := s.checkSeat(seat); err != nil {
		return nil, err
	}
	return s, nil
}

// candidate is a legal move with the value the bot gives it.
type candidate struct {
	p     int
	value int
}

// basicMove chooses, in this order:
//  1. pass, when the opponent just passed and the bot wins on the current
//     area score (white wins ties), which ends the game;
//  2. the capture that removes the most stones;
//  3. the liberty of its own chain in atari that gives it two or more
//     liberties, saving the largest chain;
//  4. a random legal move that neither fills one of its own eyes nor leaves
//     the new chain with a single liberty;
//  5. pass.
//
// Ties in 2 and 3 are broken at random with rng, and 4 draws from rng.
func (s *state) basicMove(rng *rand.Rand) string {
	me := s.toMove
	b := s.board
	if s.passes == 1 && s.leads() {
		return Pass
	}
	var captures, escapes, calm []candidate
	after := newBoard(b.geo)
	for p, c := range b.cells {
		if c != empty {
			continue
		}
		o, err := s.check(p, me)
		if err != nil {
			continue
		}
		if len(o.captured) > 0 {
			captures = append(captures, candidate{p, len(o.captured)})
			continue
		}
		if b.isOwnEye(p, me) {
			continue
		}
		after.copyFrom(b)
		after.play(p, me, o)
		libs := int(after.libs[after.head[p]])
		if saved := s.savedStones(p, me); saved > 0 && libs >= 2 {
			escapes = append(escapes, candidate{p, saved})
		}
		if libs >= 2 {
			calm = append(calm, candidate{p, 0})
		}
	}
	switch {
	case len(captures) > 0:
		return b.geo.names[pickBest(captures, rng)]
	case len(escapes) > 0:
		return b.geo.names[pickBest(escapes, rng)]
	case len(calm) > 0:
		return b.geo.names[calm[rng.IntN(len(calm))].p]
	}
	return Pass
}

// savedStones is the number of stones in own chains next to p that are in
// atari (their only liberty is p), i.e. the stones a move on p tries to save.
func (s *state) savedStones(p int, me color) int {
	b := s.board
	var counted []int
	total := 0
	for _, q := range b.geo.adj[p] {
		if b.cells[q] != me || b.hasLibertyBesides(q, p) {
			continue
		}
		chain := b.chain(q)
		if slices.Contains(counted, chain[0]) {
			continue
		}
		counted = append(counted, chain[0])
		total += len(chain)
	}
	return total
}

// pickBest returns the intersection of a candidate of highest value,
// choosing among equals with rng.
func pickBest(cands []candidate, rng *rand.Rand) int {
	best := cands[0].value
	for _, c := range cands {
		best = max(best, c.value)
	}
	var top []int
	for _, c := range cands {
		if c.value == best {
			top = append(top, c.p)
		}
	}
	return top[rng.IntN(len(top))]
}

// isOwnEye reports whether the empty intersection p is an eye of color c:
// every neighbour is a stone of c and the opponent holds fewer than two of
// the diagonal intersections (none when p is on the edge).
func (b *board) isOwnEye(p int, c color) bool {
	for _, q := range b.geo.adj[p] {
		if b.cells[q] != c {
			return false
		}
	}
	n := b.geo.n
	r, col := p/n, p%n
	bad := 0
	if len(b.geo.adj[p]) < 4 {
		bad = 1
	}
	for _, d := range [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
		rr, cc := r+d[0], col+d[1]
		if rr < 0 || rr >= n || cc < 0 || cc >= n {
			continue
		}
		if b.cells[rr*n+cc] == c.opponent() {
			bad++
		}
	}
	return bad < 2
}
