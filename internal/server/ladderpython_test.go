package server_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// ladderGames is how many rated games each bot of the ladder's CI test
// plays at least (the figure).
const ladderGames = 10

// TestLadderOfPythonBots is the CI test of the bot ladder: three
// bot accounts on orbito/2's ladder, each run by the Python client's
// escada command (clients/python/tabuleiro.py, the machine's python3):
// the seed's facil and normal through the example project
// orbito_listas.py, and a bot of random moves. They play on their own, the
// server pairing them, until each has ladderGames rated games; Ctrl-C
// takes each off the ladder once its games under way are over. Then the
// ladder's board ranks them, best first, every pair met, and the ranking
// agrees with every head-to-head result that is more than chance: when a
// bot outscored another by more than two standard deviations of an even
// match (over n games, more than n/2 + √n points), it is ranked higher.
// Why not every head-to-head: on orbito/2 facil and normal are the same
// bot (the first move decides: cmd/arena, 40 games, the first player won
// all 40), and the ladder gives a pair the first move in turn
// (ladder.Seats), so theirs is even, one game apart; facil beats the
// random bot about 3 games in 5, so their few games can go either way; and
// Glicko-2 with a period a game weighs a bot's first games most, so over
// 10 to 20 games two bots that scored 10 to 5 against each other may end a
// few points apart either way (seen: 1471 and 1468).
func TestLadderOfPythonBots(t *testing.T) {
	s := testserver.Start(t, func(c *server.Config) {
		c.LadderEvery = 20 * time.Millisecond
		c.LadderClock = &protocol.TimeControl{Base: 20}
	})
	owner := s.Hello(t, "professora", "")
	proj := filepath.Join(abs(t, projetosPy), "orbito_listas.py")
	type entrant struct {
		name string
		args []string
		id   string
		tok  string
		py   *python
	}
	es := []*entrant{
		{name: "normal", args: []string{"--projeto", proj, "--estrategia", "normal"}},
		{name: "facil", args: []string{"--projeto", proj, "--estrategia", "facil"}},
		{name: "roleta", args: []string{"--aleatorio"}},
	}
	for _, e := range es {
		e.id, e.tok = s.RegisterBot(t, owner.Token, e.name)
		args := append([]string{abs(t, clientPy), "escada", "--jogo", "orbito", "--variante", "2",
			"--servidor", s.URL, "--token=" + e.tok}, e.args...)
		e.py = startPython(t, ".", args...)
	}
	output := func() string {
		var b strings.Builder
		for _, e := range es {
			b.WriteString("--- " + e.name + ":\n" + e.py.out.String())
		}
		return b.String()
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		b := ladderBoard(t, s, "orbito/2")
		done := len(b.Bots) == len(es)
		for _, e := range b.Bots {
			done = done && e.Games >= ladderGames
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bots did not play %d games each: %+v\n%s", ladderGames, b.Bots, output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Ctrl-C: each leaves the ladder, finishes its games and exits 0.
	for _, e := range es {
		if err := e.py.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range es {
		out := e.py.wait(t, 2*time.Minute, 0)
		if !strings.Contains(out, "está na escada orbito/2") || !strings.Contains(out, "saiu da escada orbito/2") {
			t.Fatalf("%s's output:\n%s", e.name, out)
		}
	}
	if b := ladderBoard(t, s, "orbito/2"); len(b.Bots) != 0 {
		t.Fatalf("the bots left, yet the board is %+v", b)
	}
	// Every game over and rated (the rater applies them as they end).
	ctx := context.Background()
	ids := []string{es[0].id, es[1].id, es[2].id}
	soon(t, "every game over and rated", func() bool {
		if len(unfinished(t, s, ids...)) > 0 {
			return false
		}
		for _, id := range ids {
			r, err := s.Store.Rating(ctx, "orbito/2", id)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, rec := range botRecords(t, s, id) {
				if _, ok := rec.RatedScore(); ok {
					n++
				}
			}
			if r.Games != n {
				return false
			}
		}
		return true
	})
	// Back on the ladder, offline, to read its board.
	for _, e := range es {
		if code := s.Do(t, "POST", "/api/bot/ladder/orbito/2", e.tok, nil, nil); code != http.StatusOK {
			t.Fatalf("join again: %d", code)
		}
	}
	b := ladderBoard(t, s, "orbito/2")
	if len(b.Bots) != len(es) {
		t.Fatalf("board %+v", b)
	}
	name := map[string]string{}
	for _, e := range es {
		name[e.id] = e.name
	}
	for i, e := range b.Bots {
		if e.Games < ladderGames || e.Online || e.Name != name[e.ID] {
			t.Fatalf("board line %+v", e)
		}
		if i > 0 && e.Rating > b.Bots[i-1].Rating {
			t.Fatalf("the board is not best first: %+v", b.Bots)
		}
	}
	// Head to head, from the games' records: score[a][b] is what a scored
	// against b (a win 1, a draw 1/2).
	score := map[string]map[string]float64{}
	games := map[[2]string]int{}
	faults := 0
	seen := map[string]bool{}
	for _, id := range ids {
		for _, rec := range botRecords(t, s, id) {
			if seen[rec.Room] {
				continue
			}
			seen[rec.Room] = true
			s0, ok := rec.RatedScore()
			if !ok {
				continue
			}
			a, c := rec.Players[0].ID, rec.Players[1].ID
			if score[a] == nil {
				score[a] = map[string]float64{}
			}
			if score[c] == nil {
				score[c] = map[string]float64{}
			}
			score[a][c] += s0
			score[c][a] += 1 - s0
			games[[2]string{min(a, c), max(a, c)}]++
			if ladder.Fault(rec.Result.Winner, rec.Result.Reason, len(rec.Moves)) >= 0 {
				faults++
			}
		}
	}
	var table strings.Builder
	for i, x := range b.Bots {
		fmt.Fprintf(&table, "%-7s %4d ±%3.0f (%d games), against:", x.Name, x.Rating, 2*x.RD, x.Games)
		for j, y := range b.Bots {
			if i != j {
				fmt.Fprintf(&table, " %s %g/%d", y.Name, score[x.ID][y.ID], games[[2]string{min(x.ID, y.ID), max(x.ID, y.ID)}])
			}
		}
		table.WriteString("\n")
	}
	t.Logf("the ladder after %d games:\n%s", len(seen), table.String())
	if faults > 0 {
		t.Errorf("%d games lost by a fault (time, bot_error, abandoned):\n%s", faults, output())
	}
	for i := range b.Bots {
		for j := i + 1; j < len(b.Bots); j++ {
			hi, lo := b.Bots[i], b.Bots[j]
			if games[[2]string{min(hi.ID, lo.ID), max(hi.ID, lo.ID)}] == 0 {
				t.Errorf("%s and %s never played each other", hi.Name, lo.Name)
			}
			n := float64(games[[2]string{min(hi.ID, lo.ID), max(hi.ID, lo.ID)}])
			if score[lo.ID][hi.ID]-n/2 > math.Sqrt(n) {
				t.Errorf("%s is ranked above %s, yet %s outscored it %v to %v, more than chance:\n%s", hi.Name, lo.Name,
					lo.Name, score[lo.ID][hi.ID], score[hi.ID][lo.ID], table.String())
			}
		}
	}
}
