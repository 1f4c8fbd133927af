package orbito

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// minimaxValue is the exact value of s for its side to move, +1 a win, 0 a
// draw, -1 a loss, by plain minimax over the engine's own rules (play and
// judge): the reference the search and the solved table are checked
// against. Use it only near the end of a game.
func minimaxValue(s *state) int {
	if s.outcome.Over {
		panic("minimaxValue on a finished game")
	}
	me := s.toMove.seat()
	best := -1
	for sq, c := range s.cells {
		if c != empty {
			continue
		}
		child := s.Clone().(*state)
		child.play(sq)
		var v int
		switch {
		case !child.outcome.Over:
			v = -minimaxValue(child)
		case child.outcome.Winner == me:
			v = 1
		case child.outcome.Winner == -1:
			v = 0
		default:
			v = -1
		}
		best = max(best, v)
		if best == 1 {
			break
		}
	}
	return best
}

// endgames returns count positions of Orbito-n that are not over and have
// at most free free squares, from random games.
func endgames(n, free, count int, seed uint64) []*state {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	cells := 4 * n * n
	var out []*state
	for len(out) < count {
		s := randomPosition(n, rng, cells-free-rng.IntN(3))
		if !s.outcome.Over {
			out = append(out, s)
		}
	}
	return out
}

// newSearcherFor is a searcher for s as searchMove builds it, without the
// transposition table, for tests that look at its evaluation.
func newSearcherFor(s *state, evalPlies int) (*searcher, squares, squares) {
	g := s.geo
	se := &searcher{g: g, ph: g.phases, maxNodes: 1 << 30, rootColour: s.toMove, evalPlies: evalPlies}
	me, opp := sides(s)
	return se, me, opp
}

// TestSearchFrameMatchesRules: the search never rotates a board but rotates
// the lines instead (phases). Searched to the end of the game, its verdict
// must be the one plain minimax over the engine's rules gives, on endgames
// of every size, and the move it picks must reach that result.
func TestSearchFrameMatchesRules(t *testing.T) {
	t.Parallel()
	for n, free := range map[int]int{2: 8, 3: 6, 4: 5, 5: 5} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			results := map[int]int{}
			for i, s := range endgames(n, free, 60, 1) {
				want := minimaxValue(s)
				sq, score, _ := searchMove(s, 1<<30, forteMaxDepth, time.Time{})
				got := 0
				switch {
				case score >= scoreForced:
					got = 1
				case score <= -scoreForced:
					got = -1
				case score != 0:
					t.Fatalf("position %d: searched to the end, score %d is neither forced nor a draw", i, score)
				}
				if got != want {
					t.Fatalf("position %d (%v, %s to move): search says %d, minimax %d", i, s.cells.rows(s.geo), s.toMove.name(), got, want)
				}
				child := s.Clone().(*state)
				child.play(sq)
				after := 0
				switch {
				case !child.outcome.Over:
					after = -minimaxValue(child)
				case child.outcome.Winner == s.toMove.seat():
					after = 1
				case child.outcome.Winner != -1:
					after = -1
				}
				if after != want {
					t.Fatalf("position %d: search played %s worth %d, the position is worth %d", i, s.geo.names[sq], after, want)
				}
				results[want]++
			}
			if results[1] == 0 || results[0]+results[-1] == 0 {
				t.Errorf("endgames tried: %v; want both won and not won positions", results)
			}
		})
	}
}

// TestLeafEvalMatchesEvaluate: the incremental leaf evaluation of every
// child equals the static evaluation of the child position.
func TestLeafEvalMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for n := minOrbits; n <= maxOrbits; n++ {
		cells := 4 * n * n
		for range 30 {
			s := openingPosition(n, rng, rng.IntN(cells-2))
			for _, plies := range []int{1, 2, evalPliesOf(s.geo), maxEvalPlies} {
				se, me, opp := newSearcherFor(s, plies)
				for m := range 3 {
					if m+4+plies >= len(se.ph.lines) {
						break
					}
					le := se.newLeafEval(me, opp, m)
					for c := range cells {
						if me.or(opp).has(c) {
							continue
						}
						next := me.with(c)
						if se.hasLine(next, m+1) || se.hasLine(opp, m+1) {
							continue // the search never evaluates a finished game
						}
						if got, want := le.child(c), se.evaluate(opp, next, m+1); got != want {
							t.Fatalf("n=%d plies=%d m=%d square %d: leaf %d, evaluate %d", n, plies, m, c, got, want)
						}
					}
				}
			}
		}
	}
}

