package g2048

import (
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// LevelForte is the bot level id of the strong, table-driven expectimax bot.
const LevelForte = "forte"

// The chances of the spawned tile as the search weighs them: the engine's
// 0.8 for a 2 and 0.2 for a 4 (see board.spawn).
const (
	probTwo  = 0.8
	probFour = 0.2
)

// searchConfig bounds one decision of the expectimax search.
type searchConfig struct {
	// maxDepth is the deepest iteration: the number of the bot's own moves
	// looked at, the first one included (1 is greedy on the heuristic).
	maxDepth int
	// nodeBudget bounds the chance nodes one decision visits over all its
	// iterations: an iteration starts only when its predicted size fits in
	// what is left, and one that overruns it is abandoned for the previous
	// iteration's answer. It is what keeps a decision near 10 ms while
	// letting the depth grow where the tree is small (few empty cells,
	// where depth matters most). 0 means no budget: every decision searches
	// maxDepth (for deterministic tests).
	nodeBudget int
	// probCutoff: a chance node reached with a probability below it is a
	// leaf (its heuristic value), whatever the depth left.
	probCutoff float64
}

// forteConfig is the tuned configuration of level forte (see
// docs/bots/2048.md for the measurements behind it).
var forteConfig = searchConfig{maxDepth: 8, nodeBudget: 1500000, probCutoff: 1e-4}

// The transposition cache: a direct-mapped table of cacheSize entries
// (1 MB), allocated for each decision and dropped after it.
const (
	cacheBits = 16
	cacheSize = 1 << cacheBits
)

// cacheEntry is the value of a chance node searched depth moves deep. An
// unused entry holds board 0, which no chance node has (a move leaves at
// least one tile).
type cacheEntry struct {
	board Bitboard
	value float32
	depth int32
}

// searcher is the state of one decision, owned by the goroutine that
// decides: the cache, the counters and the limits.
type searcher struct {
	cache    []cacheEntry
	cfg      searchConfig
	nodes    int
	inner    int // chance nodes searched below (not leaves): the clock is read every 1024
	limit    int // abandon the iteration when nodes exceed it (0: no limit)
	deadline time.Time
	aborted  bool
	slot     *engine.SearchSlot // yielded every 1024 inner nodes
}

// newSearcher starts a decision with an empty cache. The caller releases
// its search slot when the decision is made.
func newSearcher(cfg searchConfig, deadline time.Time) *searcher {
	return &searcher{cache: make([]cacheEntry, cacheSize), cfg: cfg, deadline: deadline, slot: engine.AcquireSearch()}
}

// forte is the bot of level "forte": an expectimax search on Bitboards
// (see decide), playing its own seat's board in both variants.
func forte(st engine.State, seat int, _ *rand.Rand, deadline time.Time) (string, error) {
	s, legal, err := botLegal(st, seat)
	if err != nil {
		return "", err
	}
	d, _ := decide(bitboardOf(&s.boards[seat].grid), forteConfig, deadline)
	for _, m := range legal {
		if m == d.String() {
			return m, nil
		}
	}
	// Only when a tile above MaxBitboardTile made the packed board differ
	// from the real one.
	return legal[0], nil
}

// searchStats says how a decision went.
type searchStats struct {
	depth int // deepest iteration completed
	nodes int // chance nodes visited, abandoned iteration included
	// values are the expected values of the directions (in the order of
	// directions) at the deepest iteration completed, 0 for a direction
	// that changes nothing.
	values [4]float64
}

// decide returns the best direction for b by iterative deepening (see
// deepen). With a single move that changes b it plays it without a
// search, with none it returns North.
func decide(b Bitboard, cfg searchConfig, deadline time.Time) (best Direction, stats searchStats) {
	next := movesOf(b)
	legal := 0
	for _, n := range next {
		if n != b {
			legal++
		}
	}
	if legal == 0 {
		return North, stats
	}
	if legal == 1 {
		for i, n := range next {
			if n != b {
				return directions[i], stats
			}
		}
	}
	return deepen(b, next, cfg, deadline)
}

// deepen searches b, whose moves are next (movesOf(b)), at least one of
// which changes it, by iterative deepening: depth 1, 2, ... up to
// cfg.maxDepth, each a full expectimax from the root (see chanceNode),
// while the budget and the deadline allow, and returns the best direction
// of the deepest iteration completed; on exact ties the first in the order
// N, S, E, W. The clock matters only when deadline is not zero and closer
// than the search would end: otherwise the answer depends on b and cfg
// alone.
func deepen(b Bitboard, next [4]Bitboard, cfg searchConfig, deadline time.Time) (best Direction, stats searchStats) {
	s := newSearcher(cfg, deadline)
	defer s.slot.Release()
	start := time.Now()
	best = North
	prevNodes, lastNodes := 0, 0
	for depth := 1; depth <= cfg.maxDepth; depth++ {
		if depth > 1 && cfg.nodeBudget > 0 {
			growth := 4
			if prevNodes > 0 {
				growth = max(growth, lastNodes/prevNodes+1)
			}
			if s.nodes+lastNodes*growth > cfg.nodeBudget {
				break
			}
			s.limit = cfg.nodeBudget
		}
		if depth > 1 && !deadline.IsZero() {
			// Stop when the next iteration would probably end past the
			// deadline (it is several times the work done so far).
			elapsed := time.Since(start)
			if time.Now().Add(4 * elapsed).After(deadline) {
				break
			}
		}
		before := s.nodes
		var bestValue float64
		var values [4]float64
		found := false
		var choice Direction
		for i, n := range next {
			if n == b {
				continue
			}
			v := s.chanceNode(n, depth-1, 1)
			if s.aborted {
				break
			}
			values[i] = v
			if !found || v > bestValue {
				found, bestValue, choice = true, v, directions[i]
			}
		}
		if s.aborted {
			break
		}
		best = choice
		stats.depth, stats.values = depth, values
		prevNodes, lastNodes = lastNodes, s.nodes-before
	}
	stats.nodes = s.nodes
	return best, stats
}

// movesOf returns b after each direction, in the order of directions (N, S,
// E, W); an entry equal to b is a move that changes nothing.
func movesOf(b Bitboard) [4]Bitboard {
	t := b.Transpose()
	return [4]Bitboard{
		slideRows(t, &tables.left).Transpose(),
		slideRows(t, &tables.right).Transpose(),
		slideRows(b, &tables.right),
		slideRows(b, &tables.left),
	}
}

// slideRows applies a row table to the four rows of b.
func slideRows(b Bitboard, rows *[1 << 16]uint16) Bitboard {
	return Bitboard(rows[uint16(b)]) |
		Bitboard(rows[uint16(b>>16)])<<16 |
		Bitboard(rows[uint16(b>>32)])<<32 |
		Bitboard(rows[uint16(b>>48)])<<48
}

// chanceNode is the expected value of b (a board after the bot's move,
// before the new tile) with depth more moves of the bot to look at, b
// reached with probability prob: the average over every empty cell of 0.8
// x the max node with a 2 there and 0.2 x with a 4. With no depth left or
// prob below the cutoff it is Evaluate(b).
func (s *searcher) chanceNode(b Bitboard, depth int, prob float64) float64 {
	if s.aborted {
		return 0
	}
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit {
		s.aborted = true
		return 0
	}
	if depth == 0 || prob < s.cfg.probCutoff {
		return float64(b.Evaluate())
	}
	if s.inner++; s.inner&1023 == 0 {
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.aborted = true
		}
		// Let the service's goroutines and other searches run: about
		// every 50 us of search.
		s.slot.Yield()
	}
	if s.aborted {
		return 0
	}
	slot := &s.cache[uint64(b)*0x9E3779B97F4A7C15>>(64-cacheBits)]
	if slot.board == b && int(slot.depth) >= depth {
		return float64(slot.value)
	}
	empty := countEmpty(b)
	p2 := prob * probTwo / float64(empty)
	p4 := prob * probFour / float64(empty)
	var sum float64
	for i := 0; i < 64; i += 4 {
		if (b>>i)&0xf != 0 {
			continue
		}
		sum += probTwo*s.maxNode(b|1<<i, depth, p2) + probFour*s.maxNode(b|2<<i, depth, p4)
	}
	value := sum / float64(empty)
	if !s.aborted {
		*slot = cacheEntry{board: b, value: float32(value), depth: int32(depth)}
	}
	return value
}

