package orbito

import (
	"math/rand/v2"
	"time"
)

// level is one bot level. A new level is one more entry here and one choose
// function.
type level struct {
	id            string
	description   string
	deterministic bool
	// choose returns the square to play for the side to move of s. s is not
	// over, so it has a free square; choose must not change s.
	choose func(s *state, rng *rand.Rand, deadline time.Time) int
}

// levels are the bot levels, the seed's first.
var levels = []level{
	{
		id: "facil",
		description: "The seed's easy strategy: play the first free square, in reading order, " +
			"that after the rotation touches one of its own stones; else the first free square.",
		deterministic: true,
		choose:        chooseFacil,
	},
	{
		id: "normal",
		description: "The seed's normal strategy: find the longest line L it can make after this turn's rotation " +
			"or the opponent can make after the next turn; make it when it can, otherwise take the square the " +
			"opponent needs for it. Ties go to the first square in reading order.",
		deterministic: true,
		choose:        chooseNormal,
	},
	{
		id: "forte",
		description: "Ours: alpha-beta search with iterative deepening, a transposition table and move ordering, " +
			"up to 4 million positions or the deadline; positions are scored by the potential of every row, column and " +
			"diagonal as they will stand after each of the next 2n rotations (n orbits; 16 on 5 orbits), and it sees " +
			"the double threats the opponent can make with its next move.",
		deterministic: false,
		choose:        chooseForte,
	},
	{
		id: "perfeito",
		description: "Ours: on 2 orbits plays from the solved game (every position, worked out once in a few seconds): " +
			"never loses a drawn or won position and wins every won one, taking an immediate win first. " +
			"Larger boards are not solved: there it plays forte.",
		deterministic: false,
		choose:        choosePerfeito,
	},
}

// chooseFacil is the seed's "estrategia facil": the first free square, in
// reading order, that at the end of the turn (after the rotation) is
// adjacent, diagonals included, to one of the player's own stones; when
// there is none, the first free square.
func chooseFacil(s *state, _ *rand.Rand, _ time.Time) int {
	g, me := s.geo, s.toMove
	rotated := s.cells.rotate(g)
	first := -1
	for _, sq := range g.reading {
		if s.cells[sq] != empty {
			continue
		}
		if first < 0 {
			first = sq
		}
		for _, nb := range g.adjacent[g.next[sq]] {
			if rotated[nb] == me {
				return sq
			}
		}
	}
	return first
}

// chooseNormal is the seed's "estrategia normal". For each free square p it
// measures
//
//   - own(p): the longest line of the player's stones through p's stone at
//     the end of this turn, when the player places on p (one rotation);
//   - threat(p): the longest line of the opponent's stones through its stone
//     at the end of its next turn, when it places on the square p has
//     rotated to (two rotations, the player's own move left out: placing on
//     p is what takes that square from the opponent).
//
// L is the largest of all those values (at most k). The bot plays the first
// square in reading order with own(p) = L; when there is none, the first one
// with threat(p) = L, which denies the opponent that line.
func chooseNormal(s *state, _ *rand.Rand, _ time.Time) int {
	g, me := s.geo, s.toMove
	once := s.cells.rotate(g)
	twice := once.rotate(g)
	type candidate struct{ sq, own, threat int }
	var cands []candidate
	best := 0
	for _, sq := range g.reading {
		if s.cells[sq] != empty {
			continue
		}
		c := candidate{
			sq:     sq,
			own:    once.runThrough(g, g.next[sq], me),
			threat: twice.runThrough(g, g.next[g.next[sq]], me.opponent()),
		}
		best = max(best, c.own, c.threat)
		cands = append(cands, c)
	}
	for _, c := range cands {
		if c.own >= best {
			return c.sq
		}
	}
	for _, c := range cands {
		if c.threat >= best {
			return c.sq
		}
	}
	return cands[0].sq // unreachable: best is one of the values
}
