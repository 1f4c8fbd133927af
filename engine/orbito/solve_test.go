package orbito

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// tableValue maps a stored value to +1, 0, -1 for the side to move.
func tableValue(v uint8) int {
	switch v {
	case valueWin:
		return 1
	case valueDraw:
		return 0
	case valueLoss:
		return -1
	}
	panic(fmt.Sprintf("value %d is not a solved position", v))
}

// TestSolvedTable is the solver's exhaustive check and the game's value:
// every position (about nine million: every board with counts play can
// reach and no line) holds a value equal to the best of its children's,
// no other index holds one; the empty board is a win for black, and only
// an opening on one of the four inner squares keeps it (white wins
// nothing: every other opening is a draw).
func TestSolvedTable(t *testing.T) {
	t.Parallel()
	tb := solved2()
	checked, bad, ok := tb.verify()
	if !ok {
		t.Fatalf("table inconsistent at index %d after %d positions", bad, checked)
	}
	total := tb.positions[valueWin] + tb.positions[valueDraw] + tb.positions[valueLoss]
	if checked != total || checked < 9_000_000 {
		t.Errorf("checked %d positions, solved %d; want the same, over nine million", checked, total)
	}
	t.Logf("%d positions: %d won, %d drawn, %d lost for the side to move",
		total, tb.positions[valueWin], tb.positions[valueDraw], tb.positions[valueLoss])
	s, err := Game().New("2", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	empty := s.(*state)
	if v := perfectValue(tb, empty); v != valueWin {
		t.Errorf("empty board: value %d for black, want a win", v)
	}
	inner := map[string]bool{"b2": true, "c2": true, "b3": true, "c3": true}
	for _, sq := range empty.geo.reading {
		c := empty.Clone().(*state)
		c.play(sq)
		name := empty.geo.names[sq]
		want := valueDraw // for white, to move
		if inner[name] {
			want = valueLoss
		}
		if got := perfectValue(tb, c); got != want {
			t.Errorf("black opens %s: value %d for white, want %d", name, got, want)
		}
	}
}

// TestSolvedTableMatchesRules: the table agrees with plain minimax over the
// engine's rules on endgames, with either colour to move and either colour
// having started (a setup may give white the first move).
func TestSolvedTableMatchesRules(t *testing.T) {
	tb := solved2()
	seen := map[int]int{}
	for i, s := range endgames(2, 5, 300, 3) {
		for _, swap := range []bool{false, true} {
			p := s
			if swap {
				p = s.Clone().(*state)
				for sq, c := range p.cells {
					if c != empty {
						p.cells[sq] = c.opponent()
					}
				}
				p.toMove = p.toMove.opponent()
			}
			want := minimaxValue(p)
			if got := tableValue(perfectValue(tb, p)); got != want {
				t.Fatalf("position %d (swapped %v) %v %s to move: table %d, minimax %d", i, swap, p.cells.rows(p.geo), p.toMove.name(), got, want)
			}
			seen[want]++
		}
	}
	if seen[1] == 0 || seen[0] == 0 || seen[-1] == 0 {
		t.Errorf("values seen %v, want wins, draws and losses", seen)
	}
}

// TestPerfeitoKeepsItsValue plays perfeito against normal and facil from
// random openings, in both seats: after each of its moves the position is
// worth, for perfeito, at least what it was worth before (a won position
// stays won, a drawn one never becomes lost), and the game ends as the
// table said at perfeito's first move: won positions are won and drawn
// ones never lost.
func TestPerfeitoKeepsItsValue(t *testing.T) {
	tb := solved2()
	perfeito := func(s *state) int { return choosePerfeito(s, nil, noDeadline) }
	rng := rand.New(rand.NewPCG(8, 8))
	results := map[string]int{}
	for _, opp := range []string{"normal", "facil"} {
		other := seedChooser(opp)
		for g := range 200 {
			open := openingPosition(2, rng, g%6)
			for seat := range 2 {
				s := open.Clone().(*state)
				players := [2]chooser{perfeito, other}
				if seat == 1 {
					players = [2]chooser{other, perfeito}
				}
				start := -2
				for !s.outcome.Over {
					if s.toMove.seat() != seat {
						s.play(players[1-seat](s))
						continue
					}
					before := tableValue(perfectValue(tb, s))
					if start == -2 {
						start = before
					}
					s.play(perfeito(s))
					if s.outcome.Over {
						break
					}
					if after := -tableValue(perfectValue(tb, s)); after < before {
						t.Fatalf("%s game %d seat %d: perfeito's move took the position from %d to %d", opp, g, seat, before, after)
					}
				}
				got := 0
				switch s.outcome.Winner {
				case seat:
					got = 1
				case 1 - seat:
					got = -1
				}
				if start == 1 && got != 1 || start == 0 && got < 0 {
					t.Fatalf("%s game %d seat %d: table value %d at perfeito's first move, result %d", opp, g, seat, start, got)
				}
				results[fmt.Sprintf("%s value %d result %d", opp, start, got)]++
			}
		}
	}
	t.Log(results)
	if results["normal value 1 result 1"] == 0 || results["normal value 0 result 0"]+results["normal value 0 result 1"] == 0 {
		t.Errorf("results %v: want won and drawn starting positions against normal", results)
	}
}

// TestPerfeitoOnLargerBoards: perfeito plays forte where the game is not
// solved.
func TestPerfeitoOnLargerBoards(t *testing.T) {
	s := endgames(3, 10, 1, 9)[0]
	bot, _ := Game().Bot("perfeito")
	mv, err := bot(s.Clone(), s.toMove.seat(), nil, noDeadline)
	if err != nil {
		t.Fatal(err)
	}
	sq, _, _ := searchMove(s, forteNodes, forteMaxDepth, noDeadline)
	if mv != s.geo.names[sq] {
		t.Errorf("perfeito on 3 orbits played %s, forte %s", mv, s.geo.names[sq])
	}
}