// TestForteTakesWinsAndBlocks: forte completes a line when it can, and
// otherwise does not let the opponent complete one when it can prevent it.
func TestForteTakesWinsAndBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	wins, blocks := 0, 0
	for n := minOrbits; n <= maxOrbits; n++ {
		cells := 4 * n * n
		for range 100 {
			s := openingPosition(n, rng, cells/2+rng.IntN(cells/2-1))
			var winning []int
			for _, sq := range s.geo.reading {
				if s.cells[sq] != empty {
					continue
				}
				c := s.Clone().(*state)
				c.play(sq)
				if c.outcome.Over && c.outcome.Winner == s.toMove.seat() {
					winning = append(winning, sq)
				}
			}
			sq, _, _ := searchMove(s, 5_000, forteMaxDepth, time.Time{})
			if len(winning) > 0 {
				wins++
				if !slices.Contains(winning, sq) {
					t.Fatalf("n=%d %v %s to move: forte played %s, not a win among %v", n, s.cells.rows(s.geo), s.toMove.name(), s.geo.names[sq], winning)
				}
				continue
			}
			// Otherwise, when the opponent could win at once after some moves
			// and not after others, forte's move must be one of the others.
			var safe []int
			exposed := false
			for _, x := range s.geo.reading {
				if s.cells[x] != empty {
					continue
				}
				c := s.Clone().(*state)
				c.play(x)
				if c.outcome.Over || !opponentWinsAtOnce(c) {
					safe = append(safe, x)
				} else {
					exposed = true
				}
			}
			if exposed && len(safe) > 0 {
				blocks++
				if !slices.Contains(safe, sq) {
					t.Fatalf("n=%d %v %s to move: forte played %s, letting the opponent win; safe were %v", n, s.cells.rows(s.geo), s.toMove.name(), s.geo.names[sq], names(s.geo, safe))
				}
			}
		}
	}
	if wins == 0 || blocks == 0 {
		t.Errorf("tried %d winning and %d blocking positions, want some of each", wins, blocks)
	}
}

// opponentWinsAtOnce reports whether the side to move in s has a move that
// wins the game at once.
func opponentWinsAtOnce(s *state) bool {
	for x, st := range s.cells {
		if st != empty {
			continue
		}
		c := s.Clone().(*state)
		c.play(x)
		if c.outcome.Over && c.outcome.Winner == s.toMove.seat() {
			return true
		}
	}
	return false
}

// TestForteDeterministicWithBudget: with a node budget and no deadline the
// search is a function of the position.
func TestForteDeterministicWithBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for n := minOrbits; n <= maxOrbits; n++ {
		s := openingPosition(n, rng, 2*n)
		a1, v1, d1 := searchMove(s, 30_000, forteMaxDepth, time.Time{})
		a2, v2, d2 := searchMove(s.Clone().(*state), 30_000, forteMaxDepth, time.Time{})
		if a1 != a2 || v1 != v2 || d1 != d2 {
			t.Errorf("n=%d: two searches gave %s/%d/%d and %s/%d/%d", n, s.geo.names[a1], v1, d1, s.geo.names[a2], v2, d2)
		}
		if d1 < 2 {
			t.Errorf("n=%d: 30000 nodes reached depth %d, want at least 2", n, d1)
		}
	}
}

