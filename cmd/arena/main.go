// Command arena plays the catalog's bots against each other, or a go bot
// against GNU Go, and prints the results as a markdown table. See
// docs/bots/arena.md.
//
//	go run ./cmd/arena -game go -variant 9 -a forte -b gnugo -gnugo-level 10 -games 100 -movetime 1s
//	go run ./cmd/arena -game orbito -variant 4 -a normal -b facil -games 50
//	go run ./cmd/arena -game 2048 -variant solo -a guloso -games 200
//	go run ./cmd/arena -game queens -torneio -games 5
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/tools/arena"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "arena:", err)
		}
		os.Exit(2)
	}
}

// run parses the flags, plays and prints the table on stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg arena.Config
	fs.StringVar(&cfg.Game, "game", "go", "game id: orbito, morris, go, 2048, queens")
	fs.StringVar(&cfg.Variant, "variant", "", "variant id (default: the game's first; with -torneio, every variant)")
	fs.StringVar(&cfg.A, "a", "", "level of side A (required)")
	fs.StringVar(&cfg.B, "b", "", "level of side B, or gnugo (go only); not used by one-seat games")
	fs.IntVar(&cfg.Games, "games", 10, "games to play (with -torneio: games per pairing with each level first)")
	fs.IntVar(&cfg.First, "first", 0, "index of the first game: game i is the same in every run with the same -seed, so -first 100 -games 100 plays the second half of a 200-game match")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the games' chance, the bots' random sources and the openings")
	fs.DurationVar(&cfg.MoveTime, "movetime", time.Second, "each bot's deadline per move (0: none, budgets only)")
	fs.IntVar(&cfg.Openings, "openings", 0, "random legal plies before the bots take over (each opening is played with both seat assignments)")
	fs.IntVar(&cfg.MaxPlies, "max-plies", 0, "plies after which a game is a draw (0: automatic)")
	fs.IntVar(&cfg.Parallel, "parallel", 1, "games played at the same time")
	fs.StringVar(&cfg.GnuGoPath, "gnugo-path", arena.DefaultGnuGoPath, "GNU Go executable")
	fs.IntVar(&cfg.GnuGoLevel, "gnugo-level", 10, "GNU Go --level (0-10)")
	progress := fs.Bool("progress", false, "print a line per finished game on stderr")
	records := fs.Bool("records", false, "print every game's moves after the table")
	torneio := fs.Bool("torneio", false, "round robin of every level of -game (the seed's queens torneio)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *progress {
		var mu sync.Mutex
		cfg.Progress = func(g arena.Game) {
			mu.Lock()
			defer mu.Unlock()
			tile := ""
			if g.MaxTile > 0 {
				tile = fmt.Sprintf(", largest tile %d", g.MaxTile)
			}
			fmt.Fprintf(stderr, "game %d: A seat %d, winner seat %d, %s, scores %v%s, GNU Go %q, %d plies: %s\n",
				g.Index, g.ASeat, g.Winner, g.Reason, g.Scores, tile, g.Referee, g.Plies, strings.Join(g.Moves, " "))
		}
	}
	cat := games.Catalog()
	if *torneio {
		t, err := arena.RunTorneio(ctx, cat, cfg)
		if err != nil {
			return err
		}
		return t.Markdown(stdout)
	}
	if cfg.A == "" {
		return errors.New("-a LEVEL is required (and -b LEVEL for two-seat games)")
	}
	m, err := arena.Run(ctx, cat, cfg)
	if m == nil {
		return err
	}
	// An interrupted match (Ctrl-C) still prints the finished games.
	if merr := m.Markdown(stdout); merr != nil {
		return merr
	}
	if err != nil {
		return err
	}
	if *records {
		fmt.Fprintln(stdout)
		return m.Records(stdout)
	}
	return nil
}
