// Command loadgen puts load on a Tabuleiro server through its public
// WebSocket protocol (docs/protocol.md) and reports what it measured:
// connections held, moves per second, latency from a move being sent to its
// state arriving at the mover, the opponent and the last spectator
// (p50/p90/p99/max), bytes received per move per client, errors by code and
// the server's memory. docs/PERFORMANCE.md has the figures and commands.
//
// Usage:
//
//	loadgen -mode fanout -url ws://127.0.0.1:8080/ws -spectators 2000 -moves 20 -pid PID
//	loadgen -mode rooms -rooms 200 -duration 20s -spawn "./lobby -rate 1000 -burst 2000"
//	loadgen -mode bots -rooms 50 -game orbito -variant 2 -level facil
//	loadgen -mode reconnect -conns 10000
//	loadgen -mode idle -conns 20000 -sources 4 -pid PID
//	loadgen -mode rooms -rooms 200 -duration 10s -cpuprofile /tmp/loadgen.prof
//	loadgen -mode signins -game go -variant 9 -level facil -moves 40 -flood 50 -spawn "./lobby -trusted-proxy 127.0.0.1/32"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/tools/loadgen"
)

func main() {
	var cfg loadgen.Config
	fs := flag.NewFlagSet("loadgen", flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `loadgen drives a Tabuleiro server through its public WebSocket protocol.

Modes:
  fanout     one room (go 19x19 by default), two players and -spectators watching; the
             players alternate -moves moves, each one after the previous reached
             everyone, plus -gap and a random part up to -jitter. Reports the latency
             from the move being sent to its state at the mover, the opponent and the
             LAST spectator (one sample per move), and bytes per move per spectator.
  rooms      -rooms rooms of two players (plus -spectators each) moving as fast as turns
             allow, or at an aggregate -rate, for -duration; a finished game is followed
             by a rematch.
  bots       -rooms rooms of one player against the server's bot (-level).
  reconnect  -conns clients seated in pairs drop at once and come back at once with their
             tokens; reports the time until every one has its room.state again.
  idle       hold -conns connections (hello only) for -duration; with -pid or -spawn
             reports the server's VmRSS before and after, per connection.
  signins    one person plays the server's bot (-game, -variant, -level) for -moves moves,
             then -moves more while -flood sign-ins with wrong passwords are sent at once
             (POST /api/session, a name and an X-Forwarded-For address of their own each:
             start the server with -trusted-proxy 127.0.0.1/32); reports the bot's reply
             time in each phase and their ratio (target: at most 1.5). With -flood-right
             the flood signs in to one account with its right password from one address
             while others sign in to their own accounts, each from an address of its own;
             reports the others' share of successes and times (target: 95%%, within 2 s).

Moves are legal moves taken from the room's "legal" list, never a pass: on go the k-th
move of a room goes on point k mod size² (row-major from A1) or the next legal point,
as in the Colyseus benchmark. The last line is "SUMMARY mode key=value ...".

Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.Mode, "mode", "fanout", "workload: "+strings.Join(loadgen.Modes, ", "))
	fs.StringVar(&cfg.URL, "url", "ws://127.0.0.1:8080/ws", "the server's WebSocket endpoint, or several nodes' comma-separated (see -spread); ignored with -spawn")
	fs.StringVar(&cfg.Spread, "spread", "conn", "with several -url: conn puts connection k on node k mod n (fanout: the players on nodes 0 and 1, spectators alternating); room puts every connection of room i on node i mod n (rooms, bots)")
	spawn := fs.String("spawn", "", "start this server command line (e.g. \"./lobby -rate 1000\") on a free port with -addr, measure its memory and CPU, stop it at the end")
	fs.IntVar(&cfg.PID, "pid", 0, "the server's process id, to read its VmRSS and CPU time from /proc (set by -spawn)")
	fs.IntVar(&cfg.Spectators, "spectators", 0, "fanout: spectators of the room; rooms and bots: spectators per room")
	fs.IntVar(&cfg.Rooms, "rooms", 200, "rooms and bots: rooms")
	fs.IntVar(&cfg.Conns, "conns", 1000, "idle and reconnect: connections")
	fs.IntVar(&cfg.Moves, "moves", 20, "fanout: moves to play, 0 plays until -duration (soak); signins: moves in each phase")
	fs.DurationVar(&cfg.Duration, "duration", 20*time.Second, "rooms and bots: the measured window; fanout with -moves 0 and idle: how long to go on (soak)")
	fs.DurationVar(&cfg.Gap, "gap", 50*time.Millisecond, "fanout: pause after a move reached everyone")
	fs.DurationVar(&cfg.Jitter, "jitter", 50*time.Millisecond, "fanout: add a uniform random pause up to this")
	fs.Float64Var(&cfg.Rate, "rate", 0, "rooms and bots: aggregate moves a second the players aim at, each room moving every -rooms/-rate seconds on average (0: as fast as turns allow)")
	fs.StringVar(&cfg.Game, "game", "go", "game of the rooms")
	fs.StringVar(&cfg.Variant, "variant", "", "variant of the rooms (default 19 for go)")
	fs.StringVar(&cfg.Level, "level", "", "bots: bot level (default the game's first)")
	fs.BoolVar(&cfg.Patch, "patch", true, "ask for compact room.patch frames (hello feature \"patch\"); false takes the full room.state after every change")
	fs.BoolVar(&cfg.Compress, "compress", false, "offer permessage-deflate (the server uses it when started with -compress); byte counts are then measured on the wire")
	fs.IntVar(&cfg.Sources, "sources", 1, "spread connections over source addresses 127.0.0.1..127.0.0.N (loopback servers), when ephemeral ports run out above ~28,000 connections")
	fs.IntVar(&cfg.JoinConcurrency, "join-concurrency", 64, "connections being set up at once")
	fs.IntVar(&cfg.Flood, "flood", loadgen.DefaultFlood, "signins: sign-ins with wrong passwords sent at once during the second phase")
	fs.BoolVar(&cfg.FloodRight, "flood-right", false, "signins: the flood signs in to one account with its right password from one address, while others sign in to their own accounts from addresses of their own; reports the others' share of successes and times (target: 95%, within 2 s)")
	fs.IntVar(&cfg.StormConcurrency, "storm-concurrency", 0, "reconnect: clients reconnecting at once (0: all of them)")
	fs.DurationVar(&cfg.Settle, "settle", time.Second, "pause before each memory reading and before the moves")
	fs.DurationVar(&cfg.MoveTimeout, "move-timeout", 30*time.Second, "fanout: give up when a move has not reached everyone after this; reconnect: count a client as not seated when its room.state has not come after this")
	quiet := fs.Bool("q", false, "no progress lines")
	cpuprofile := fs.String("cpuprofile", "", "write the load generator's own CPU profile (the whole run, setup included) to this file, for go tool pprof")
	_ = fs.Parse(os.Args[1:])
	if !*quiet {
		cfg.Log = os.Stderr
	}
	if err := profiled(*cpuprofile, func() error { return run(cfg, *spawn) }); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// profiled runs f, with a CPU profile written to path when path is not
// empty.
func profiled(path string, f func() error) error {
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return fmt.Errorf("cpu profile: %w", err)
	}
	err = f()
	pprof.StopCPUProfile()
	if cerr := out.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("cpu profile: %w", cerr)
	}
	return err
}

func run(cfg loadgen.Config, spawn string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	limit, err := loadgen.RaiseFileLimit()
	if err != nil {
		return err
	}
	need := uint64(cfg.Spectators + 100)
	switch cfg.Mode {
	case "idle", "reconnect":
		need = uint64(cfg.Conns + 100)
	case "rooms", "bots":
		need = uint64(cfg.Rooms*(2+cfg.Spectators) + 100)
	}
	if limit < need {
		fmt.Fprintf(os.Stderr, "loadgen: warning: open-file limit %d is below the %d connections asked for\n", limit, need)
	}
	if spawn != "" {
		srv, err := loadgen.Spawn(ctx, strings.Fields(spawn))
		if err != nil {
			return err
		}
		defer srv.Stop()
		cfg.URL, cfg.PID = srv.URL, srv.PID
	}
	rep, err := loadgen.Run(ctx, cfg)
	if rep != nil {
		rep.Print(os.Stdout)
	}
	if err != nil {
		return err
	}
	if n := rep.ErrorCount(); n > 0 {
		return fmt.Errorf("%d errors", n)
	}
	return nil
}
