package orbito

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// randomPosition plays random legal moves from the empty Orbito-n board
// until the game ends or plies moves have been played.
func randomPosition(n int, rng *rand.Rand, plies int) *state {
	s := newState(geometries[n], strconv.Itoa(n), make(board, 4*n*n), black)
	for range plies {
		if s.outcome.Over {
			break
		}
		legal := s.Legal(s.toMove.seat())
		if err := s.Apply(s.toMove.seat(), legal[rng.IntN(len(legal))]); err != nil {
			panic(err)
		}
	}
	return s
}

// TestRandomGames plays thousands of random games to the end, checking the
// turn invariants after every move and that every game ends by the time the
// board is full.
func TestRandomGames(t *testing.T) {
	games := map[int]int{2: 2000, 3: 600, 4: 200, 5: 100}
	rng := rand.New(rand.NewPCG(1, 2))
	reasons := map[string]int{}
	for n := minOrbits; n <= maxOrbits; n++ {
		for range games[n] {
			s := randomPosition(n, rng, 0)
			for ply := 0; !s.outcome.Over; ply++ {
				if ply >= 4*n*n {
					t.Fatalf("Orbito-%d: not over after %d plies: %q", n, ply, s.cells.rows(s.geo))
				}
				seat := s.toMove.seat()
				legal := s.Legal(seat)
				if got, want := len(legal), s.cells.count(empty); got != want {
					t.Fatalf("Orbito-%d: %d legal moves, want one a free square (%d)", n, got, want)
				}
				move := legal[rng.IntN(len(legal))]
				before := s.Clone()
				if err := s.Apply(seat, move); err != nil {
					t.Fatalf("Orbito-%d: legal %s refused: %v", n, move, err)
				}
				checkTurnInvariants(t, before, s, seat, move)
			}
			reasons[s.outcome.Reason]++
		}
	}
	// Random play reaches every ending; a rules change that made one of
	// them impossible would show here.
	for _, r := range []string{ReasonLine, ReasonBothLines, ReasonBoardFull} {
		if reasons[r] == 0 {
			t.Errorf("no random game ended by %q (endings: %v)", r, reasons)
		}
	}
}

// seedRun is verifica_linha_pedras written as the seed words it, apart from
// the engine: true when a line through p holds at least l consecutive
// stones of j, p's included.
func seedRun(g *geometry, t board, p int, j stone, l int) bool {
	if t[p] != j {
		return false
	}
	r, c := p/g.size, p%g.size
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		count := 1
		for _, sign := range []int{1, -1} {
			rr, cc := r+sign*d[0], c+sign*d[1]
			for rr >= 0 && rr < g.size && cc >= 0 && cc < g.size && t[rr*g.size+cc] == j {
				count++
				rr, cc = rr+sign*d[0], cc+sign*d[1]
			}
		}
		if count >= l {
			return true
		}
	}
	return false
}

// seedFree lists the free squares in reading order, sorting them by orbit,
// then row, then column.
func seedFree(g *geometry, t board) []int {
	var free []int
	for p := range t {
		if t[p] == empty {
			free = append(free, p)
		}
	}
	slices.SortStableFunc(free, func(a, b int) int { return g.orbit[a] - g.orbit[b] })
	return free
}

// seedFacil is the seed's easy strategy done the slow way: copy the board,
// place, rotate, look around.
func seedFacil(s *state) int {
	g, me := s.geo, s.toMove
	free := seedFree(g, s.cells)
	for _, p := range free {
		t := append(board(nil), s.cells...)
		t[p] = me
		t = t.rotate(g)
		q := g.next[p]
		r, c := q/g.size, q%g.size
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := r+dr, c+dc
				if (dr != 0 || dc != 0) && rr >= 0 && rr < g.size && cc >= 0 && cc < g.size && t[rr*g.size+cc] == me {
					return p
				}
			}
		}
	}
	return free[0]
}

// seedNormal is the seed's normal strategy done the slow way: for L from k
// down, the first square giving the player L in a row after its turn, else
// the first square where the opponent would get L after its next turn.
func seedNormal(s *state) int {
	g, me, opp := s.geo, s.toMove, s.toMove.opponent()
	free := seedFree(g, s.cells)
	for l := g.k; l >= 1; l-- {
		for _, p := range free {
			t := append(board(nil), s.cells...)
			t[p] = me
			t = t.rotate(g)
			if seedRun(g, t, g.next[p], me, l) {
				return p
			}
		}
		for _, p := range free {
			t := s.cells.rotate(g)
			q := g.next[p]
			t[q] = opp
			t = t.rotate(g)
			if seedRun(g, t, g.next[q], opp, l) {
				return p
			}
		}
	}
	panic("no free square")
}

