package orbito

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// squares is a set of squares of a board of at most 10x10 = 100 squares.
type squares [2]uint64

func (a squares) has(sq int) bool { return a[sq>>6]>>(sq&63)&1 == 1 }

func (a squares) with(sq int) squares {
	a[sq>>6] |= 1 << (sq & 63)
	return a
}

func (a squares) and(b squares) squares { return squares{a[0] & b[0], a[1] & b[1]} }

func (a squares) or(b squares) squares { return squares{a[0] | b[0], a[1] | b[1]} }

func (a squares) andNot(b squares) squares { return squares{a[0] &^ b[0], a[1] &^ b[1]} }

func (a squares) count() int { return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) }

func (a squares) isZero() bool { return a[0]|a[1] == 0 }

// covers reports whether every square of b is in a.
func (a squares) covers(b squares) bool { return a[0]&b[0] == b[0] && a[1]&b[1] == b[1] }

// phases are the lookup tables of the searching bot, which never rotates a
// board. It keeps every stone where it stood at the root of the search (the
// "frame") and rotates the lines instead: after m turns from the root, a
// stone on frame square c stands on square rot^m(c), so the winning line L
// is made of the frame squares rot^-m(L). Placing on square p at ply m puts
// the stone on frame square rot^-m(p).
type phases struct {
	// lines[m][i] is winning line i seen in the frame after m turns.
	lines [][]squares
	// through[m][c] lists the indices of the lines of lines[m] that hold
	// frame square c.
	through [][][]uint8
	// all is every square of the board.
	all squares
	// zobrist[colour-1][c] hashes a stone of colour on frame square c.
	zobrist [2][]uint64
}

// newPhases builds the tables for up to maxPly turns from the root.
func newPhases(g *geometry) *phases {
	cells := g.size * g.size
	maxPly := cells + 2 + maxEvalPlies
	prev := make([]int, cells)
	for sq, to := range g.next {
		prev[to] = sq
	}
	ph := &phases{lines: make([][]squares, maxPly+1), through: make([][][]uint8, maxPly+1)}
	frame := make([]int, cells) // frame[p] = rot^-m(p)
	for p := range frame {
		frame[p] = p
		ph.all = ph.all.with(p)
	}
	for m := 0; m <= maxPly; m++ {
		ph.lines[m] = make([]squares, len(g.winLines))
		ph.through[m] = make([][]uint8, cells)
		for i, line := range g.winLines {
			for _, p := range line {
				ph.lines[m][i] = ph.lines[m][i].with(frame[p])
				ph.through[m][frame[p]] = append(ph.through[m][frame[p]], uint8(i))
			}
		}
		for p := range frame {
			frame[p] = prev[frame[p]]
		}
	}
	// A fixed generator (splitmix64) so that hashes, and with them the
	// search, are the same on every run.
	x := uint64(0x9e3779b97f4a7c15) * uint64(g.orbits)
	for c := range 2 {
		ph.zobrist[c] = make([]uint64, cells)
		for sq := range cells {
			x += 0x9e3779b97f4a7c15
			z := x
			z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
			z = (z ^ z>>27) * 0x94d049bb133111eb
			ph.zobrist[c][sq] = z ^ z>>31
		}
	}
	return ph
}

// Search scores, for the side to move.
const (
	scoreWin = 1 << 28 // a line after ply m is worth scoreWin - m
	scoreInf = 1 << 30
	// scoreForced is the least score of a forced win.
	scoreForced = scoreWin - 1000
)

// weights[c] = 3^c is the worth of a line holding c stones of one colour
// and none of the other. (4^c drew more games against normal on 5 orbits:
// docs/bots/orbito.md.)
var weights = func() [11]int {
	var w [11]int
	w[1] = 3
	for c := 2; c < len(w); c++ {
		w[c] = 3 * w[c-1]
	}
	return w
}()

// maxEvalPlies bounds searcher.evalPlies.
const maxEvalPlies = 16

// evalPliesOf is forte's evalPlies on g: the lines of the next 2n plies,
// and on 5 orbits maxEvalPlies (16). Measured against normal
// (docs/bots/orbito.md), a longer horizon pays on larger boards: on 5
// orbits 6 plies drew a third of the games, 10 almost none, and 16 turned
// the last draws as black (games normal dragged to a full board) into wins.
func evalPliesOf(g *geometry) int {
	if g.orbits == maxOrbits {
		return maxEvalPlies
	}
	return 2 * g.orbits
}

