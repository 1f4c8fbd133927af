//go:build unix

package g2048

import (
	"syscall"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// processCPU is the CPU time of the process so far, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkForteGame plays b.N whole solo games of level forte (seeds 0,
// 1, ...; -benchtime 20x plays 20 games) and reports the mean score, the
// share of games reaching 8192 and 16384, and the time a move: ms/move is
// the bot's wall-clock time (what a deadline sees, load included),
// cpu-ms/move the process's CPU time over the games (the engine's moves
// included, a small part), which the load of a shared machine does not
// inflate.
func BenchmarkForteGame(b *testing.B) {
	bot := enginetest.Bot(b, Game(), LevelForte)
	var games, score, reach8192, reach16384, moves int
	var thinking time.Duration
	cpu := processCPU(b)
	for b.Loop() {
		s := newState(b, VariantSolo, "", uint64(games))
		for !s.Outcome().Over {
			start := time.Now()
			m, err := bot(s.Clone(), 0, nil, start.Add(2*time.Second))
			thinking += time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Apply(0, m); err != nil {
				b.Fatal(err)
			}
			moves++
		}
		g := s.boards[0].grid
		score += g.score
		if g.maxTileValue() >= 8192 {
			reach8192++
		}
		if g.maxTileValue() >= 16384 {
			reach16384++
		}
		games++
	}
	cpu = processCPU(b) - cpu
	b.ReportMetric(float64(score)/float64(games), "score/game")
	b.ReportMetric(float64(reach8192)/float64(games), "reach8192")
	b.ReportMetric(float64(reach16384)/float64(games), "reach16384")
	b.ReportMetric(float64(thinking.Microseconds())/1000/float64(moves), "ms/move")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(moves), "cpu-ms/move")
	b.ReportMetric(float64(moves)/float64(games), "moves/game")
}
