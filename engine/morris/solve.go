package morris

import (
	"sync"
	"time"
)

// numKeys is the number of position keys: 3^9 boards times 2 sides to move.
const numKeys = 19683 * 2

// The results of a solved position, for the side to move.
const (
	resultDraw int8 = 0  // neither side can force a line
	resultWin  int8 = 1  // the side to move can force a line
	resultLoss int8 = -1 // the opponent can force a line (or has one)
)

// solution is the solved game: for every position that can occur (see
// position.validate), the result for the side to move with perfect play,
// ignoring the repetition rule, and the number of plies to the line (the
// winner hurrying, the loser delaying).
type solution struct {
	result [numKeys]int8
	plies  [numKeys]uint16
}

// solved is the solution, worked out on first use (a few milliseconds) and
// only read afterwards.
var solved = sync.OnceValue(solve)

// positionFromKey is the inverse of positionKey.
func positionFromKey(k uint32) position {
	p := position{toMove: pieceX}
	if k%2 == 1 {
		p.toMove = pieceO
	}
	bk := k / 2
	for i := numPoints - 1; i >= 0; i-- {
		switch bk % 3 {
		case 1:
			p.board[i] = pieceX
		case 2:
			p.board[i] = pieceO
		}
		bk /= 3
	}
	return p
}

// after returns p with m played by the side to move.
func (p position) after(m movement) position {
	me := p.toMove
	p.board[m.from] = free
	p.board[m.to] = me
	p.toMove = me.other()
	return p
}

// solve works the game out backwards by rounds: a position where the
// previous mover has a line is lost in 0 plies; in round r, a position with
// a move to a position lost before round r is won in r plies, and one whose
// every move leads to a position won before round r is lost in r plies.
// What no round decides is a draw.
func solve() *solution {
	sol := &solution{}
	children := make([][]uint32, numKeys)
	var open []uint32
	for k := range uint32(numKeys) {
		p := positionFromKey(k)
		if p.validate() != nil {
			continue
		}
		if p.board.winner() != free {
			sol.result[k] = resultLoss
			continue
		}
		for _, m := range p.moves() {
			children[k] = append(children[k], positionKey(p.after(m)))
		}
		open = append(open, k)
	}
	decided := func(c uint32, round uint16) bool {
		return sol.result[c] != resultDraw && sol.plies[c] < round
	}
	for round := uint16(1); len(open) > 0; round++ {
		var still []uint32
		for _, k := range open {
			win, allLost := false, true
			for _, c := range children[k] {
				if !decided(c, round) {
					allLost = false
					continue
				}
				if sol.result[c] == resultLoss {
					win = true
				} else {
					allLost = allLost && sol.result[c] == resultWin
				}
			}
			switch {
			case win:
				sol.result[k], sol.plies[k] = resultWin, round
			case allLost:
				sol.result[k], sol.plies[k] = resultLoss, round
			default:
				still = append(still, k)
			}
		}
		if len(still) == len(open) {
			break
		}
		open = still
	}
	return sol
}

// choosePerfect plays the solved game: the move of highest perfectScore,
// the first in reading order (state.Legal's order) among equals.
func choosePerfect(s *state, _ time.Time) movement {
	sol := solved()
	var best movement
	bestScore := 0
	for i, m := range s.pos.moves() {
		if score := perfectScore(sol, s, m); i == 0 || score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// perfectScore is the value of the legal move m of s for its mover, from
// the solved game: positive for a win (a line now is best, then a win in
// fewer plies before a win in more), 0 for a draw, negative for a loss (a
// loss in more plies before a loss in fewer). A move that makes the third
// occurrence of a position is a draw, unless it makes a line.
func perfectScore(sol *solution, s *state, m movement) int {
	child := s.pos.after(m)
	k := positionKey(child)
	switch {
	case child.board.winner() == s.pos.toMove:
		return 1 << 16
	case s.seen[k]+1 >= repetitionLimit:
		return 0
	case sol.result[k] == resultLoss:
		return 1<<16 - int(sol.plies[k])
	case sol.result[k] == resultWin:
		return -1<<16 + int(sol.plies[k])
	}
	return 0
}