// ttEntry is one transposition-table slot.
type ttEntry struct {
	key   uint64
	value int32
	depth int8
	bound int8 // boundExact, boundLower or boundUpper
	move  int8 // best frame square, -1 for none
}

const (
	boundExact int8 = iota
	boundLower
	boundUpper
)

// ttBits is log2 of the transposition table's slots (one table per
// decision, about 1.5 MB).
const ttBits = 16

// searcher is one decision of the forte bot: an alpha-beta search with
// iterative deepening, a transposition table and move ordering, bounded by
// a node budget and a deadline.
type searcher struct {
	g        *geometry
	ph       *phases
	maxNodes int
	deadline time.Time
	// now reads the clock (time.Now; tests count the reads).
	now func() time.Time
	// nextClock is the node count at which the clock is read next.
	nextClock int
	// slot is the search's right to run (engine.SearchSlot), yielded at
	// the node count nextYield.
	slot      *engine.SearchSlot
	nextYield int
	nodes     int
	stopped   bool
	tt        []ttEntry
	// evalPlies is how many plies ahead the evaluation looks at lines.
	evalPlies int
	// rootColour is the colour to move at the root: the colour to move at
	// ply m is rootColour when m is even.
	rootColour stone
	// moveBuf[m] is the move list of ply m, reused.
	moveBuf [][]scoredMove
	// killers[m] are the last two frame squares that refuted a position at
	// ply m (-1: none). Frame squares keep their stones for the whole
	// search, so a move that refuted one position at ply m often refutes
	// its siblings too; they are tried right after the table's move.
	killers [][2]int8
}

type scoredMove struct {
	sq    int8
	score int32
}

// clockEvery is how many nodes the search visits between clock reads.
const clockEvery = 1024

// yieldEvery is how many nodes the search visits between yields of its
// search slot and the processor (a few hundred microseconds on 5 orbits):
// the service's goroutines are not kept waiting behind it.
const yieldEvery = 32

// forteNodes bounds forte's search when the deadline allows more.
const forteNodes = 4_000_000

// forteMaxDepth bounds the depth of the iterative deepening.
const forteMaxDepth = 64

// chooseForte is the strong level: see searchMove.
func chooseForte(s *state, _ *rand.Rand, deadline time.Time) int {
	sq, _, _ := searchMove(s, forteNodes, forteMaxDepth, deadline)
	return sq
}

// searchMove runs the iterative deepening search on s within maxNodes
// nodes, maxDepth plies and deadline (zero: none) and returns the chosen
// square, its score for the mover and the last depth completed. A deeper
// iteration cut short by the budget is thrown away, so with a deadline it
// never reaches the choice depends only on maxNodes and maxDepth.
func searchMove(s *state, maxNodes, maxDepth int, deadline time.Time) (sq, score, depth int) {
	se := newSearcher(s, maxNodes, deadline)
	se.slot = engine.AcquireSearch()
	defer se.slot.Release()
	return se.search(s, maxDepth)
}

// newSearcher is one decision's searcher for s.
func newSearcher(s *state, maxNodes int, deadline time.Time) *searcher {
	g := s.geo
	return &searcher{
		g: g, ph: g.phases, maxNodes: maxNodes, deadline: deadline, now: time.Now, nextClock: clockEvery,
		tt: make([]ttEntry, 1<<ttBits), rootColour: s.toMove, evalPlies: evalPliesOf(g),
		moveBuf: make([][]scoredMove, len(g.phases.lines)), killers: newKillers(len(g.phases.lines)),
	}
}

// sides returns the squares of the side to move in s and of its opponent.
func sides(s *state) (me, opp squares) {
	for i, c := range s.cells {
		switch c {
		case s.toMove:
			me = me.with(i)
		case s.toMove.opponent():
			opp = opp.with(i)
		}
	}
	return me, opp
}

// search is searchMove with the searcher se, built for s.
func (se *searcher) search(s *state, maxDepth int) (sq, score, depth int) {
	g := s.geo
	me, opp := sides(s)
	var hash uint64
	free := 0
	for i, c := range s.cells {
		if c == empty {
			free++
		} else {
			hash ^= se.ph.zobrist[c-1][i]
		}
	}
	maxDepth = min(maxDepth, free)
	// The first free square in reading order is the answer should not even
	// depth 1 complete.
	for _, p := range g.reading {
		if s.cells[p] == empty {
			sq = p
			break
		}
	}
	for d := 1; d <= maxDepth; d++ {
		v, best := se.negamax(me, opp, hash, 0, d, -scoreInf, scoreInf)
		if se.stopped {
			break
		}
		sq, score, depth = best, v, d
		if v >= scoreForced || v <= -scoreForced {
			break // a forced result: deeper search cannot change it
		}
	}
	return sq, score, depth
}

