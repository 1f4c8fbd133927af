package morris

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// The minimax depths of the seed's levels (section 2.2.2).
const (
	depthNormal  = 1
	depthDificil = 5
)

// bots are the bot levels by id.
var bots = map[string]engine.Bot{
	LevelFacil:    seedBot(chooseFacil),
	LevelNormal:   seedBot(minimaxChooser(depthNormal)),
	LevelDificil:  seedBot(minimaxChooser(depthDificil)),
	LevelPerfeito: stateBot(choosePerfect),
}

// mover chooses a movement for the player to move in a position of the
// movement phase in which some piece of that player can move.
type mover func(p *position, deadline time.Time) movement

// stateBot wraps a chooser of a legal move for the player to move into an
// engine.Bot: it checks that s is a morris state in which seat is to move.
func stateBot(choose func(s *state, deadline time.Time) movement) engine.Bot {
	return func(es engine.State, seat int, _ *rand.Rand, deadline time.Time) (string, error) {
		s, ok := es.(*state)
		if !ok {
			return "", fmt.Errorf("morris bot: state is a %T, not a morris state", es)
		}
		if turn, ok := s.Turn(); !ok {
			return "", errors.New("morris bot: the game is over")
		} else if turn != seat {
			return "", fmt.Errorf("morris bot: seat %d is not to move", seat)
		}
		return choose(s, deadline).String(), nil
	}
}

// seedBot wraps a movement-phase chooser into a bot that plays the seed's
// obter_movimento_auto: the placement priorities while placing, the pass of
// the first piece in reading order when every piece is blocked, and choose
// otherwise.
func seedBot(choose mover) engine.Bot {
	return stateBot(func(s *state, deadline time.Time) movement {
		return chooseSeedMove(&s.pos, choose, deadline)
	})
}

// chooseSeedMove is the seed's obter_movimento_auto for the player to move.
func chooseSeedMove(p *position, choose mover, deadline time.Time) movement {
	me := p.toMove
	if p.placing(me) {
		to := placeByPriority(&p.board, me)
		return movement{from: to, to: to, isPlacement: true}
	}
	if p.board.blocked(me) {
		first := p.board.points(me)[0]
		return movement{from: first, to: first}
	}
	return choose(p, deadline)
}

// placeByPriority is the seed's placement strategy (section 1.3.1): the
// first of win, block, centre, free corner, free side. Win and block take
// the first free point in reading order that completes a row or column of
// the player (win) or of the opponent (block); corners and sides are taken
// in reading order too.
func placeByPriority(b *board, me piece) point {
	frees := b.points(free)
	for _, pc := range [2]piece{me, me.other()} {
		for _, p := range frees {
			if completesLine(b, p, pc) {
				return p
			}
		}
	}
	if b[center] == free {
		return center
	}
	for _, p := range frees {
		if p.isCorner() {
			return p
		}
	}
	return frees[0]
}

// completesLine reports whether a piece pc on the free point p would give
// pc a winning line.
func completesLine(b *board, p point, pc piece) bool {
	for _, l := range winLines {
		n, has := 0, false
		for _, q := range l {
			if q == p {
				has = true
			} else if b[q] == pc {
				n++
			}
		}
		if has && n == 2 {
			return true
		}
	}
	return false
}

// chooseFacil is the seed's facil movement: the first piece in reading
// order that has a free adjacent point, moved to the first such point.
func chooseFacil(p *position, _ time.Time) movement {
	return p.moves()[0]
}

// minimaxChooser returns the seed's minimax movement choice (Algorithm 1)
// with the given depth.
func minimaxChooser(depth int) mover {
	return func(p *position, deadline time.Time) movement {
		return minimaxRoot(p.board, p.toMove, depth, deadline)
	}
}

// minimaxRoot runs Algorithm 1 at the root and returns the first movement
// of the best sequence: the pieces of me in reading order, each to its free
// adjacent points in reading order, and the first movement of best value
// (highest for X, lowest for O) is kept. The deadline is looked at after
// each root movement; once it has passed, the best movement so far is
// returned. Some piece of me must be able to move.
func minimaxRoot(b board, me piece, depth int, deadline time.Time) movement {
	var best movement
	bestValue, chosen := 0, false
	for _, from := range b.points(me) {
		for _, to := range adjacent[from] {
			if b[to] != free {
				continue
			}
			b[from], b[to] = free, me
			v := minimax(&b, me.other(), depth-1)
			b[from], b[to] = me, free
			if !chosen || better(me, v, bestValue) {
				best, bestValue, chosen = movement{from: from, to: to}, v, true
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				return best
			}
		}
	}
	return best
}

// minimax is Algorithm 1 below the root: the value of b with me to move
// searched depth plies deep, +1 when X wins, -1 when O wins and 0
// otherwise. As the seed writes it, a node with a winner or depth 0 is worth
// its board value, and the best value starts as a win of the opponent, so a
// player who cannot move is scored as losing (the seed's search does not
// model the blocked pass).
func minimax(b *board, me piece, depth int) int {
	if w := b.winner(); w != free || depth == 0 {
		return int(w)
	}
	best, chosen := int(me.other()), false
	for from := range point(numPoints) {
		if b[from] != me {
			continue
		}
		for _, to := range adjacent[from] {
			if b[to] != free {
				continue
			}
			b[from], b[to] = free, me
			v := minimax(b, me.other(), depth-1)
			b[from], b[to] = me, free
			if !chosen || better(me, v, best) {
				best, chosen = v, true
			}
		}
	}
	return best
}

// better reports whether value v is strictly better than best for me:
// higher for X, lower for O.
func better(me piece, v, best int) bool {
	if me == pieceX {
		return v > best
	}
	return v < best
}
