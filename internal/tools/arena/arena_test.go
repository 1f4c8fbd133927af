package arena

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
)

// runMatch runs the match cfg describes and fails the test on an error.
func runMatch(t *testing.T, cfg Config) *Match {
	t.Helper()
	m, err := Run(context.Background(), games.Catalog(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// markdown is r's Markdown report (a match's or a torneio's); it fails the
// test on an error.
func markdown(t *testing.T, r interface{ Markdown(io.Writer) error }) string {
	t.Helper()
	var out bytes.Buffer
	if err := r.Markdown(&out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// tableRows returns the data rows of the first markdown table in out, each
// as its trimmed cells, and fails unless every row has as many cells as the
// header.
func tableRows(t *testing.T, out string) [][]string {
	t.Helper()
	var header []string
	var rows [][]string
	in := false
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			if in {
				break
			}
			continue
		}
		if !strings.HasSuffix(line, "|") {
			t.Fatalf("table line %q does not end with |", line)
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case !in:
			header, in = cells, true
		case strings.HasPrefix(cells[0], "---"):
		default:
			if len(cells) != len(header) {
				t.Fatalf("row %q has %d cells, header %d", line, len(cells), len(header))
			}
			rows = append(rows, cells)
		}
	}
	if header == nil {
		t.Fatalf("no table in\n%s", out)
	}
	return rows
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("cell %q is not a number: %v", s, err)
	}
	return n
}

// checkMatchTable checks a two-seat table: two rows whose wins, losses and
// draws add up to the games, A's wins are B's losses, the split by seat
// adds up to the totals, and A was first player in the even games.
func checkMatchTable(t *testing.T, out string, games int) {
	t.Helper()
	rows := tableRows(t, out)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2:\n%s", len(rows), out)
	}
	var w, l, d, first [2]int
	for i, r := range rows {
		g := atoi(t, r[2])
		w[i], l[i], d[i] = atoi(t, r[3]), atoi(t, r[4]), atoi(t, r[5])
		if g != games || w[i]+l[i]+d[i] != games {
			t.Fatalf("row %v: games %d, W+L+D %d, want %d", r, g, w[i]+l[i]+d[i], games)
		}
		var fw, fl, fd, sw, sl, sd int
		if _, err := fmt.Sscanf(r[7], "%d-%d-%d", &fw, &fl, &fd); err != nil {
			t.Fatalf("as first %q: %v", r[7], err)
		}
		if _, err := fmt.Sscanf(r[8], "%d-%d-%d", &sw, &sl, &sd); err != nil {
			t.Fatalf("as second %q: %v", r[8], err)
		}
		if fw+sw != w[i] || fl+sl != l[i] || fd+sd != d[i] {
			t.Fatalf("row %v: seat split does not add up", r)
		}
		first[i] = fw + fl + fd
	}
	if first[0]+first[1] != games || first[0]-first[1] > 1 || first[1] > first[0] {
		t.Fatalf("games as first player: A %d, B %d of %d; A is first in even games", first[0], first[1], games)
	}
	if w[0] != l[1] || l[0] != w[1] || d[0] != d[1] {
		t.Fatalf("A %d-%d-%d and B %d-%d-%d do not mirror", w[0], l[0], d[0], w[1], l[1], d[1])
	}
	if !regexp.MustCompile(`Total time \d`).MatchString(out) {
		t.Fatalf("no total time in\n%s", out)
	}
}

func TestMatchGoAgainstGnuGo(t *testing.T) {
	gtptest.Require(t)
	cfg := Config{Game: "go", Variant: "9", A: "facil", B: GnuGoLevel, GnuGoLevel: 1, Games: 2, Seed: 3, MoveTime: 50 * time.Millisecond}
	m := runMatch(t, cfg)
	out := markdown(t, m)
	checkMatchTable(t, out, 2)
	for _, g := range m.Games {
		if g.Plies == 0 || (g.Reason == "two_passes") != (g.Referee != "") {
			t.Fatalf("game %+v: every game ended by two passes has GNU Go's count", g)
		}
	}
	if !strings.Contains(out, "GNU Go's own count") {
		t.Fatalf("no GNU Go verdict line in\n%s", out)
	}
}

func TestMatchOrbito(t *testing.T) {
	var progress []int
	cfg := Config{Game: "orbito", Variant: "4", A: "normal", B: "facil", Games: 2, Seed: 1, Openings: 2,
		Progress: func(g Game) { progress = append(progress, g.Index) }}
	m := runMatch(t, cfg)
	checkMatchTable(t, markdown(t, m), 2)
	if m.Games[0].ASeat == m.Games[1].ASeat {
		t.Fatal("A kept its seat")
	}
	if len(progress) != 2 {
		t.Fatalf("progress saw games %v, want 2", progress)
	}
	var rec bytes.Buffer
	if err := m.Records(&rec); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(rec.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("records:\n%s\nwant one line per game", rec.String())
	}
	for i, g := range m.Games {
		if len(g.Moves) != g.Plies || !strings.HasSuffix(lines[i], strings.Join(g.Moves, " ")) {
			t.Fatalf("game %d: %d moves for %d plies, record %q", i, len(g.Moves), g.Plies, lines[i])
		}
	}
}

// TestOpeningsDeterministic checks that games 2k and 2k+1 start from the same
// random opening: with zero plies of bots, both end at the move cap on the
// same board.
func TestOpeningsDeterministic(t *testing.T) {
	cfg := Config{Game: "go", Variant: "9", A: "basico", B: "basico", Games: 4, Seed: 5, Openings: 6, MaxPlies: 6}
	m1, m2 := runMatch(t, cfg), runMatch(t, cfg)
	for i := range m1.Games {
		g1, g2 := m1.Games[i], m2.Games[i]
		if g1.Reason != "move_cap" || g1.Plies != 6 {
			t.Fatalf("game %d: %s after %d plies, want the move cap after the 6 opening plies", i, g1.Reason, g1.Plies)
		}
		if g1.Scores[0] != g2.Scores[0] || g1.Scores[1] != g2.Scores[1] {
			t.Fatalf("game %d: scores %v then %v with the same seed", i, g1.Scores, g2.Scores)
		}
	}
	if m1.Games[0].Scores[0] != m1.Games[1].Scores[0] {
		t.Fatalf("games 0 and 1 have different openings: %v, %v", m1.Games[0].Scores, m1.Games[1].Scores)
	}
}

func TestSolo2048(t *testing.T) {
	cfg := Config{Game: "2048", Variant: "solo", A: "guloso", Games: 1, Seed: 7}
	m := runMatch(t, cfg)
	rows := tableRows(t, markdown(t, m))
	if len(rows) != 1 || rows[0][0] != "guloso" || atoi(t, rows[0][1]) != 1 {
		t.Fatalf("rows %v", rows)
	}
	g := m.Games[0]
	if g.MaxTile < 4 || g.Plies == 0 || len(g.Scores) != 1 || g.Scores[0] <= 0 {
		t.Fatalf("game %+v: want a played game with a score and a max tile", g)
	}
	if mean := rows[0][2]; mean != strconv.Itoa(int(g.Scores[0])) {
		t.Fatalf("mean %s, want the one game's score %v", mean, g.Scores[0])
	}
}

// TestFirstGameSplitsAMatch: a match played as two runs (-first) is the
// one-run match, game by game, for one-seat and two-seat games.
func TestFirstGameSplitsAMatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"2048 solo", Config{Game: "2048", Variant: "solo", A: "guloso"}},
		{"orbito with an opening", Config{Game: "orbito", A: "facil", B: "normal", Openings: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, halves := tc.cfg, tc.cfg
			whole.Games, whole.Seed = 5, 3
			halves.Seed = 3
			one := runMatch(t, whole)
			var got []Game
			var last *Match
			for _, part := range [][2]int{{0, 2}, {2, 3}} {
				halves.First, halves.Games = part[0], part[1]
				m := runMatch(t, halves)
				got, last = append(got, m.Games...), m
			}
			if len(got) != len(one.Games) {
				t.Fatalf("%d games in two runs, %d in one", len(got), len(one.Games))
			}
			for i, g := range one.Games {
				h := got[i]
				if h.Index != g.Index || h.ASeat != g.ASeat || h.Winner != g.Winner || h.MaxTile != g.MaxTile ||
					!slices.Equal(h.Moves, g.Moves) || !slices.Equal(h.Scores, g.Scores) {
					t.Fatalf("game %d: two runs gave %+v, one run %+v", i, h, g)
				}
			}
			if out := markdown(t, last); !strings.Contains(out, "3 games from game 2,") {
				t.Fatalf("report of the second run does not say where it starts: %q", out)
			}
		})
	}
}