// newKillers is an empty killer table for plies plies.
func newKillers(plies int) [][2]int8 {
	k := make([][2]int8, plies)
	for i := range k {
		k[i] = [2]int8{-1, -1}
	}
	return k
}

// addKiller records that frame square c refuted a position at ply m.
func (se *searcher) addKiller(m, c int) {
	k := &se.killers[m]
	if int(k[0]) != c {
		k[1], k[0] = k[0], int8(c)
	}
}

// timeUp counts a node and reports whether the budget is spent.
func (se *searcher) timeUp() bool {
	se.nodes++
	if se.slot != nil && se.nodes >= se.nextYield {
		se.nextYield = se.nodes + yieldEvery
		se.slot.Yield()
	}
	if se.nodes >= se.maxNodes {
		se.stopped = true
	} else if se.nodes >= se.nextClock && !se.deadline.IsZero() {
		// The leaves' parents count their children as they score them, so
		// the count passes the multiples of clockEvery between two calls:
		// testing it for one (as this did) left the clock unread for tens
		// of thousands of positions.
		se.nextClock = se.nodes + clockEvery
		if se.now().After(se.deadline) {
			// The Bot contract asks a searching bot to stop at its deadline.
			se.stopped = true
		}
	}
	return se.stopped
}

// hasLine reports whether stones fill a line at ply m.
func (se *searcher) hasLine(stones squares, m int) bool {
	for _, l := range se.ph.lines[m] {
		if stones.covers(l) {
			return true
		}
	}
	return false
}

// completesLine reports whether stones fill a line at ply m that holds
// frame square c.
func (se *searcher) completesLine(stones squares, c, m int) bool {
	for _, i := range se.ph.through[m][c] {
		if stones.covers(se.ph.lines[m][i]) {
			return true
		}
	}
	return false
}

// maxLines is the most winning lines of a board: 10 rows, 10 columns and
// 2 diagonals.
const maxLines = 22

// lineCounts are the stones of each colour on every line at one ply.
type lineCounts struct{ me, opp [maxLines]int8 }

// countLines counts me's and opp's stones on the lines of ply p.
func (se *searcher) countLines(me, opp squares, p int) (lc lineCounts) {
	for i, l := range se.ph.lines[p] {
		lc.me[i] = int8(me.and(l).count())
		lc.opp[i] = int8(opp.and(l).count())
	}
	return lc
}

// potential is the worth for a colour of a line holding a of its stones and
// b of the other colour's: weights[a] when b is 0, -weights[b] when a is 0.
func potential(a, b int8) int {
	switch {
	case b == 0:
		return weights[a]
	case a == 0:
		return -weights[b]
	}
	return 0
}