// maxNode is the value of b (a board after the new tile, the bot to move):
// the best chanceNode over the moves that change b, with one move less to
// look at; 0 (below any Evaluate) when no move changes b, the game lost.
func (s *searcher) maxNode(b Bitboard, depth int, prob float64) float64 {
	if depth == 1 || prob < s.cfg.probCutoff {
		return s.leafMaxNode(b)
	}
	var best float64
	for _, n := range movesOf(b) {
		if n != b {
			best = max(best, s.chanceNode(n, depth-1, prob))
		}
	}
	return best
}

// leafMaxNode is maxNode when every move leads to a leaf: the best
// Evaluate after a move (0 when none). It is the bulk of the search, so it
// shares the work of the four moves and their evaluations: one transpose
// for N and S before the move, one for each result after it, where
// movesOf then Evaluate would take seven. Each move counts as a node, as
// the chanceNode it stands for would.
func (s *searcher) leafMaxNode(b Bitboard) float64 {
	if s.aborted {
		return 0
	}
	t := b.Transpose()
	best, moved := 0.0, 0
	for _, m := range [4]struct {
		from Bitboard
		rows *[1 << 16]uint16
	}{{t, &tables.left}, {t, &tables.right}, {b, &tables.right}, {b, &tables.left}} {
		n := slideRows(m.from, m.rows)
		if n == m.from {
			continue
		}
		moved++
		// n is the result or its transpose: Evaluate sums both.
		best = max(best, float64(rowsHeuristic(n)+rowsHeuristic(n.Transpose())))
	}
	s.nodes += moved
	if s.limit > 0 && s.nodes > s.limit {
		s.nodes = s.limit + 1
		s.aborted = true
		return 0
	}
	return best
}

// rowsHeuristic sums the heuristic table over the four rows of b.
func rowsHeuristic(b Bitboard) int64 {
	h := &tables.heuristic
	return int64(h[uint16(b)]) + int64(h[uint16(b>>16)]) + int64(h[uint16(b>>32)]) + int64(h[uint16(b>>48)])
}

// countEmpty counts the empty cells of b.
func countEmpty(b Bitboard) int {
	x := uint64(b)
	// Fold each nibble to one bit: set when the nibble is not zero.
	x |= x >> 2
	x |= x >> 1
	x &= 0x1111111111111111
	return 16 - bits.OnesCount64(x)
}
