package queens

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// botState checks that s is a queens state with seat to move and returns it.
func botState(es engine.State, seat int) (*state, error) {
	s, ok := es.(*state)
	if !ok {
		return nil, fmt.Errorf("queens bot: state is a %T, not a queens game", es)
	}
	if s.outcome.Over {
		return nil, errors.New("queens bot: the game is over")
	}
	if seat != s.toMove {
		return nil, fmt.Errorf("queens bot: seat %d is not to move", seat)
	}
	return s, nil
}

// botMoves is botState and the valid placements of seat, refused when there
// are none.
func botMoves(es engine.State, seat int) (*state, []move, error) {
	s, err := botState(es, seat)
	if err != nil {
		return nil, nil, err
	}
	ms := s.moves(seat)
	if len(ms) == 0 {
		return nil, nil, errors.New("queens bot: no valid placement")
	}
	return s, ms, nil
}

// apressado is the seed's jogador_apressado: the first valid placement in
// the game's order (pieces in hand order, squares in ascending (row, col)).
func apressado(es engine.State, seat int, _ *rand.Rand, _ time.Time) (string, error) {
	s, ms, err := botMoves(es, seat)
	if err != nil {
		return "", err
	}
	return s.moveName(ms[0]), nil
}

// roleta is the seed's jogador_roleta: a valid placement chosen uniformly
// among all valid (piece, square) pairs with rng.
func roleta(es engine.State, seat int, rng *rand.Rand, _ time.Time) (string, error) {
	if rng == nil {
		return "", errors.New("queens bot roleta: no random source")
	}
	s, ms, err := botMoves(es, seat)
	if err != nil {
		return "", err
	}
	return s.moveName(ms[rng.IntN(len(ms))]), nil
}

// gulosa is the seed's greedy player (Questão 10): the placement that
// attacks the most squares not attacked yet; on ties, the first in the
// game's order.
func gulosa(es engine.State, seat int, _ *rand.Rand, _ time.Time) (string, error) {
	s, err := botState(es, seat)
	if err != nil {
		return "", err
	}
	m, ok := s.greedyMove(seat)
	if !ok {
		return "", errors.New("queens bot: no valid placement")
	}
	return s.moveName(m), nil
}

// greedyMove is gulosa's choice for seat.
func (s *state) greedyMove(seat int) (move, bool) {
	best, bestGain := move{}, -1
	for _, m := range s.moves(seat) {
		if gain := s.newlyAttacked(m); gain > bestGain {
			best, bestGain = m, gain
		}
	}
	return best, bestGain >= 0
}

// newlyAttacked is the number of squares m would attack that no placed
// piece attacks yet.
func (s *state) newlyAttacked(m move) int {
	return s.geo.attacks[m.piece][m.sq].countNew(&s.attacked)
}

// fortePlayouts bounds forte's search when the deadline allows more.
var fortePlayouts = 30000

// forte tuning.
const (
	// forteExploration is the UCB1 exploration constant.
	forteExploration = 1.2
	// forteClockEvery is how many playouts forte runs between clock reads.
	forteClockEvery = 32
	// forteYieldEvery is how many playouts run between yields of the
	// processor and the search slot (engine.SearchSlot).
	forteYieldEvery = 8
)

// forte is our own player (Questão 11): it plays a winning move at once if
// there is one; otherwise Monte Carlo tree search (UCT) with uniformly
// random playouts to the end of the game and proved results (MCTS-Solver),
// at most fortePlayouts playouts, until the deadline or until the root is
// proved, and plays a move proved won, else the most visited move not
// proved lost (the first in the game's order on ties). Given the same rng
// and a deadline it does not reach, it plays the same move.
func forte(es engine.State, seat int, rng *rand.Rand, deadline time.Time) (string, error) {
	if rng == nil {
		return "", errors.New("queens bot forte: no random source")
	}
	s, ms, err := botMoves(es, seat)
	if err != nil {
		return "", err
	}
	for _, m := range ms {
		if s.winsAtOnce(seat, m) {
			return s.moveName(m), nil
		}
	}
	return s.moveName(forteSearch(s, ms, rng, deadline, fortePlayouts).choice(ms)), nil
}

// winsAtOnce reports whether m ends the game won for seat, the mover: the
// opponent is left without a valid placement, or both hands are empty.
func (s *state) winsAtOnce(seat int, m move) bool {
	c := s.clone()
	c.play(seat, m)
	return c.outcome.Over && c.outcome.Winner == seat
}

// forteSearch runs forte's tree search from s, whose moves are ms, for at
// most playouts playouts, and returns the root.
func forteSearch(s *state, ms []move, rng *rand.Rand, deadline time.Time, playouts int) *uctNode {
	root := &uctNode{untried: slices.Clone(ms), toMove: s.toMove}
	slot := engine.AcquireSearch()
	defer slot.Release()
	for i := range playouts {
		// The only clock read of the package: the Bot contract asks a
		// searching bot to stop at the deadline.
		if i%forteClockEvery == forteClockEvery-1 && !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		if root.proven != 0 {
			break // the game is solved from here: more playouts change nothing
		}
		if i%forteYieldEvery == forteYieldEvery-1 {
			slot.Yield() // let the service's goroutines and other searches run
		}
		root.iterate(s.clone(), rng)
	}
	return root
}

// choice is the root's move: a child proved won if there is one, else the
// most visited child not proved lost (the first in ms's order on ties),
// else the most visited.
func (n *uctNode) choice(ms []move) move {
	byMove := make(map[move]*uctNode, len(n.children))
	for _, c := range n.children {
		if c.proven == provenWin {
			return c.move
		}
		byMove[c.move] = c
	}
	rank := func(m move) (bool, float64) {
		c := byMove[m]
		if c == nil {
			return true, 0
		}
		return c.proven != provenLoss, c.visits
	}
	best := ms[0]
	bestOpen, bestVisits := rank(best)
	for _, m := range ms[1:] {
		open, visits := rank(m)
		if open && !bestOpen || open == bestOpen && visits > bestVisits {
			best, bestOpen, bestVisits = m, open, visits
		}
	}
	return best
}

