package queens

import (
	"fmt"
	"testing"
)

// BenchmarkStrength plays forte against every seed bot in every modality,
// half the games as primeiro and half as segundo, with no deadline (fixed
// playout budget, so the figures are the same on any machine), and reports
// forte's win rate. Run with -benchtime=1x; the game count is
// strengthGames per modality and opponent.
//
//	go test -run '^$' -bench Strength -benchtime=1x ./engine/queens/
func BenchmarkStrength(b *testing.B) {
	const strengthGames = 100
	for _, v := range variants {
		for _, opp := range []string{LevelGulosa, LevelRoleta, LevelApressado} {
			b.Run(fmt.Sprintf("%s/vs-%s", v.id, opp), func(b *testing.B) {
				for b.Loop() {
					wins, firstWins, secondWins := 0, 0, 0
					for g := range strengthGames {
						levels, me := [2]string{LevelForte, opp}, First
						if g%2 == 1 {
							levels, me = [2]string{opp, LevelForte}, Second
						}
						res, err := PlayMatch(v.id, levels, uint64(g/2+1), nil)
						if err != nil {
							b.Fatal(err)
						}
						if res.Outcome.Winner == me {
							wins++
							if me == First {
								firstWins++
							} else {
								secondWins++
							}
						}
					}
					b.ReportMetric(100*float64(wins)/strengthGames, "win%")
					b.ReportMetric(100*float64(firstWins)/(strengthGames/2), "win%first")
					b.ReportMetric(100*float64(secondWins)/(strengthGames/2), "win%second")
				}
			})
		}
	}
}
