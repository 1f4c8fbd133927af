package gogame

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// This file is the Monte Carlo tree search bot: UCT with RAVE (all moves as
// first) and prior knowledge, on the Playout board, with the light playout
// policy of policy.go. See docs/bots/go.md for the method and the measured
// strength of each level.

// mctsLevel is the budget of one MCTS level. The search stops at whichever
// comes first: playouts playouts in all, maxTime after the call started, or
// a little before the caller's deadline.
type mctsLevel struct {
	// playouts is the total playout budget of one move, summed over the
	// threads; it must be positive.
	playouts int
	// maxTime caps the thinking time of one move; 0 leaves only the
	// deadline.
	maxTime time.Duration
	// threads is the number of independent trees searched in parallel
	// (root parallelisation) inside the call, joined before it returns; 0
	// means runtime.GOMAXPROCS(0), every core the process may use, or the
	// process's search limit (engine.LimitSearch) when it is lower.
	threads int
}

// Search constants, tuned by hand on 9x9 against GNU Go (docs/bots/go.md).
const (
	// expandAt is the number of simulations through a leaf before its
	// children are added to the tree.
	expandAt = 4
	// raveEquiv is the number of real visits at which a move's own win rate
	// and its AMAF win rate weigh the same.
	raveEquiv = 3000
	// priorEven is the virtual visits (half of them wins) every new child
	// starts with; the heuristics of priorOf add to it.
	priorEven = 10
	// maxNodes bounds the tree of one thread (28 bytes a node, about 30 MB); past it leaves
	// are no longer expanded.
	maxNodes = 1 << 20
	// clockEvery is how many simulations run between clock reads.
	clockEvery = 16
	// yieldEvery is how many simulations run between yields of the
	// processor and the search slot (engine.SearchSlot): a search thread
	// never holds a core for more than a few of them while the service's
	// goroutines wait (see docs/bots/BOTS.md, "Bots beside human rooms").
	yieldEvery = 2
	// deadlineMargin is kept before the caller's deadline to answer in time.
	deadlineMargin = 30 * time.Millisecond
)

// node is a node of the search tree: the move that led to it and its
// statistics, from the view of the player who played that move. v and w
// include the prior's virtual visits and wins; visits counts the real
// simulations only.
type node struct {
	v, w   float32 // visits and wins, prior included
	av, aw float32 // AMAF visits and wins
	visits int32   // real simulations through the node
	first  int32   // index of the first child, -1 while unexpanded
	nchild int16
	move   int16 // Playout point, or passPoint
}

// mctsBot returns the bot of an MCTS level. It uses only its arguments:
// the rng seeds one generator per thread before the threads start, and the
// threads are joined before it returns, so the engine stays free of state
// between calls. With a playout budget and a zero deadline the move depends
// only on the position, the rng and the number of threads.
func mctsBot(lv mctsLevel) engine.Bot {
	return func(st engine.State, seat int, rng *rand.Rand, deadline time.Time) (string, error) {
		s, err := botState(st, seat)
		if err != nil {
			return "", err
		}
		return s.mctsMove(lv, rng, deadline), nil
	}
}

// rootChild is a legal move at the root with its prior.
type rootChild struct {
	move   int // Playout point or passPoint
	pv, pw float32
}

// mctsMove searches the position and returns the chosen move's name.
func (s *state) mctsMove(lv mctsLevel, rng *rand.Rand, deadline time.Time) string {
	leads := s.leads()
	// Passing after the opponent's pass ends the game on the board as it
	// stands: do it when that wins, never when it loses.
	if s.passes == 1 && leads {
		return Pass
	}
	root, last, children := s.mctsRoot(leads)
	switch len(children) {
	case 0:
		return Pass
	case 1:
		return root.name(s, children[0].move)
	}

	threads := lv.threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
		if limit := engine.SearchLimit(); limit > 0 {
			threads = min(threads, limit) // more trees would only wait
		}
	}
	budget := max(lv.playouts, threads)
	var stop time.Time
	if !deadline.IsZero() {
		stop = deadline.Add(-deadlineMargin)
	}
	if lv.maxTime > 0 {
		if capAt := time.Now().Add(lv.maxTime); stop.IsZero() || capAt.Before(stop) {
			stop = capAt
		}
	}
	stats := searchRoot(root, last, children, threads, budget, stop, rng)
	return root.name(s, children[mostSimulated(stats)].move)
}

