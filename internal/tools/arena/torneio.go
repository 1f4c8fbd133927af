package arena

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Torneio is the seed's tournament (queens, torneio): in each variant, every
// pair of the game's levels plays cfg.Games games with each level as the
// first player, and each level's share of wins is reported.
type Torneio struct {
	Config   Config
	Levels   []string
	Variants []TorneioVariant
	Elapsed  time.Duration
}

// TorneioVariant is one variant's round robin.
type TorneioVariant struct {
	Variant string
	// Wins[i][j] and Games[i][j] are level i's wins and games against
	// level j (both seats).
	Wins, Draws, Games [][]int
}

// RunTorneio plays the round robin of every level of cfg.Game in
// cfg.Variant, or in every variant when cfg.Variant is "" or "all".
// cfg.Games is the number of games of each pairing with each level first.
func RunTorneio(ctx context.Context, cat *engine.Catalog, cfg Config) (*Torneio, error) {
	g, ok := cat.Game(cfg.Game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", cfg.Game)
	}
	info := g.Info()
	var variants []string
	for _, v := range info.Variants {
		if v.Seats != 2 {
			continue
		}
		if cfg.Variant == "" || cfg.Variant == "all" || cfg.Variant == v.ID {
			variants = append(variants, v.ID)
		}
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("game %s has no two-seat variant %q", cfg.Game, cfg.Variant)
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("games = %d, want at least 1", cfg.Games)
	}
	t := &Torneio{Config: cfg}
	for _, l := range info.Levels {
		t.Levels = append(t.Levels, l.ID)
	}
	if len(t.Levels) < 2 {
		return nil, fmt.Errorf("game %s has %d levels, a tournament needs 2", cfg.Game, len(t.Levels))
	}
	start := time.Now()
	n := len(t.Levels)
	for _, variant := range variants {
		tv := TorneioVariant{Variant: variant, Wins: square(n), Draws: square(n), Games: square(n)}
		for i := range n {
			for j := i + 1; j < n; j++ {
				pc := cfg
				pc.Variant, pc.A, pc.B, pc.Games = variant, t.Levels[i], t.Levels[j], 2*cfg.Games
				pc.Seed = cfg.Seed ^ uint64(i*n+j)<<32
				m, err := Run(ctx, cat, pc)
				if err != nil {
					return nil, fmt.Errorf("torneio %s %s vs %s: %w", variant, t.Levels[i], t.Levels[j], err)
				}
				tv.Wins[i][j], tv.Wins[j][i] = m.A.Wins, m.B.Wins
				tv.Draws[i][j], tv.Draws[j][i] = m.A.Draws, m.B.Draws
				tv.Games[i][j], tv.Games[j][i] = len(m.Games), len(m.Games)
			}
		}
		t.Variants = append(t.Variants, tv)
	}
	t.Elapsed = time.Since(start)
	return t, nil
}

func square(n int) [][]int {
	out := make([][]int, n)
	for i := range out {
		out[i] = make([]int, n)
	}
	return out
}

// Markdown writes, for each variant, a table with one row per level: its
// games, wins, draws and win percentage overall and its win percentage
// against each other level; then the totals over the variants.
func (t *Torneio) Markdown(w io.Writer) error {
	var b strings.Builder
	c := t.Config
	fmt.Fprintf(&b, "torneio %s: levels %s, %d games per pairing with each level first, seed %d, movetime %s\n",
		c.Game, strings.Join(t.Levels, ", "), c.Games, c.Seed, c.MoveTime)
	n := len(t.Levels)
	total := TorneioVariant{Variant: "all variants", Wins: square(n), Draws: square(n), Games: square(n)}
	for _, tv := range t.Variants {
		t.table(&b, tv)
		for i := range n {
			for j := range n {
				total.Wins[i][j] += tv.Wins[i][j]
				total.Draws[i][j] += tv.Draws[i][j]
				total.Games[i][j] += tv.Games[i][j]
			}
		}
	}
	if len(t.Variants) > 1 {
		t.table(&b, total)
	}
	fmt.Fprintf(&b, "\nTotal time %s.\n", t.Elapsed.Round(time.Millisecond))
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Torneio) table(b *strings.Builder, tv TorneioVariant) {
	fmt.Fprintf(b, "\n%s:\n\n| level | games | wins | draws | win %% |", tv.Variant)
	for _, l := range t.Levels {
		fmt.Fprintf(b, " vs %s |", l)
	}
	b.WriteString("\n|---|---:|---:|---:|---:|" + strings.Repeat("---:|", len(t.Levels)) + "\n")
	for i, l := range t.Levels {
		games, wins, draws := 0, 0, 0
		for j := range t.Levels {
			games += tv.Games[i][j]
			wins += tv.Wins[i][j]
			draws += tv.Draws[i][j]
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s |", l, games, wins, draws, pct(wins, games))
		for j := range t.Levels {
			if i == j {
				b.WriteString(" - |")
				continue
			}
			fmt.Fprintf(b, " %s |", pct(tv.Wins[i][j], tv.Games[i][j]))
		}
		b.WriteString("\n")
	}
}
