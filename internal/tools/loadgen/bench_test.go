package loadgen

import (
	"context"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// benchRun runs cfg against the server in this process, so that
// -cpuprofile sees the server's hot path (and the load generator's, which
// pprof -focus separates). Each iteration is one whole run.
func benchRun(b *testing.B, cfg Config) {
	s := testserver.Start(b)
	cfg.URL = s.WSURL
	cfg.Settle = 100 * time.Millisecond
	for b.Loop() {
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if rep.ErrorCount() != 0 {
			b.Fatalf("errors: %v", rep.Errors)
		}
		if rep.LastSpectator.N > 0 {
			b.ReportMetric(float64(rep.LastSpectator.P99)/1e6, "last-spectator-p99-ms")
		}
		b.ReportMetric(rep.MovesPerSec, "moves/s")
		b.ReportMetric(float64(rep.Mover.P99)/1e6, "mover-p99-ms")
	}
}

// BenchmarkFanout2000: one go 19x19 room, 2,000 spectators, 20 moves.
//
//	go test -run '^$' -bench Fanout2000 -benchtime 1x -cpuprofile /tmp/fanout.prof ./internal/tools/loadgen
func BenchmarkFanout2000(b *testing.B) {
	benchRun(b, Config{Mode: "fanout", Spectators: 2000, Moves: 20, Gap: 50 * time.Millisecond, Jitter: 50 * time.Millisecond, Patch: true})
}

// BenchmarkRooms200: 200 go 19x19 rooms of two players for 10 s.
//
//	go test -run '^$' -bench Rooms200 -benchtime 1x -cpuprofile /tmp/rooms.prof ./internal/tools/loadgen
func BenchmarkRooms200(b *testing.B) {
	benchRun(b, Config{Mode: "rooms", Rooms: 200, Duration: 10 * time.Second, Patch: true})
}