// leads reports whether the side to move wins the board as it stands
// (white wins ties; black must pass the komi under another).
func (s *state) leads() bool {
	sb, sw := s.board.score()
	return (s.toMove == black) == s.blackWins(sb, sw)
}

// mctsRoot is where a search of s starts: the Playout board of s, the last
// move as its point, and the root's children, the moves the rules allow
// (superko included) without own-eye fills, and pass unless the opponent
// just passed (a pass then ends the game: mctsMove decides it before any
// search). leads is s.leads(), which gives pass its prior. root is nil and
// there are no children when s cannot be loaded (never: s is a go state).
func (s *state) mctsRoot(leads bool) (root *Playout, last int, children []rootChild) {
	me := s.toMove
	root = NewPlayout(s.board.geo.n)
	if err := root.Load(s); err != nil {
		return nil, passPoint, nil
	}
	last = s.lastPoint(root)
	for q, c := range s.board.cells {
		if c != empty {
			continue
		}
		if _, err := s.check(q, me); err != nil {
			continue
		}
		v := root.point(q)
		if root.isEye(v, me) {
			continue
		}
		pv, pw := root.priorOf(v, me, last)
		children = append(children, rootChild{v, pv, pw})
	}
	if s.passes == 0 {
		pv, pw := float32(priorEven), float32(0)
		if leads {
			pw = priorEven / 2
		}
		children = append(children, rootChild{passPoint, pv, pw})
	}
	return root, last, children
}

// rootStat is a root child's statistics summed over the threads' trees.
type rootStat struct {
	visits int32   // real simulations through the child
	wins   float32 // of those, the ones its mover won
	v, w   float32 // visits and wins with the priors' virtual ones
}