// negamax searches the position at ply m from the root, me to move, depth
// plies deep, and returns its value for me and the best frame square (-1
// when the search stopped before one was found). The position is not over.
func (se *searcher) negamax(me, opp squares, hash uint64, m, depth, alpha, beta int) (int, int) {
	if se.timeUp() {
		return 0, -1
	}
	slot := &se.tt[hash&(1<<ttBits-1)]
	ttMove := -1
	if slot.key == hash {
		ttMove = int(slot.move)
		if int(slot.depth) >= depth && ttMove >= 0 {
			v := int(slot.value)
			switch {
			case slot.bound == boundExact,
				slot.bound == boundLower && v >= beta,
				slot.bound == boundUpper && v <= alpha:
				return v, ttMove
			}
		}
	}
	occupied := me.or(opp)
	// The rotation that ends this turn can complete lines whatever me
	// places: a line of the opponent's, or one of me's own.
	oppLine := se.hasLine(opp, m+1)
	meLine := se.hasLine(me, m+1)
	full := occupied.count()+1 == se.g.size*se.g.size
	var moves []scoredMove
	var leaf *leafEval
	if depth <= 1 {
		leaf = se.newLeafEval(me, opp, m)
		moves = se.freeSquares(occupied, m, ttMove)
	} else {
		moves = se.orderMoves(me, opp, m, ttMove)
	}
	alpha0 := alpha
	best, bestSq := -scoreInf, -1
	colour := se.rootColour
	if m%2 == 1 {
		colour = colour.opponent()
	}
	for _, mv := range moves {
		c := int(mv.sq)
		next := me.with(c)
		won := meLine || se.completesLine(next, c, m+1)
		var v int
		switch {
		case won && oppLine, !won && !oppLine && full:
			v = 0
		case won:
			v = scoreWin - (m + 1)
		case oppLine:
			v = -(scoreWin - (m + 1))
		case leaf != nil:
			se.nodes++
			v = -leaf.child(c)
		default:
			v, _ = se.negamax(opp, next, hash^se.ph.zobrist[colour-1][c], m+1, depth-1, -beta, -alpha)
			v = -v
			if se.stopped {
				return 0, -1
			}
		}
		if v > best {
			best, bestSq = v, c
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			se.addKiller(m, c)
			break
		}
	}
	bound := boundExact
	switch {
	case best <= alpha0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	*slot = ttEntry{key: hash, value: int32(best), depth: int8(depth), bound: bound, move: int8(bestSq)}
	return best, bestSq
}

// leafEval scores the children of a position at ply m, me to move, with
// the static evaluation (see evaluate), each from the side of the
// opponent, who is to move in the child at ply m+1. Counting the lines once
// per parent makes each child's score a sum over the few lines through the
// square played.
type leafEval struct {
	se *searcher
	m  int
	// counts[j] counts the lines at ply m+2+j; in them "me" is the child's
	// mover Y (the parent's opponent) and "opp" is X, the parent's mover.
	counts [maxEvalPlies]lineCounts
	plies  int
	// base is the child's evaluation before the square played is added.
	base int
	// xLine: X has a line at m+2 already.
	xLine bool
	// yThreats counts the lines at m+2 that Y fills but for one square
	// with no X stone.
	yThreats int
	// At m+3, after X's next turn: xFull3 is X having a line there
	// already, xGaps3 the free squares that would complete an X line with
	// no Y stone, yThreats3 the lines Y fills but for at most one square
	// with no X stone, and occupied the stones of the parent.
	xFull3    bool
	xGaps3    squares
	yThreats3 int
	occupied  squares
}

func (se *searcher) newLeafEval(me, opp squares, m int) *leafEval {
	le := &leafEval{se: se, m: m, plies: min(se.evalPlies, len(se.ph.lines)-(m+2)), occupied: me.or(opp)}
	k := int8(se.g.k)
	for j := range le.plies {
		lc := se.countLines(opp, me, m+2+j)
		le.counts[j] = lc
		for i, l := range se.ph.lines[m+2+j] {
			a, b := lc.me[i], lc.opp[i]
			le.base += potential(a, b)
			switch j {
			case 0:
				if b == k {
					le.xLine = true
				}
				if a >= k-1 && b == 0 {
					le.yThreats++
				}
			case 1:
				switch {
				case b == k:
					le.xFull3 = true
				case b == k-1 && a == 0:
					le.xGaps3 = le.xGaps3.or(l.andNot(le.occupied))
				case a >= k-1 && b == 0:
					le.yThreats3++
				}
			}
		}
	}
	return le
}

// child is the evaluation, for the side to move in it, of the position
// after the parent's mover plays frame square c (not ending the game).
func (le *leafEval) child(c int) int {
	se, m, k := le.se, le.m, int8(le.se.g.k)
	q := m + 1 // the child's ply
	if le.xLine {
		return -(scoreWin / 2) + q
	}
	v := le.base
	threats := le.yThreats
	xFull, gaps, yThreats3 := le.xFull3, le.xGaps3, le.yThreats3
	for j := range le.plies {
		lc := &le.counts[j]
		for _, i := range se.ph.through[m+2+j][c] {
			a, b := lc.me[i], lc.opp[i]
			switch j {
			case 0:
				if b+1 == k {
					return -(scoreWin / 2) + q
				}
				if a == k-1 && b == 0 {
					threats--
				}
			case 1:
				switch {
				case b+1 == k:
					xFull = true
				case b+1 == k-1 && a == 0:
					gaps = gaps.or(se.ph.lines[m+3][i].andNot(le.occupied.with(c)))
				case a >= k-1 && b == 0:
					yThreats3--
				}
			}
			v += potential(a, b+1) - potential(a, b)
		}
		if j == 0 && threats > 0 {
			return scoreWin/2 - q
		}
		if j == 1 && yThreats3 == 0 && (xFull || gaps.andNot(squares{}.with(c)).count() >= 2) {
			return -(scoreWin / 2) + q + 2
		}
	}
	return v
}

// freeSquares lists the free frame squares at ply m: the transposition
// table's move and the killers of ply m first, then the others in frame
// order. At the parents of the leaves every child costs one evaluation, so
// ordering by anything dearer than that would not pay; a refutation tried
// first often saves all the others.
func (se *searcher) freeSquares(occupied squares, m, ttMove int) []scoredMove {
	buf := se.moveBuf[m][:0]
	first := [3]int{ttMove, int(se.killers[m][0]), int(se.killers[m][1])}
	for i, c := range first {
		if c >= 0 && !occupied.has(c) && !slices.Contains(first[:i], c) {
			buf = append(buf, scoredMove{sq: int8(c)})
		}
	}
	for c := range se.g.size * se.g.size {
		if !occupied.has(c) && !slices.Contains(first[:], c) {
			buf = append(buf, scoredMove{sq: int8(c)})
		}
	}
	se.moveBuf[m] = buf
	return buf
}

// evaluate is the static evaluation of a position at ply m for me, the side
// to move; leafEval computes the same thing incrementally. It is the line
// potential at the plies m+1 .. m+evalPlies: the sum over the lines of
// those plies of potential(me's stones, the opponent's stones). Besides, it
// knows the next two judgements:
//
//   - an opponent line at m+1 (the rotation that ends me's turn completes
//     it) is a lost position for me;
//   - a line of me at m+1 short of one square with no opponent stone is a
//     won one;
//   - otherwise, when the opponent's lines at m+2 (after its next turn)
//     hold a complete line, or lack two different free squares between
//     them (a double threat: me can take only one), the position is lost,
//     unless me has a line at m+2 short of at most one square, which could
//     make it a draw.
func (se *searcher) evaluate(me, opp squares, m int) int {
	k := int8(se.g.k)
	v := 0
	threat := false
	occupied := me.or(opp)
	for j := range min(se.evalPlies, len(se.ph.lines)-(m+1)) {
		lc := se.countLines(me, opp, m+1+j)
		oppFull, meThreat := false, false
		var gaps squares
		for i, l := range se.ph.lines[m+1+j] {
			a, b := lc.me[i], lc.opp[i]
			if j == 0 && b == k {
				return -(scoreWin / 2) + m
			}
			threat = threat || j == 0 && a >= k-1 && b == 0
			if j == 1 {
				oppFull = oppFull || b == k
				meThreat = meThreat || a >= k-1 && b == 0
				if b == k-1 && a == 0 {
					gaps = gaps.or(l.andNot(occupied))
				}
			}
			v += potential(a, b)
		}
		if threat {
			return scoreWin/2 - m
		}
		if j == 1 && !meThreat && (oppFull || gaps.count() >= 2) {
			return -(scoreWin / 2) + m + 2
		}
	}
	return v
}

// orderMoves lists the free frame squares at ply m, the transposition
// table's move first, then by how much the square adds to me's lines and
// takes from the opponent's at the next two judgements; ties in frame
// order (which, at the root, is the board's square order).
func (se *searcher) orderMoves(me, opp squares, m, ttMove int) []scoredMove {
	buf := se.moveBuf[m][:0]
	cells := se.g.size * se.g.size
	occupied := me.or(opp)
	c1, c2 := se.countLines(me, opp, m+1), se.countLines(me, opp, m+2)
	for c := range cells {
		if occupied.has(c) {
			continue
		}
		score := 0
		for dm, lc := range [2]*lineCounts{&c1, &c2} {
			for _, i := range se.ph.through[m+1+dm][c] {
				a, b := lc.me[i], lc.opp[i]
				if b == 0 {
					score += weights[a+1]
				}
				if a == 0 {
					score += weights[b]
				}
			}
		}
		switch c {
		case ttMove:
			score = scoreInf
		case int(se.killers[m][0]):
			score = scoreInf - 1
		case int(se.killers[m][1]):
			score = scoreInf - 2
		}
		buf = append(buf, scoredMove{sq: int8(c), score: int32(score)})
	}
	slices.SortFunc(buf, func(x, y scoredMove) int {
		if x.score != y.score {
			return int(y.score - x.score)
		}
		return int(x.sq) - int(y.sq)
	})
	se.moveBuf[m] = buf
	return buf
}
