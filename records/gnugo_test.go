package records

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// stonesOf lists the stones of c ('X' or 'O') on a go board view, in the
// wire notation, sorted.
func stonesOf(t *testing.T, board any, c byte) []string {
	t.Helper()
	raw, _ := json.Marshal(board)
	var rows []string
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	n := len(rows)
	var out []string
	for i, row := range rows {
		for col := range len(row) {
			if row[col] == c {
				out = append(out, goColumns[col:col+1]+itoa(n-i))
			}
		}
	}
	slices.Sort(out)
	return out
}

// refereeSGF exports rec as SGF, loads it in GNU Go and fails unless GNU
// Go's final position has exactly the stones of our engine's, the same
// color to move next and our komi.
func refereeSGF(t *testing.T, gg *gtp.Client, rec *Record) {
	t.Helper()
	sgf, err := SGF(context.Background(), catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), rec.Room+".sgf")
	if err := os.WriteFile(path, sgf, 0o644); err != nil {
		t.Fatal(err)
	}
	toMove, err := gg.LoadSGF(path)
	if err != nil {
		t.Fatalf("GNU Go refuses the SGF: %v\n%s", err, sgf)
	}
	final, err := FinalState(context.Background(), catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := goSize(rec.Variant)
	rows, err := rowsOf(final.Board(), n)
	if err != nil {
		t.Fatal(err)
	}
	if err := gg.CheckBoard(rows); err != nil {
		t.Fatalf("after %d moves: %v\n%s", len(rec.Moves), err, sgf)
	}
	want := "black"
	if start, _ := catalog.New(rec.Game, rec.Variant, rec.Setup, 0); len(rec.Moves) == 0 {
		if seat, ok := start.Turn(); ok && seat == 1 {
			want = "white"
		}
	} else if rec.Moves[len(rec.Moves)-1].Seat == 0 {
		want = "white"
	}
	if toMove != want {
		t.Fatalf("GNU Go has %s to move, we have %s", toMove, want)
	}
	if komi, err := gg.Command("get_komi"); err != nil || komi != sgfKomi(rec) {
		t.Fatalf("GNU Go's komi %q (%v), want the SGF's %s", komi, err, sgfKomi(rec))
	}
}

// randomSetup is a legal go setup: the board after a random game of moves
// plies, with the side to move toMove.
func randomSetup(t *testing.T, rng *rand.Rand, variant string, moves int, toMove string) string {
	t.Helper()
	rec := newRecord(t, "go", variant, "")
	st := playRandom(t, rec, rng, moves, 0)
	sp := map[string]any{"black": stonesOf(t, st.Board(), 'X'), "white": stonesOf(t, st.Board(), 'O'), "toMove": toMove}
	b, _ := json.Marshal(sp)
	return string(b)
}

// captures counts the stones captured along rec's moves.
func captures(t *testing.T, rec *Record) int {
	t.Helper()
	st, err := catalog.New(rec.Game, rec.Variant, rec.Setup, 0)
	if err != nil {
		t.Fatal(err)
	}
	stones := func(st engine.State) int {
		return len(stonesOf(t, st.Board(), 'X')) + len(stonesOf(t, st.Board(), 'O'))
	}
	n := 0
	for _, m := range rec.Moves {
		before := stones(st)
		if err := st.Apply(m.Seat, m.Move); err != nil {
			t.Fatal(err)
		}
		if m.Move != "pass" {
			n += before + 1 - stones(st)
		}
	}
	return n
}

