package arena

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// ms formats a duration in milliseconds with one decimal.
func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

// pct is 100*a/b with one decimal, "-" when b is 0.
func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*float64(a)/float64(b))
}

// Markdown writes the match's results table: for a two-seat game one row
// per side (wins, losses, draws overall and as the first player, average
// score, time per move), for a one-seat game the score and max-tile
// distribution.
func (m *Match) Markdown(w io.Writer) error {
	c := m.Config
	var b strings.Builder
	if m.Seats == 1 {
		m.soloMarkdown(&b)
	} else {
		against := c.B
		if c.B == GnuGoLevel {
			against = fmt.Sprintf("gnugo (GNU Go --level %d, Chinese rules, komi 0.5)", c.GnuGoLevel)
		}
		fmt.Fprintf(&b, "%s %s: %s vs %s, %d games%s, seed %d, movetime %s, openings %d, parallel %d\n\n",
			c.Game, c.Variant, c.A, against, len(m.Games), c.firstGame(), c.Seed, c.MoveTime, c.Openings, c.Parallel)
		b.WriteString("| side | level | games | wins | losses | draws | win % | as first W-L-D | as second W-L-D | avg score | avg ms/move | max ms/move | moves |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|\n")
		for i, sd := range []Side{m.A, m.B} {
			games := sd.Wins + sd.Losses + sd.Draws
			score := "-"
			if sd.Scored > 0 {
				score = fmt.Sprintf("%.1f", sd.ScoreSum/float64(sd.Scored))
			}
			avg := time.Duration(0)
			if sd.Moves > 0 {
				avg = sd.Think / time.Duration(sd.Moves)
			}
			fmt.Fprintf(&b, "| %c | %s | %d | %d | %d | %d | %s | %d-%d-%d | %d-%d-%d | %s | %s | %s | %d |\n",
				'A'+i, sd.Level, games, sd.Wins, sd.Losses, sd.Draws, pct(2*sd.Wins+sd.Draws, 2*games),
				sd.FirstW, sd.FirstL, sd.FirstD, sd.Wins-sd.FirstW, sd.Losses-sd.FirstL, sd.Draws-sd.FirstD,
				score, ms(avg), ms(sd.MaxThink), sd.Moves)
		}
		m.footnotes(&b)
	}
	fmt.Fprintf(&b, "\nTotal time %s.\n", m.Elapsed.Round(time.Millisecond))
	if m.Interrupted {
		fmt.Fprintf(&b, "Interrupted: %d of the %d games asked were played.\n", len(m.Games), c.Games)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// footnotes adds the end reasons and GNU Go's own verdicts.
func (m *Match) footnotes(b *strings.Builder) {
	reasons := map[string]int{}
	refereed, agrees, refused := 0, 0, 0
	var disputed []string
	for _, g := range m.Games {
		reasons[g.Reason]++
		refused += g.Refused
		if g.Referee != "" {
			refereed++
			if g.RefereeAgrees {
				agrees++
			} else {
				disputed = append(disputed, fmt.Sprintf("%d (%s)", g.Index, g.Referee))
			}
		}
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, reasons[k]))
	}
	fmt.Fprintf(b, "\nEnds: %s.\n", strings.Join(parts, ", "))
	if m.Config.B == GnuGoLevel {
		fmt.Fprintf(b, "GNU Go's own count (final_score, dead stones removed) names the same winner in %d of %d games ended by two passes", agrees, refereed)
		if len(disputed) > 0 {
			fmt.Fprintf(b, "; it disagrees on games %s", strings.Join(disputed, ", "))
		}
		fmt.Fprintf(b, ". GNU Go moves refused by our superko (played as passes): %d.\n", refused)
	}
}

// soloMarkdown is the table of a one-seat game: score mean and median, the
// share of games reaching each tile, time per move.
func (m *Match) soloMarkdown(b *strings.Builder) {
	c := m.Config
	fmt.Fprintf(b, "%s %s: %s, %d games%s, seed %d, movetime %s, parallel %d\n\n", c.Game, c.Variant, c.A, len(m.Games), c.firstGame(), c.Seed, c.MoveTime, c.Parallel)
	var scores []float64
	for _, g := range m.Games {
		if len(g.Scores) > 0 {
			scores = append(scores, g.Scores[0])
		}
	}
	mean, median := "-", "-"
	if len(scores) > 0 {
		sum := 0.0
		for _, s := range scores {
			sum += s
		}
		slices.Sort(scores)
		mid := scores[len(scores)/2]
		if len(scores)%2 == 0 {
			mid = (scores[len(scores)/2-1] + mid) / 2
		}
		mean, median = fmt.Sprintf("%.0f", sum/float64(len(scores))), fmt.Sprintf("%.0f", mid)
	}
	tiles := []int{2048, 4096, 8192, 16384, 32768}
	b.WriteString("| level | games | score mean | score median |")
	for _, t := range tiles {
		fmt.Fprintf(b, " %d %% |", t)
	}
	b.WriteString(" avg ms/move | max ms/move | moves |\n|---|---:|---:|---:|")
	b.WriteString(strings.Repeat("---:|", len(tiles)))
	b.WriteString("---:|---:|---:|\n")
	fmt.Fprintf(b, "| %s | %d | %s | %s |", m.A.Level, len(m.Games), mean, median)
	for _, t := range tiles {
		reached := 0
		for _, g := range m.Games {
			if g.MaxTile >= t {
				reached++
			}
		}
		fmt.Fprintf(b, " %s |", pct(reached, len(m.Games)))
	}
	avg := time.Duration(0)
	if m.A.Moves > 0 {
		avg = m.A.Think / time.Duration(m.A.Moves)
	}
	fmt.Fprintf(b, " %s | %s | %d |\n", ms(avg), ms(m.A.MaxThink), m.A.Moves)
}

// Records writes each game's moves, one game a line, with its seats and
// result.
func (m *Match) Records(w io.Writer) error {
	var b strings.Builder
	for _, g := range m.Games {
		seats := fmt.Sprintf("%s first", m.Config.A)
		if g.ASeat == 1 {
			seats = fmt.Sprintf("%s first", m.Config.B)
		}
		fmt.Fprintf(&b, "game %d (%s): winner seat %d, %s, scores %v", g.Index, seats, g.Winner, g.Reason, g.Scores)
		if g.Referee != "" {
			fmt.Fprintf(&b, ", GNU Go counts %s", g.Referee)
		}
		fmt.Fprintf(&b, ": %s\n", strings.Join(g.Moves, " "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// firstGame names the first game's index when a run does not start at 0.
func (c Config) firstGame() string {
	if c.First == 0 {
		return ""
	}
	return fmt.Sprintf(" from game %d", c.First)
}
