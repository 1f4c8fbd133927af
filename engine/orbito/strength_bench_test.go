package orbito

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// chooser is a level's choice with its budget fixed.
type chooser func(s *state) int

// forteWithNodes is forte with a node budget and no deadline: deterministic.
func forteWithNodes(nodes int) chooser {
	return func(s *state) int {
		sq, _, _ := searchMove(s, nodes, forteMaxDepth, time.Time{})
		return sq
	}
}

func seedChooser(name string) chooser {
	for _, l := range levels {
		if l.id == name {
			return func(s *state) int { return l.choose(s, nil, noDeadline) }
		}
	}
	panic("no level " + name)
}

// playFrom plays the game s to its end, players[seat] choosing for seat,
// and returns the winning seat (-1 for a draw).
func playFrom(s *state, players [2]chooser) int {
	for !s.outcome.Over {
		s.play(players[s.toMove.seat()](s))
	}
	return s.outcome.Winner
}

// openingPosition plays plies uniformly random moves from the empty board
// of Orbito-n, retrying until the game is not over.
func openingPosition(n int, rng *rand.Rand, plies int) *state {
	for {
		s := randomPosition(n, rng, plies)
		if !s.outcome.Over {
			return s
		}
	}
}

// matchStats is forte's record in a match.
type matchStats struct{ games, wins, draws, losses, winsFirst, winsSecond int }

// match plays games games of Orbito-n between a and b from random openings
// of plies plies, each opening twice with the seats swapped; a's record.
func match(n, games, plies int, a, b chooser, seed uint64) matchStats {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var st matchStats
	for g := 0; g < games; g += 2 {
		open := openingPosition(n, rng, plies)
		for aSeat := range 2 {
			players := [2]chooser{a, b}
			if aSeat == 1 {
				players = [2]chooser{b, a}
			}
			s := open.Clone().(*state)
			w := playFrom(s, players)
			st.games++
			// aSeat is a's seat counted from black; the opening may
			// leave either colour to move, which does not matter here.
			switch w {
			case -1:
				st.draws++
			case aSeat:
				st.wins++
				if aSeat == 0 {
					st.winsFirst++
				} else {
					st.winsSecond++
				}
			default:
				st.losses++
			}
		}
	}
	return st
}

// BenchmarkStrength plays forte (a fixed node budget, so the figures do
// not depend on the machine) against the seed's levels on every variant
// from random openings, each opening with both seat assignments, and
// reports forte's win, draw and loss rates.
//
//	go test -run '^$' -bench Strength -benchtime=1x ./engine/orbito/
func BenchmarkStrength(b *testing.B) {
	const games, plies = 40, 2
	for n := minOrbits; n <= maxOrbits; n++ {
		for _, opp := range []string{"normal", "facil"} {
			b.Run(fmt.Sprintf("%s/vs-%s", strconv.Itoa(n), opp), func(b *testing.B) {
				for b.Loop() {
					st := match(n, games, plies, forteWithNodes(strengthNodes), seedChooser(opp), 1)
					b.ReportMetric(100*float64(st.wins)/float64(st.games), "win%")
					b.ReportMetric(100*float64(st.draws)/float64(st.games), "draw%")
					b.ReportMetric(100*float64(st.losses)/float64(st.games), "loss%")
					b.ReportMetric(100*float64(st.winsFirst)/float64(st.games/2), "win%black")
					b.ReportMetric(100*float64(st.winsSecond)/float64(st.games/2), "win%white")
				}
			})
		}
	}
}

// strengthNodes is forte's node budget in BenchmarkStrength.
const strengthNodes = 200_000