// TestForteBotPastDeadline: through the engine.Bot contract, with a
// deadline already past, forte still answers a legal move.
func TestForteBotPastDeadline(t *testing.T) {
	bot := enginetest.Bot(t, Game(), "forte")
	for n := minOrbits; n <= maxOrbits; n++ {
		s, err := Game().New(strconv.Itoa(n), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := bot(s.Clone(), 0, rand.New(rand.NewPCG(1, 1)), time.Now().Add(-time.Second))
		if err != nil || !slices.Contains(s.Legal(0), mv) {
			t.Errorf("n=%d: forte = %q, %v; want a legal move", n, mv, err)
		}
		if _, err := bot(s.Clone(), 1, nil, time.Now()); err == nil {
			t.Errorf("n=%d: forte for the seat not to move answered", n)
		}
	}
}

// TestForteBeatsNormal: a smoke match at a small budget from the empty
// board, forte in both seats, on 3 and 4 orbits (the long matches are
// BenchmarkStrength).
func TestForteBeatsNormal(t *testing.T) {
	for _, n := range []int{3, 4} {
		st := match(n, 4, 1, forteWithNodes(20_000), seedChooser("normal"), 1)
		if st.wins < 3 || st.losses > 0 {
			t.Errorf("n=%d: forte at 20000 nodes against normal: %+v, want at least 3 wins of 4 and no loss", n, st)
		}
	}
}

// after is s once its mover has played sq.
func after(s *state, sq int) *state {
	c := s.Clone().(*state)
	c.play(sq)
	return c
}

// forcedWithinTwoTurns reports whether the side to move in s wins by force
// within its next two turns: a move that wins at once, or one after which
// every answer either loses at once or leaves it a move that wins at once
// (a threat that survives the answer: two gaps, or a line the rotations
// complete by themselves). Plain minimax over the engine's rules.
func forcedWithinTwoTurns(s *state) bool {
	me := s.toMove.seat()
	for y, st := range s.cells {
		if st != empty {
			continue
		}
		c := after(s, y)
		if c.outcome.Over {
			if c.outcome.Winner == me {
				return true
			}
			continue
		}
		escapes := false
		for z, st := range c.cells {
			if st != empty {
				continue
			}
			d := after(c, z)
			if d.outcome.Over && d.outcome.Winner != me || !d.outcome.Over && !opponentWinsAtOnce(d) {
				escapes = true
				break
			}
		}
		if !escapes {
			return true
		}
	}
	return false
}

// TestForteStopsDoubleThreats: when some moves let the opponent force a win
// within its next two turns (a win now, or a move leaving two threats that
// survive the rotation, which one stone cannot block) and other moves do
// not, forte plays one of the others, unless it has proved every move
// lost. Late positions, so that the reference minimax stays small; the
// node budget is small, so that the evaluation has to see the double
// threats the search does not reach.
func TestForteStopsDoubleThreats(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	tried := 0
	for n := minOrbits; n <= maxOrbits; n++ {
		cells := 4 * n * n
		for range 150 {
			s := openingPosition(n, rng, cells-8-rng.IntN(5))
			var safe, unsafe []int
			immediate := false
			for _, x := range s.geo.reading {
				if s.cells[x] != empty {
					continue
				}
				c := after(s, x)
				switch {
				case c.outcome.Over && c.outcome.Winner == s.toMove.seat():
					immediate = true
				case c.outcome.Over && c.outcome.Winner == -1, !c.outcome.Over && !forcedWithinTwoTurns(c):
					safe = append(safe, x)
				default:
					unsafe = append(unsafe, x)
				}
			}
			if immediate || len(safe) == 0 || len(unsafe) == 0 {
				continue
			}
			sq, score, _ := searchMove(s, 3_000, forteMaxDepth, time.Time{})
			if score <= -scoreForced {
				continue
			}
			tried++
			if !slices.Contains(safe, sq) {
				t.Fatalf("n=%d %v %s to move: forte played %s (score %d), after which the opponent forces a win; safe were %v",
					n, s.cells.rows(s.geo), s.toMove.name(), s.geo.names[sq], score, names(s.geo, safe))
			}
		}
	}
	if tried < 20 {
		t.Errorf("tried %d positions with safe and unsafe moves, want at least 20", tried)
	}
}

// TestEvaluateSeesDoubleThreats: when the static evaluation calls a
// position lost because of the opponent's lines after its next turn (a
// line the rotations complete, or two gaps that one stone cannot both
// fill), it is lost: every move either loses at once or lets the opponent
// win at once. Checked against the engine's rules on random positions of
// every size, and the verdict must come up.
func TestEvaluateSeesDoubleThreats(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	seen := map[int]int{}
	for n := minOrbits; n <= maxOrbits; n++ {
		cells := 4 * n * n
		for range 3000 {
			s := openingPosition(n, rng, cells/2+rng.IntN(cells/2-1))
			se, me, opp := newSearcherFor(s, evalPliesOf(s.geo))
			if se.evaluate(me, opp, 0) != -(scoreWin/2)+2 {
				continue
			}
			seen[n]++
			for x, st := range s.cells {
				if st != empty {
					continue
				}
				c := after(s, x)
				if c.outcome.Over && c.outcome.Winner == s.toMove.seat() || !c.outcome.Over && !opponentWinsAtOnce(c) {
					t.Fatalf("n=%d %v %s to move: evaluate says lost to a double threat, but %s holds",
						n, s.cells.rows(s.geo), s.toMove.name(), s.geo.names[x])
				}
			}
		}
	}
	for n := minOrbits; n <= maxOrbits; n++ {
		if seen[n] == 0 {
			t.Errorf("n=%d: no position with a double threat among 3000", n)
		}
	}
	t.Logf("double threats seen: %v", seen)
}

// TestFreeSquaresOrder: at the parents of the leaves the table's move and
// the ply's killers come first, when free, then the other free squares in
// frame order, each free square once.
func TestFreeSquaresOrder(t *testing.T) {
	g := geometries[2]
	var occupied squares
	for _, c := range []int{0, 5, 9} {
		occupied = occupied.with(c)
	}
	tests := []struct {
		name    string
		ttMove  int
		killers [2]int8
		want    []int8
	}{
		{"none", -1, [2]int8{-1, -1}, []int8{1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14, 15}},
		{"table move", 7, [2]int8{-1, -1}, []int8{7, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15}},
		{"killers", -1, [2]int8{12, 3}, []int8{12, 3, 1, 2, 4, 6, 7, 8, 10, 11, 13, 14, 15}},
		{"table move and killers", 15, [2]int8{2, 8}, []int8{15, 2, 8, 1, 3, 4, 6, 7, 10, 11, 12, 13, 14}},
		{"killer is the table move", 4, [2]int8{4, 6}, []int8{4, 6, 1, 2, 3, 7, 8, 10, 11, 12, 13, 14, 15}},
		{"occupied killer", -1, [2]int8{5, 11}, []int8{11, 1, 2, 3, 4, 6, 7, 8, 10, 12, 13, 14, 15}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			se := &searcher{g: g, ph: g.phases, moveBuf: make([][]scoredMove, 3), killers: newKillers(3)}
			se.killers[1] = tt.killers
			var got []int8
			for _, mv := range se.freeSquares(occupied, 1, tt.ttMove) {
				got = append(got, mv.sq)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("freeSquares = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAddKiller: the newest refutation of a ply comes first, the one before
// second, and a refutation already first is not repeated.
func TestAddKiller(t *testing.T) {
	se := &searcher{killers: newKillers(2)}
	for _, c := range []int{7, 7, 3, 9} {
		se.addKiller(1, c)
	}
	if got, want := se.killers[1], [2]int8{9, 3}; got != want {
		t.Errorf("killers = %v, want %v", got, want)
	}
	if got, want := se.killers[0], [2]int8{-1, -1}; got != want {
		t.Errorf("killers of another ply = %v, want %v", got, want)
	}
}

// TestForteReadsClockOften: with a deadline the search reads the clock at
// least once every clockEvery positions plus one parent's children, and
// stops at the first read past the deadline. The clock is fake: it passes
// the deadline once the search has visited stopAt positions.
func TestForteReadsClockOften(t *testing.T) {
	const stopAt = 50_000
	rng := rand.New(rand.NewPCG(12, 12))
	for n := minOrbits; n <= maxOrbits; n++ {
		s := openingPosition(n, rng, n)
		deadline := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		se := newSearcher(s, 1<<30, deadline)
		reads, last, maxGap := 0, 0, 0
		se.now = func() time.Time {
			reads++
			maxGap = max(maxGap, se.nodes-last)
			last = se.nodes
			if se.nodes >= stopAt {
				return deadline.Add(time.Nanosecond)
			}
			return deadline
		}
		se.search(s, forteMaxDepth)
		cells := 4 * n * n
		if !se.stopped {
			t.Fatalf("n=%d: the search finished before the deadline (%d positions)", n, se.nodes)
		}
		if maxGap > clockEvery+cells {
			t.Errorf("n=%d: %d positions between two clock reads, want at most %d", n, maxGap, clockEvery+cells)
		}
		if se.nodes > stopAt+clockEvery+cells {
			t.Errorf("n=%d: stopped after %d positions, the clock passed the deadline at %d", n, se.nodes, stopAt)
		}
		if reads < stopAt/(clockEvery+cells) {
			t.Errorf("n=%d: %d clock reads in %d positions", n, reads, se.nodes)
		}
	}
}