// Proved results of a node, for the seat that made its move.
const (
	provenLoss int8 = -1
	provenWin  int8 = 1
)

// uctNode is a node of forte's search tree: the position after move.
type uctNode struct {
	move     move
	toMove   int // the seat to move in this node's position
	children []*uctNode
	untried  []move
	visits   float64
	// wins counts the playouts won by the seat that made move.
	wins float64
	// proven is the result for the seat that made move once the search has
	// proved it (MCTS-Solver): provenWin, provenLoss or 0 while unknown. A
	// finished game is proved; a node is proved lost for its mover when
	// one of its children is won for theirs, and won when every move from
	// it is tried and proved lost.
	proven int8
}

// iterate runs one playout from the node, whose position is s (which it
// changes), and returns the winning seat.
func (n *uctNode) iterate(s *state, rng *rand.Rand) int {
	var winner int
	switch {
	case n.proven != 0:
		winner = 1 - n.toMove // the node's mover
		if n.proven == provenLoss {
			winner = n.toMove
		}
	case s.outcome.Over:
		winner = s.outcome.Winner
	case len(n.untried) > 0:
		i := rng.IntN(len(n.untried))
		m := n.untried[i]
		n.untried = append(n.untried[:i], n.untried[i+1:]...)
		s.play(s.toMove, m)
		child := &uctNode{move: m, toMove: s.toMove}
		if s.outcome.Over {
			child.proven = provenLoss
			if s.outcome.Winner == 1-child.toMove {
				child.proven = provenWin
			}
		} else {
			child.untried = s.moves(s.toMove)
		}
		n.children = append(n.children, child)
		winner = playout(s, rng)
		child.record(winner, 1-child.toMove)
		n.update(child)
	default:
		child := n.bestChild()
		s.play(s.toMove, child.move)
		winner = child.iterate(s, rng)
		n.update(child)
	}
	n.record(winner, 1-n.toMove)
	return winner
}

// update proves n from its children after child changed.
func (n *uctNode) update(child *uctNode) {
	if n.proven != 0 {
		return
	}
	if child.proven == provenWin {
		n.proven = provenLoss
		return
	}
	if len(n.untried) > 0 {
		return
	}
	for _, c := range n.children {
		if c.proven != provenLoss {
			return
		}
	}
	n.proven = provenWin
}

func (n *uctNode) record(winner, mover int) {
	n.visits++
	if winner == mover {
		n.wins++
	}
}

// bestChild returns the child with the highest UCB1 value, the first on
// ties, leaving out children proved lost for their mover unless all are.
func (n *uctNode) bestChild() *uctNode {
	var best *uctNode
	bestValue := -1.0
	logN := math.Log(n.visits)
	for _, c := range n.children {
		if c.proven == provenWin {
			return c
		}
		if c.proven == provenLoss {
			continue
		}
		v := c.wins/c.visits + forteExploration*math.Sqrt(logN/c.visits)
		if v > bestValue {
			best, bestValue = c, v
		}
	}
	if best == nil {
		return n.children[0]
	}
	return best
}

// playout plays uniformly random valid placements until the game ends and
// returns the winner.
func playout(s *state, rng *rand.Rand) int {
	for !s.outcome.Over {
		ms := s.moves(s.toMove)
		s.play(s.toMove, ms[rng.IntN(len(ms))])
	}
	return s.outcome.Winner
}

// MatchResult is the result of one bot game.
type MatchResult struct {
	// Outcome is how the game ended.
	Outcome engine.Outcome
	// Moves are the moves played, primeiro's first.
	Moves []string
}

// PlayMatch plays one game of variant from its initial position (x-random's
// hand drawn with seed) between the bot levels[0] as primeiro and levels[1]
// as segundo, for the round-robin tournament (the seed's torneio). Each bot
// has its own random source seeded from seed and its seat, so the game is
// the same for the same arguments as long as no deadline cuts a search.
// deadline, when not nil, gives the deadline of each bot move (the engine
// reads no clock); nil means no deadline.
func PlayMatch(variant string, levels [2]string, seed uint64, deadline func() time.Time) (MatchResult, error) {
	var bots [2]engine.Bot
	for seat, level := range levels {
		b, ok := Game().Bot(level)
		if !ok {
			return MatchResult{}, engine.Errorf(engine.CodeUnknownGame, "queens has no bot level %q", level)
		}
		bots[seat] = b
	}
	s, err := Game().New(variant, nil, seed)
	if err != nil {
		return MatchResult{}, err
	}
	rngs := [2]*rand.Rand{
		rand.New(rand.NewPCG(seed, 0x51_0)),
		rand.New(rand.NewPCG(seed, 0x51_1)),
	}
	var res MatchResult
	for {
		seat, ok := s.Turn()
		if !ok {
			res.Outcome = s.Outcome()
			return res, nil
		}
		var d time.Time
		if deadline != nil {
			d = deadline()
		}
		mv, err := bots[seat](s.Clone(), seat, rngs[seat], d)
		if err != nil {
			return res, fmt.Errorf("bot %s as %s: %w", levels[seat], seatNames[seat], err)
		}
		if err := s.Apply(seat, mv); err != nil {
			return res, fmt.Errorf("bot %s as %s played %q: %w", levels[seat], seatNames[seat], mv, err)
		}
		res.Moves = append(res.Moves, mv)
	}
}
