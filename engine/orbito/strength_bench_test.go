package orbito

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
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
	return matchParallel(n, games, plies, a, b, seed, 1)
}

// matchParallel is match with up to workers games played at once. The
// openings are drawn in order before any game starts, so the record does
// not depend on workers when a and b are deterministic.
func matchParallel(n, games, plies int, a, b chooser, seed uint64, workers int) matchStats {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var openings []*state
	for g := 0; g < games; g += 2 {
		openings = append(openings, openingPosition(n, rng, plies))
	}
	winners := make([]int, 2*len(openings))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				aSeat := i % 2
				players := [2]chooser{a, b}
				if aSeat == 1 {
					players = [2]chooser{b, a}
				}
				winners[i] = playFrom(openings[i/2].Clone().(*state), players)
			}
		})
	}
	for i := range winners {
		next <- i
	}
	close(next)
	wg.Wait()
	var st matchStats
	for i, w := range winners {
		// aSeat is a's seat counted from black; the opening may leave
		// either colour to move, which does not matter here.
		aSeat := i % 2
		st.games++
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
	return st
}

// Flags of BenchmarkStrength, for longer matches than its default:
//
//	go test -run '^$' -bench 'Strength/5/vs-normal' -benchtime=1x ./engine/orbito/ \
//		-strength.games 80 -strength.seed 2 -strength.parallel 2
var (
	strengthGames    = flag.Int("strength.games", 40, "BenchmarkStrength: games per variant and opponent (even)")
	strengthSeed     = flag.Uint64("strength.seed", 1, "BenchmarkStrength: seed of the openings")
	strengthParallel = flag.Int("strength.parallel", 1, "BenchmarkStrength: games played at once")
	strengthNodesF   = flag.Int("strength.nodes", strengthNodes, "BenchmarkStrength: forte's positions a move")
)

// BenchmarkStrength plays forte (a fixed node budget, so the figures do
// not depend on the machine) against the seed's levels on every variant
// from random openings, each opening with both seat assignments, and
// reports forte's win, draw and loss rates.
//
//	go test -run '^$' -bench Strength -benchtime=1x ./engine/orbito/
func BenchmarkStrength(b *testing.B) {
	const plies = 2
	for n := minOrbits; n <= maxOrbits; n++ {
		for _, opp := range []string{"normal", "facil"} {
			b.Run(fmt.Sprintf("%s/vs-%s", strconv.Itoa(n), opp), func(b *testing.B) {
				for b.Loop() {
					st := matchParallel(n, *strengthGames, plies, forteWithNodes(*strengthNodesF), seedChooser(opp), *strengthSeed, *strengthParallel)
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