// TestGnuGoLoadsOurSGF is the referee: random games of go (captures,
// passes, games from setups with either side to move, 9x9 and 19x19,
// finished by two passes, resigned, lost on time, still going) and the
// seed's printed games, each exported as SGF and loaded by the real GNU Go,
// end in the same position on both boards, stone by stone.
func TestGnuGoLoadsOurSGF(t *testing.T) {
	gg := gtptest.Start(t, "--level", "0")
	for name, rec := range goRecords(t) {
		t.Run(name, func(t *testing.T) { refereeSGF(t, gg, rec) })
	}
	rng := rand.New(rand.NewPCG(16, 19))
	total := map[string]int{}
	for i := range 16 {
		variant := []string{"9", "19"}[i%2]
		setup := ""
		if i%4 >= 2 {
			setup = randomSetup(t, rng, variant, 10+rng.IntN(30), []string{"black", "white"}[i/4%2])
		}
		rec := newRecord(t, "go", variant, setup)
		rec.Room = fmt.Sprintf("random-%d", i)
		max := map[string]int{"9": 120, "19": 400}[variant]
		playRandom(t, rec, rng, max, 0.02)
		end := "two_passes"
		switch {
		case rec.Result != nil: // two passes came by chance
		case i%3 == 0: // ended by two passes
			for !replayed(t, rec).Outcome().Over {
				play(t, rec, "pass")
			}
		case i%3 == 1: // resigned by the side to move
			seat := 1 - rec.Moves[len(rec.Moves)-1].Seat
			rec.Result, rec.Status, end = &Result{Winner: 1 - seat, Reason: "resign"}, StatusFinished, "resign"
			rec.Ended = rec.Started.Add(time.Hour)
		default: // lost on time by the side to move
			seat := 1 - rec.Moves[len(rec.Moves)-1].Seat
			rec.Clock = &Clock{Base: 5 * time.Minute}
			rec.Result, rec.Status, end = &Result{Winner: 1 - seat, Reason: "timeout"}, StatusFinished, "timeout"
			rec.Ended = rec.Started.Add(10 * time.Minute)
		}
		caps := captures(t, rec)
		t.Run(fmt.Sprintf("%s %sx%s setup=%v %d moves %d captured", end, variant, variant, setup != "", len(rec.Moves), caps),
			func(t *testing.T) { refereeSGF(t, gg, rec) })
		total[variant] += caps
	}
	if total["9"] == 0 || total["19"] == 0 {
		t.Fatalf("the random games captured %v stones: the referee saw no capture", total)
	}
}

// TestGnuGoScoresOurScoredGames is the referee of the stone-removal phase:
// games of 9x9 counted after both players accepted a marking, with
// different komis and dead stones of either color, exported as SGF and
// loaded by the real GNU Go under area (Chinese) rules. Its final_score
// is our RE, and the stones its final_status_list calls dead are the ones
// the record marks dead.
func TestGnuGoScoresOurScoredGames(t *testing.T) {
	gg := gtptest.Start(t, "--level", "0", "--chinese-rules")
	both := newRecord(t, "go", "9", "")
	both.Room, both.Komi, both.Removal = "r-both-dead", 7.5, true
	play(t, both, append(wallMoves[:len(wallMoves)-2:len(wallMoves)-2], "H5", "G3", "pass", "pass")...)
	both.Dead = []string{"B5", "H5"}
	// Black 45 and white 36 once both are taken off: black by 1.5.
	both.Result, both.Status = &Result{Winner: 0, Reason: engine.ReasonScored}, StatusFinished
	white := scoredWall(t)
	white.Room, white.Komi = "r-komi-9.5", 9.5
	white.Result.Winner = 1 // 45-36 is 9, less than 9.5
	for _, tc := range []struct {
		rec *Record
		re  string
	}{{scoredWall(t), "B+2.5"}, {both, "B+1.5"}, {white, "W+0.5"}} {
		t.Run(tc.rec.Room, func(t *testing.T) {
			sgf, err := SGF(context.Background(), catalog, tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(sgf), "RE["+tc.re+"]") {
				t.Fatalf("no RE[%s] in\n%s", tc.re, sgf)
			}
			path := filepath.Join(t.TempDir(), tc.rec.Room+".sgf")
			if err := os.WriteFile(path, sgf, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := gg.LoadSGF(path); err != nil {
				t.Fatalf("GNU Go refuses the SGF: %v\n%s", err, sgf)
			}
			if score, err := gg.Command("final_score"); err != nil || score != tc.re {
				t.Fatalf("GNU Go's final_score %q (%v), our RE %s\n%s", score, err, tc.re, sgf)
			}
			list, err := gg.Command("final_status_list", "dead")
			if err != nil {
				t.Fatal(err)
			}
			var dead []string
			for _, v := range strings.Fields(list) {
				p, err := gtp.FromGTP(v, 9)
				if err != nil {
					t.Fatal(err)
				}
				dead = append(dead, p)
			}
			slices.Sort(dead)
			want := slices.Sorted(slices.Values(tc.rec.Dead))
			if !slices.Equal(dead, want) {
				t.Fatalf("GNU Go calls %v dead, the record %v", dead, want)
			}
		})
	}
}