func TestTorneioQueens(t *testing.T) {
	cfg := Config{Game: "queens", Variant: "tradicional", Games: 1, Seed: 2, MoveTime: 20 * time.Millisecond}
	tr, err := RunTorneio(context.Background(), games.Catalog(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := tableRows(t, markdown(t, tr))
	n := len(tr.Levels)
	if len(rows) != n {
		t.Fatalf("%d rows for %d levels", len(rows), n)
	}
	sumWins, sumDraws, totalGames := 0, 0, 0
	for _, r := range rows {
		games, wins, draws := atoi(t, r[1]), atoi(t, r[2]), atoi(t, r[3])
		if games != 2*(n-1) {
			t.Fatalf("row %v: %d games, want 2 per opponent", r, games)
		}
		sumWins += wins
		sumDraws += draws
		totalGames += games
	}
	// Each game counts once for each of its two levels, and has one winner
	// or is a draw for both.
	if 2*sumWins+sumDraws != totalGames {
		t.Fatalf("%d wins and %d draws in %d level-games: results lost", sumWins, sumDraws, totalGames)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Game: "chess", A: "x", B: "y", Games: 1},
		{Game: "go", Variant: "7", A: "basico", B: "basico", Games: 1},
		{Game: "go", A: "nope", B: "basico", Games: 1},
		{Game: "go", A: GnuGoLevel, B: "basico", Games: 1},
		{Game: "orbito", A: "facil", B: GnuGoLevel, Games: 1},
		{Game: "go", A: "basico", B: "basico", Games: 0},
		{Game: "go", A: "basico", B: GnuGoLevel, GnuGoLevel: 11, Games: 1},
	} {
		if _, err := Run(context.Background(), games.Catalog(), cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

// TestInterruptedMatchKeepsFinishedGames cancels a match after its first
// game: Run returns an error and the table of the finished games.
func TestInterruptedMatchKeepsFinishedGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Game: "go", Variant: "9", A: "basico", B: "basico", Games: 6, Seed: 1,
		Progress: func(Game) { cancel() }}
	m, err := Run(ctx, games.Catalog(), cfg)
	if err == nil || m == nil || !m.Interrupted {
		t.Fatalf("Run = %v, %v; want an interrupted match and an error", m, err)
	}
	if len(m.Games) != 1 {
		t.Fatalf("%d finished games, want the first one only", len(m.Games))
	}
	out := markdown(t, m)
	checkMatchTable(t, out, 1)
	if !strings.Contains(out, "Interrupted: 1 of the 6 games") {
		t.Fatalf("no interruption note in\n%s", out)
	}
}

// TestSoloGamesDiffer: games of a one-seat game each get their own chance.
// guloso is deterministic, so two games with the same spawns would be the
// same game twice.
func TestSoloGamesDiffer(t *testing.T) {
	cfg := Config{Game: "2048", Variant: "solo", A: "guloso", Games: 4, Seed: 3}
	m := runMatch(t, cfg)
	seen := map[string]int{}
	for _, g := range m.Games {
		rec := strings.Join(g.Moves, " ")
		if j, ok := seen[rec]; ok {
			t.Errorf("games %d and %d played the same moves (%d plies): same seed", j, g.Index, g.Plies)
		}
		seen[rec] = g.Index
	}
}