// searchRoot searches from root (whose last move is last and whose
// children are children) on threads trees, one goroutine each, joined
// before it returns: budget simulations in all, or fewer when the clock
// passes stop (zero: no time limit). Each thread's random source is drawn
// from rng before any starts, so without a stop the result depends only on
// the position, rng and threads. It returns the children's statistics
// summed over the trees.
func searchRoot(root *Playout, last int, children []rootChild, threads, budget int, stop time.Time, rng *rand.Rand) []rootStat {
	searchers := make([]*searcher, threads)
	for i := range searchers {
		// Seed every thread from rng before any starts, so that a playout
		// budget gives the same move every time.
		searchers[i] = newSearcher(root, last, children, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	}
	var wg sync.WaitGroup
	for i, sr := range searchers {
		n := budget / threads
		if i < budget%threads {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr.run(n, stop)
		}()
	}
	wg.Wait()
	stats := make([]rootStat, len(children))
	for i, c := range children {
		st := &stats[i]
		for _, sr := range searchers {
			ch := sr.nodes[sr.nodes[0].first+int32(i)]
			st.visits += ch.visits
			st.v += ch.v
			st.w += ch.w
			st.wins += ch.w - c.pw
		}
	}
	return stats
}

// mostSimulated is the index of the child with the most simulations, the
// higher win rate (priors included) on ties, the first on equal rates:
// the move the bots play.
func mostSimulated(stats []rootStat) int {
	best, bestVisits, bestRate := 0, int32(-1), float32(-1)
	for i, st := range stats {
		rate := st.w / st.v
		if st.visits > bestVisits || (st.visits == bestVisits && rate > bestRate) {
			best, bestVisits, bestRate = i, st.visits, rate
		}
	}
	return best
}

// lastPoint is the last move of the game as a point of p, or passPoint
// after a pass or at the start.
func (s *state) lastPoint(p *Playout) int {
	if len(s.moves) == 0 || s.moves[len(s.moves)-1] == Pass {
		return passPoint
	}
	q, err := s.board.geo.parsePoint(s.moves[len(s.moves)-1])
	if err != nil {
		return passPoint
	}
	return p.point(q)
}

// name is the move name of a Playout point (or passPoint).
func (p *Playout) name(s *state, v int) string {
	if v == passPoint {
		return Pass
	}
	r, c := v/p.stride-1, v%p.stride-1
	return s.board.geo.names[r*p.n+c]
}

// priorOf is the prior knowledge about a stone of c on the empty point v
// (legal, not an own eye), as virtual visits and wins: captures and escapes
// from atari are good, self-atari is bad, moves near the last move are
// good, and in an empty area the first two lines are bad and the third good.
func (p *Playout) priorOf(v int, c color, last int) (pv, pw float32) {
	pv, pw = priorEven, priorEven/2
	libs, captures, stones := p.libsAfter(v, c)
	switch {
	case captures:
		pv, pw = pv+20, pw+20
	case libs < 2 && stones >= 2:
		pv += 30
	case libs < 2:
		pv += 10
	}
	if !captures && libs >= 2 {
		for _, w := range p.neighbours(v) {
			if p.cells[w] == c && p.inAtari(int(p.head[w])) {
				pv, pw = pv+15, pw+15
				break
			}
		}
	}
	if p.matchesPattern(v) {
		pv, pw = pv+10, pw+10
	}
	r, col := v/p.stride-1, v%p.stride-1
	if last != passPoint {
		lr, lc := last/p.stride-1, last%p.stride-1
		if d := abs(r-lr) + abs(col-lc); d <= 2 {
			pv, pw = pv+10, pw+10
		}
	}
	if p.emptyArea(r, col, 3) {
		switch line := min(r, col, p.n-1-r, p.n-1-col); {
		case line <= 1:
			pv += 10
		case line == 2:
			pv, pw = pv+10, pw+10
		}
	}
	return pv, pw
}

// emptyArea reports whether no stone lies within Manhattan distance d of
// the intersection at row r, column col (0-based).
func (p *Playout) emptyArea(r, col, d int) bool {
	for dr := -d; dr <= d; dr++ {
		rr := r + dr
		if rr < 0 || rr >= p.n {
			continue
		}
		span := d - abs(dr)
		for dc := -span; dc <= span; dc++ {
			cc := col + dc
			if cc < 0 || cc >= p.n {
				continue
			}
			if c := p.cells[(rr+1)*p.stride+cc+1]; c == black || c == white {
				return false
			}
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// searcher is one thread's search: its own tree, boards and rng.
type searcher struct {
	root    *Playout // the position searched (shared, read only)
	rootC   color
	last    int
	board   *Playout // scratch board of a simulation
	rng     *rand.Rand
	nodes   []node
	path    []int32
	buf     []int
	amafGen uint32
	amafMk  []uint32 // amafMk[v] == amafGen when v was played in this simulation
	amafC   []color  // the color that played v first
	amafAt  []int32  // the index of that move in the simulation
}

// newSearcher builds a searcher whose root has the given children.
func newSearcher(root *Playout, last int, children []rootChild, rng *rand.Rand) *searcher {
	size := len(root.cells)
	sr := &searcher{
		root: root, rootC: root.toMove, last: last, board: NewPlayout(root.n), rng: rng,
		nodes: make([]node, 1, 1024), buf: make([]int, 0, 64),
		amafMk: make([]uint32, size), amafC: make([]color, size), amafAt: make([]int32, size),
	}
	sr.nodes[0] = node{first: 1, nchild: int16(len(children)), move: passPoint}
	for _, ch := range children {
		sr.nodes = append(sr.nodes, node{v: ch.pv, w: ch.pw, first: -1, move: int16(ch.move)})
	}
	return sr
}

// run plays n simulations, or fewer when the clock passes stop (a zero stop
// is no time limit).
func (sr *searcher) run(n int, stop time.Time) {
	slot := engine.AcquireSearch()
	defer slot.Release()
	for i := range n {
		if i%clockEvery == clockEvery-1 && !stop.IsZero() && time.Now().After(stop) {
			return
		}
		if i%yieldEvery == yieldEvery-1 {
			slot.Yield()
		}
		sr.simulate()
	}
}

// mover is the color that played the move leading to the node at depth k
// of the current path (k >= 1).
func (sr *searcher) mover(k int) color {
	if k%2 == 1 {
		return sr.rootC
	}
	return sr.rootC.opponent()
}

// simulate descends the tree from the root choosing children by their RAVE
// value, expands the leaf when it has been reached often enough, finishes
// the game with a playout and backs the result up the path.
func (sr *searcher) simulate() {
	b := sr.board
	b.CopyFrom(sr.root)
	sr.amafGen++
	if sr.amafGen == 0 {
		clear(sr.amafMk)
		sr.amafGen = 1
	}
	sr.path = append(sr.path[:0], 0)
	cur, last, seq := int32(0), sr.last, int32(0)
	for b.passes < 2 {
		nd := &sr.nodes[cur]
		if nd.first < 0 {
			if nd.visits < expandAt || len(sr.nodes) >= maxNodes {
				break
			}
			sr.expand(cur, last)
			nd = &sr.nodes[cur]
			if nd.nchild == 0 {
				break
			}
		}
		cur = sr.selectChild(nd)
		v := int(sr.nodes[cur].move)
		if v == passPoint {
			b.pass()
		} else {
			sr.markAmaf(v, b.toMove, seq)
			b.play(v, b.toMove)
		}
		seq++
		last = v
		sr.path = append(sr.path, cur)
	}
	if b.passes < 2 {
		limit := b.moves + 3*b.n*b.n
		for b.passes < 2 && b.moves < limit {
			c := b.toMove
			v := b.policyMove(sr.rng, last, sr.buf)
			if v != passPoint {
				sr.markAmaf(v, c, seq)
			}
			seq++
			last = v
		}
	}
	winner := white
	if b.BlackWins(b.Score()) {
		winner = black
	}
	sr.backup(winner)
}

// markAmaf records that c played v at index seq of the simulation, unless
// v was already played in it.
func (sr *searcher) markAmaf(v int, c color, seq int32) {
	if sr.amafMk[v] == sr.amafGen {
		return
	}
	sr.amafMk[v], sr.amafC[v], sr.amafAt[v] = sr.amafGen, c, seq
}

// selectChild returns the child of nd with the highest RAVE value: the
// win rate blended with the AMAF win rate, the AMAF weight fading as real
// visits grow.
func (sr *searcher) selectChild(nd *node) int32 {
	best, bestVal := nd.first, float32(-1)
	for i := nd.first; i < nd.first+int32(nd.nchild); i++ {
		ch := &sr.nodes[i]
		val := ch.w / ch.v
		if ch.av > 0 {
			beta := ch.av / (ch.av + ch.v + ch.v*ch.av/raveEquiv)
			val = (1-beta)*val + beta*ch.aw/ch.av
		}
		if val > bestVal {
			best, bestVal = i, val
		}
	}
	return best
}

// expand adds the children of the leaf cur, whose position is on the
// scratch board: every legal move that does not fill an own eye, and pass.
func (sr *searcher) expand(cur int32, last int) {
	b := sr.board
	c := b.toMove
	first := int32(len(sr.nodes))
	for _, e := range b.empties {
		v := int(e)
		if !b.legal(v, c) || b.isEye(v, c) {
			continue
		}
		pv, pw := b.priorOf(v, c, last)
		sr.nodes = append(sr.nodes, node{v: pv, w: pw, first: -1, move: int16(v)})
	}
	pw := float32(0)
	if (c == black) == b.BlackWins(b.Score()) {
		pw = priorEven / 2
	}
	sr.nodes = append(sr.nodes, node{v: priorEven, w: pw, first: -1, move: passPoint})
	nd := &sr.nodes[cur]
	nd.first, nd.nchild = first, int16(int32(len(sr.nodes))-first)
}

// backup adds the result of a simulation to every node of the path and the
// AMAF statistics of their children.
func (sr *searcher) backup(winner color) {
	for k, ni := range sr.path {
		nd := &sr.nodes[ni]
		nd.visits++
		if k > 0 {
			nd.v++
			if sr.mover(k) == winner {
				nd.w++
			}
		}
		if nd.first < 0 {
			continue
		}
		childC := sr.mover(k + 1)
		won := float32(0)
		if childC == winner {
			won = 1
		}
		for i := nd.first; i < nd.first+int32(nd.nchild); i++ {
			ch := &sr.nodes[i]
			m := int(ch.move)
			if m == passPoint || sr.amafMk[m] != sr.amafGen || sr.amafC[m] != childC || sr.amafAt[m] < int32(k) {
				continue
			}
			ch.av++
			ch.aw += won
		}
	}
}