// TestBotsMatchSeedWording compares the bots with literal transcriptions of
// the seed's strategies on thousands of random positions of every size, and
// checks that they answer a legal move without changing the state.
func TestBotsMatchSeedWording(t *testing.T) {
	positions := map[int]int{2: 1500, 3: 600, 4: 250, 5: 120}
	refs := map[string]func(*state) int{"facil": seedFacil, "normal": seedNormal}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := minOrbits; n <= maxOrbits; n++ {
		for range positions[n] {
			s := randomPosition(n, rng, rng.IntN(4*n*n))
			if s.outcome.Over {
				continue
			}
			before, _ := s.MarshalJSON()
			for level, ref := range refs {
				bot, _ := Game().Bot(level)
				got, err := bot(s, s.toMove.seat(), nil, noDeadline)
				if err != nil {
					t.Fatalf("%s on %q: %v", level, s.cells.rows(s.geo), err)
				}
				if want := s.geo.names[ref(s)]; got != want {
					t.Fatalf("%s for %s on %q = %s, want %s", level, s.toMove.name(), s.cells.rows(s.geo), got, want)
				}
				if !slices.Contains(s.Legal(s.toMove.seat()), got) {
					t.Fatalf("%s answered %s, not a legal move", level, got)
				}
				if after, _ := s.MarshalJSON(); string(after) != string(before) {
					t.Fatalf("%s changed the state", level)
				}
			}
		}
	}
}

// TestNormalTakesWinsAndBlocks checks the consequences of the normal
// strategy that a player would notice: it completes a line when it can, and
// otherwise it takes the square the opponent needs to complete one.
func TestNormalTakesWinsAndBlocks(t *testing.T) {
	normal, _ := Game().Bot("normal")
	rng := rand.New(rand.NewPCG(5, 6))
	var wins, blocks int
	for range 3000 {
		n := 2 + rng.IntN(2)
		s := randomPosition(n, rng, rng.IntN(4*n*n))
		if s.outcome.Over {
			continue
		}
		me := s.toMove
		canWin, oppWins := false, false
		for _, sq := range s.geo.reading {
			if s.cells[sq] != empty {
				continue
			}
			c := s.Clone().(*state)
			c.play(sq)
			canWin = canWin || c.cells.hasLine(c.geo, me)
		}
		move, _ := normal(s, me.seat(), nil, noDeadline)
		c := s.Clone().(*state)
		if err := c.Apply(me.seat(), move); err != nil {
			t.Fatal(err)
		}
		if canWin {
			wins++
			if !c.cells.hasLine(c.geo, me) {
				t.Fatalf("normal missed a win on %q with %s: played %s", s.cells.rows(s.geo), me.name(), move)
			}
			continue
		}
		// Without a win of its own, after normal's move the opponent must
		// not have a square that completes a line when normal could have
		// denied it by taking that square.
		if c.outcome.Over {
			continue
		}
		for _, sq := range s.geo.reading {
			if s.cells[sq] != empty {
				continue
			}
			o := s.Clone().(*state)
			o.cells = o.cells.rotate(o.geo)
			o.toMove = me.opponent()
			q := o.geo.next[sq]
			o.play(q)
			oppWins = oppWins || o.cells.hasLine(o.geo, me.opponent())
		}
		if oppWins {
			blocks++
			threat := s.Clone().(*state)
			threat.cells = threat.cells.rotate(threat.geo)
			sq, _ := s.geo.parseSquare(move)
			threat.toMove = me.opponent()
			threat.play(threat.geo.next[sq])
			if !threat.cells.hasLine(threat.geo, me.opponent()) {
				t.Fatalf("normal did not block on %q with %s: played %s", s.cells.rows(s.geo), me.name(), move)
			}
		}
	}
	if wins == 0 || blocks == 0 {
		t.Errorf("random positions gave %d wins and %d blocks to check; want some of each", wins, blocks)
	}
}
