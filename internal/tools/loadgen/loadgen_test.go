package loadgen

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// smoke runs one short workload against the real server started in-process
// and checks the report: no errors, every connection still held. Timings
// are printed by -v, never asserted.
func smoke(t *testing.T, cfg Config, edit ...func(*server.Config)) *Report {
	t.Helper()
	s := testserver.Start(t, append([]func(*server.Config){func(c *server.Config) { c.Hub.Compression = cfg.Compress }}, edit...)...)
	cfg.URL = s.WSURL
	cfg.Settle = 10 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Mode, err)
	}
	var out strings.Builder
	rep.Print(&out)
	t.Log(out.String())
	if n := rep.ErrorCount(); n != 0 {
		t.Fatalf("%s: %d errors: %v", cfg.Mode, n, rep.Errors)
	}
	return rep
}

// TestSmokeFanout: 300 spectators watch 10 moves on 19x19; every move
// reached both players and every spectator (the run fails otherwise), with
// patches and with full states.
func TestSmokeFanout(t *testing.T) {
	for _, patch := range []bool{true, false} {
		n := 300
		if !patch {
			n = 60 // every spectator joining is a full state to every member
		}
		rep := smoke(t, Config{Mode: "fanout", Spectators: n, Moves: 10, Patch: patch, JoinConcurrency: 32})
		if rep.Moves != 10 || rep.LastSpectator.N != 10 || rep.Spectator.N != uint64(10*n) || rep.Conns != n+2 {
			t.Fatalf("patch %v: %d moves, %d last-spectator samples, %d deliveries, %d connections; want 10, 10, %d, %d",
				patch, rep.Moves, rep.LastSpectator.N, rep.Spectator.N, rep.Conns, 10*n, n+2)
		}
		if patch && rep.BytesPerMove["spectator"] >= rep.BytesPerMove["player"] {
			t.Errorf("with patches a spectator got %.0f bytes a move, a player %.0f: spectators need no legal moves",
				rep.BytesPerMove["spectator"], rep.BytesPerMove["player"])
		}
	}
}

// TestSmokeFanoutCompressed: the same with permessage-deflate; the bytes
// on the wire per spectator stay under those of the uncompressed payload.
// Full states (no patches), which deflate to about a third: small patch
// frames gain little, and the spectator-count updates that reach patch
// clients depend on timing, so their byte counts are no fair comparison.
func TestSmokeFanoutCompressed(t *testing.T) {
	plain := smoke(t, Config{Mode: "fanout", Spectators: 40, Moves: 10})
	comp := smoke(t, Config{Mode: "fanout", Spectators: 40, Moves: 10, Compress: true})
	if comp.Spectator.N != 400 || comp.BytesPerMove["spectator"] >= plain.BytesPerMove["spectator"] {
		t.Fatalf("compressed: %d deliveries, %.0f bytes a move per spectator (uncompressed %.0f)",
			comp.Spectator.N, comp.BytesPerMove["spectator"], plain.BytesPerMove["spectator"])
	}
}

// TestSmokeRooms: 100 rooms of two players and one spectator each move for
// two seconds; every move of the window reached its mover and its opponent.
func TestSmokeRooms(t *testing.T) {
	rep := smoke(t, Config{Mode: "rooms", Rooms: 100, Spectators: 1, Duration: 2 * time.Second, Game: "go", Variant: "9", Patch: true})
	if rep.Moves == 0 || rep.Conns != 300 {
		t.Fatalf("%d moves, %d connections; want some and 300", rep.Moves, rep.Conns)
	}
	// Each move is seen by the opponent too (the last ones may land after
	// the window closes, so the opponent counts at least all but one per room).
	if rep.Opponent.N+100 < uint64(rep.Moves) {
		t.Fatalf("opponents saw %d moves of %d", rep.Opponent.N, rep.Moves)
	}
}

// TestSmokeRoomsPaced: with a Rate the rooms move no faster than asked. 20
// rooms at 50 moves a second for two seconds make about 100 moves; a slow
// machine makes fewer, never more, so only the upper bound is checked (with
// room for the 1.5x jitter of each room's first and last intervals).
// Unpaced, the same rooms make thousands.
func TestSmokeRoomsPaced(t *testing.T) {
	const rooms, rate = 20, 50.0
	window := 2 * time.Second
	rep := smoke(t, Config{Mode: "rooms", Rooms: rooms, Duration: window, Rate: rate, Game: "go", Variant: "9", Patch: true})
	if most := int64(rate*window.Seconds()) + 2*rooms; rep.Moves == 0 || rep.Moves > most {
		t.Fatalf("%d moves at %g moves a second for %v; want some and at most %d", rep.Moves, rate, window, most)
	}
	if rep.Opponent.N+rooms < uint64(rep.Moves) {
		t.Fatalf("opponents saw %d moves of %d", rep.Opponent.N, rep.Moves)
	}
}

// TestSmokeBotsReconnectIdle: the three other modes run clean.
func TestSmokeBotsReconnectIdle(t *testing.T) {
	rep := smoke(t, Config{Mode: "bots", Rooms: 20, Duration: time.Second, Game: "orbito", Variant: "2", Level: "facil"})
	if rep.Moves == 0 || rep.Opponent.N == 0 {
		t.Fatalf("bots: %d moves, %d bot answers", rep.Moves, rep.Opponent.N)
	}
	rep = smoke(t, Config{Mode: "reconnect", Conns: 200, Game: "go", Variant: "9"})
	if rep.Seated.N != 200 || rep.Conns != 200 {
		t.Fatalf("reconnect: %d seated again, %d held; want 200", rep.Seated.N, rep.Conns)
	}
	rep = smoke(t, Config{Mode: "idle", Conns: 200})
	if rep.Conns != 200 {
		t.Fatalf("idle: %d held, want 200", rep.Conns)
	}
}

// TestSmokeSignins: the sign-in flood's scenario runs clean against a
// server that trusts the load generator as a proxy: both phases measured,
// every flood request answered 401 (hashed, never refused by a limit).
func TestSmokeSignins(t *testing.T) {
	rep := smoke(t, Config{Mode: "signins", Moves: 4, Flood: 4, Game: "orbito", Variant: "2", Level: "facil"},
		func(c *server.Config) { c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")} })
	if rep.BotQuiet.N != 4 || rep.BotFlood.N != 4 || rep.BotRatio() <= 0 {
		t.Fatalf("signins: %d quiet and %d flood replies, ratio %.2f", rep.BotQuiet.N, rep.BotFlood.N, rep.BotRatio())
	}
	if rep.SignIns["401"] == 0 || len(rep.SignIns) != 1 {
		t.Fatalf("signins: the flood's answers %v, want 401s only", rep.SignIns)
	}
}

// TestSmokeSigninsFloodRight: the flood of right sign-ins to one account
// from one address (issue 33) runs, is refused past the limits, and the
// others' sign-ins are measured.
func TestSmokeSigninsFloodRight(t *testing.T) {
	rep := smoke(t, Config{Mode: "signins", Moves: 4, Flood: 8, FloodRight: true, Game: "orbito", Variant: "2", Level: "facil"},
		func(c *server.Config) { c.HTTP.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")} })
	if rep.Others.N == 0 || rep.OthersOK == 0 {
		t.Fatalf("signins -flood-right: %d others' sign-ins, %d ok", rep.Others.N, rep.OthersOK)
	}
	if rep.SignIns["429"] == 0 {
		t.Fatalf("signins -flood-right: the flood's answers %v, want some 429s", rep.SignIns)
	}
}
