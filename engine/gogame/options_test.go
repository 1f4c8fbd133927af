package gogame

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// newWith starts a game of the variant under opts, failing the test when
// it is refused.
func newWith(t testing.TB, variant, setup string, opts engine.Options) *state {
	t.Helper()
	var raw json.RawMessage
	if setup != "" {
		raw = json.RawMessage(setup)
	}
	st, err := Game().(engine.Configurable).NewWithOptions(variant, raw, 0, opts)
	if err != nil {
		t.Fatalf("NewWithOptions(%q, %s, %+v): %v", variant, setup, opts, err)
	}
	return st.(*state)
}

// wallGame is a 9x9 game that leaves black a wall on column E and the
// area west of it, white a wall on column F and the area east of it, and
// one white stone, B5, alone inside black's area; the last two moves are
// passes. On the board as it stands black's area touches B5, so it is
// nobody's: black has its 10 stones, white 9 stones, 27 points of area and
// B5, 37. With B5 taken off as dead, black has 45 (A-E) and white 36.
var wallGame = func() []string {
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	return append(moves, "C3", "B5", Pass, Pass)
}()

// playWall plays wallGame on s.
func playWall(t testing.TB, s *state) {
	t.Helper()
	enginetest.Replay(t, s, wallGame...)
}

func TestCheckOptions(t *testing.T) {
	g := Game().(engine.Configurable)
	for _, tc := range []struct {
		variant string
		opts    engine.Options
		bad     string // a fragment of the refusal, "" when accepted
	}{
		{"9", engine.Options{}, ""},
		{"9", engine.Options{Komi: 0.5}, ""},
		{"19", engine.Options{Komi: 6.5, Removal: true}, ""},
		{"13", engine.Options{Komi: -0.5, Handicap: 9}, ""},
		{"9", engine.Options{Komi: 99.5, Handicap: 2}, ""},
		{"9", engine.Options{Komi: -99.5}, ""},
		{"9", engine.Options{Komi: 7}, "half-integer"},
		{"9", engine.Options{Komi: 6.25}, "half-integer"},
		{"9", engine.Options{Komi: 100.5}, "half-integer"},
		{"9", engine.Options{Komi: math.NaN()}, "half-integer"},
		{"9", engine.Options{Komi: math.Inf(1)}, "half-integer"},
		{"9", engine.Options{Handicap: 1}, "handicap 1"},
		{"9", engine.Options{Handicap: 10}, "handicap 10"},
		{"9", engine.Options{Handicap: -2}, "handicap -2"},
		{"7", engine.Options{Komi: 6.5}, "no variant"},
	} {
		t.Run(fmt.Sprintf("%s %+v", tc.variant, tc.opts), func(t *testing.T) {
			err := g.CheckOptions(tc.variant, tc.opts)
			_, newErr := g.NewWithOptions(tc.variant, nil, 0, tc.opts)
			if tc.bad == "" {
				if err != nil || newErr != nil {
					t.Fatalf("refused: %v / %v", err, newErr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Fatalf("CheckOptions: %v, want a refusal with %q", err, tc.bad)
			}
			if newErr == nil {
				t.Fatal("NewWithOptions accepted what CheckOptions refuses")
			}
		})
	}
	_, err := g.NewWithOptions("9", json.RawMessage(`{"black":["E5"]}`), 0, engine.Options{Handicap: 2})
	wantCode(t, err, engine.CodeBadSetup, "not both")
	if err := engine.CheckOptions(morrisLike{}, "3", engine.Options{Removal: true}); err == nil {
		t.Fatal("a game without options took them")
	}
}

// morrisLike is a game that takes no options.
type morrisLike struct{ engine.Game }

func (morrisLike) Info() engine.Info { return engine.Info{ID: "m", Name: "Moinho"} }

// TestKomiDecidesTheWinner: at two passes black wins when its area passes
// white's by more than the komi; the seed's rule (white wins ties) is the
// zero Options and komi 0.5 alike.
func TestKomiDecidesTheWinner(t *testing.T) {
	// A wall of each color across the 9x9 board, black's west of white's:
	// on columns E and F black has 45 and white 36, on D and E black 36
	// and white 45.
	for _, tc := range []struct {
		komi   float64
		walls  [2]string // black's column, white's column
		winner int
	}{
		{0, [2]string{"E", "F"}, 0},     // 45-36
		{0.5, [2]string{"E", "F"}, 0},   // the same rule spelt out
		{6.5, [2]string{"E", "F"}, 0},   // 9 > 6.5
		{8.5, [2]string{"E", "F"}, 0},   // 9 > 8.5
		{9.5, [2]string{"E", "F"}, 1},   // 9 < 9.5
		{-0.5, [2]string{"D", "E"}, 1},  // 36-45
		{-9.5, [2]string{"D", "E"}, 0},  // -9 > -9.5
		{-8.5, [2]string{"D", "E"}, 1},  // -9 < -8.5
		{99.5, [2]string{"E", "F"}, 1},  // the largest komi
		{-99.5, [2]string{"D", "E"}, 0}, // and the largest reverse komi
	} {
		t.Run(fmt.Sprintf("komi %v walls %v", tc.komi, tc.walls), func(t *testing.T) {
			s := newWith(t, "9", "", engine.Options{Komi: tc.komi})
			var game []string
			for row := 1; row <= 9; row++ {
				game = append(game, tc.walls[0]+strconv.Itoa(row), tc.walls[1]+strconv.Itoa(row))
			}
			enginetest.Replay(t, s, append(game, Pass, Pass)...)
			out := s.Outcome()
			if !out.Over || out.Winner != tc.winner || out.Reason != ReasonTwoPasses {
				t.Fatalf("outcome %+v, want winner %d by two passes (score %v)", out, tc.winner, s.Score())
			}
			if k, ok := s.Extra()["komi"]; (tc.komi != 0 && tc.komi != 0.5) != ok || ok && k != tc.komi {
				t.Fatalf("extra komi %v (%v)", k, ok)
			}
		})
	}
}

// TestHandicapPointsAreGnuGos: the handicap stones are where GNU Go's
// fixed_handicap puts them, on every board and for every number.
func TestHandicapPointsAreGnuGos(t *testing.T) {
	gg := gtptest.Start(t, "--level", "0")
	for _, n := range sizes {
		if _, err := gg.Command("boardsize", strconv.Itoa(n)); err != nil {
			t.Fatal(err)
		}
		for h := 2; h <= MaxHandicap; h++ {
			if _, err := gg.Command("clear_board"); err != nil {
				t.Fatal(err)
			}
			resp, err := gg.Command("fixed_handicap", strconv.Itoa(h))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, v := range strings.Fields(resp) {
				m, err := gtp.FromGTP(v, n)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, m)
			}
			geo := geometries[n]
			want = sortedByPoint(geo, want)
			if got := handicapPoints(geo, h); !slices.Equal(got, want) {
				t.Errorf("%dx%d handicap %d: %v, GNU Go %v", n, n, h, got, want)
			}
		}
	}
}

// TestHandicapStart: a handicap game starts with the stones on the board,
// white to move, and black's moves refused until white has moved; its
// snapshot restores it, and the handicap shows in the extra fields.
func TestHandicapStart(t *testing.T) {
	for _, tc := range []struct {
		variant string
		h       int
		stones  []string
	}{
		{"9", 4, []string{"C3", "G3", "C7", "G7"}},
		{"13", 5, []string{"D4", "J4", "G7", "D10", "J10"}},
		{"19", 9, []string{"D4", "J4", "P4", "D10", "J10", "P10", "D16", "J16", "P16"}},
	} {
		t.Run(fmt.Sprintf("%sx%s %d", tc.variant, tc.variant, tc.h), func(t *testing.T) {
			s := newWith(t, tc.variant, "", engine.Options{Handicap: tc.h, Komi: 0.5})
			if got := s.start.Black; !slices.Equal(got, tc.stones) {
				t.Fatalf("black stones %v, want %v", got, tc.stones)
			}
			if seat, ok := s.Turn(); !ok || seat != 1 {
				t.Fatalf("turn %d %v, want white (1)", seat, ok)
			}
			wantCode(t, s.Apply(0, "A1"), engine.CodeNotYourTurn)
			if slices.Contains(s.Legal(1), tc.stones[0]) {
				t.Fatalf("white may play on a handicap stone %s", tc.stones[0])
			}
			if x := s.Extra(); x["handicap"] != tc.h {
				t.Fatalf("extra %v", x)
			}
			enginetest.Replay(t, s, "A1", "B1")
			back, err := enginetest.RoundTrip(Game(), s)
			if err != nil {
				t.Fatal(err)
			}
			if b := back.(*state); b.handicap != tc.h || !slices.Equal(b.start.Black, tc.stones) || b.komi2 != seedKomi2 {
				t.Fatalf("restored handicap %d, stones %v, komi2 %d", b.handicap, b.start.Black, b.komi2)
			}
			checkMarshalJSON(t, s, "handicap game")
		})
	}
}

// TestStoneRemoval: with removal, two passes start the stone-removal phase
// (neither over nor quite playing: the seat to move may resume with a
// stone, not pass); a toggle marks a group and clears the acceptances;
// both acceptances end the game, counted without the dead stones and with
// the komi. Without removal the same game ends at the two passes, counted
// as the board stands (the seed's rule).
func TestStoneRemoval(t *testing.T) {
	seed := mustNew(t, "9", "")
	playWall(t, seed)
	if out := seed.Outcome(); !out.Over || out.Winner != 1 || out.Reason != ReasonTwoPasses {
		t.Fatalf("the seed's rule: %+v (score %v), want white by two passes", out, seed.Score())
	}
	if sc := seed.Score().(map[string]int); sc["black"] != 10 || sc["white"] != 37 {
		t.Fatalf("the seed's score %v, want black 10, white 37", sc)
	}

	s := newWith(t, "9", "", engine.Options{Komi: 6.5, Removal: true})
	playWall(t, s)
	if !s.Scoring() || s.Outcome().Over {
		t.Fatalf("after two passes: scoring %v, outcome %+v", s.Scoring(), s.Outcome())
	}
	if seat, ok := s.Turn(); !ok || seat != 0 {
		t.Fatalf("turn %d %v: black may resume", seat, ok)
	}
	if legal := s.Legal(0); slices.Contains(legal, Pass) || !slices.Contains(legal, "A1") {
		t.Fatalf("legal in the stone-removal phase: %v", legal)
	}
	wantCode(t, s.Apply(0, Pass), engine.CodeIllegalMove, "stone-removal")
	wantCode(t, s.Toggle(0, "D5"), engine.CodeIllegalMove, "D5 is empty")
	wantCode(t, s.Toggle(0, "Z5"), engine.CodeIllegalMove)
	wantCode(t, s.Toggle(2, "B5"), engine.CodeIllegalMove)
	x := s.Extra()
	if !slices.Equal(x["dead"].([]string), []string{}) || !slices.Equal(x["accepted"].([]int), []int{}) || x["removal"] != true || x["komi"] != 6.5 {
		t.Fatalf("extra in the phase: %v", x)
	}

	if err := s.Accept(1); err != nil {
		t.Fatal(err)
	}
	if err := s.Toggle(1, "B5"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Dead(), []string{"B5"}) || s.Accepted(1) {
		t.Fatalf("after the toggle: dead %v, white accepted %v", s.Dead(), s.Accepted(1))
	}
	if sc := s.Score().(map[string]int); sc["black"] != 45 || sc["white"] != 36 {
		t.Fatalf("score without B5: %v, want 45 to 36", sc)
	}
	area := s.Extra()["area"].([]string)
	if area[4] != "XXXXXOOOO" {
		t.Fatalf("row 5 of the area: %q, want B5 black's", area[4])
	}
	checkMarshalJSON(t, s, "marked")
	if err := s.Accept(0); err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Over {
		t.Fatal("over with one acceptance")
	}
	back, err := enginetest.RoundTrip(Game(), s)
	if err != nil {
		t.Fatal(err)
	}
	if b := back.(*state); !b.Scoring() || !slices.Equal(b.Dead(), []string{"B5"}) || !b.Accepted(0) || b.Accepted(1) {
		t.Fatalf("restored: scoring %v, dead %v, accepted %v", b.Scoring(), b.Dead(), b.accepted)
	}
	if err := s.Accept(1); err != nil {
		t.Fatal(err)
	}
	out := s.Outcome()
	if !out.Over || out.Winner != 0 || out.Reason != engine.ReasonScored {
		t.Fatalf("outcome %+v, want black (45-36 > 6.5) by the score", out)
	}
	if _, ok := s.Turn(); ok || s.Legal(0) != nil || s.Scoring() {
		t.Fatal("a finished game still has a turn")
	}
	wantCode(t, s.Toggle(0, "B5"), engine.CodeGameOver)
	wantCode(t, s.Accept(0), engine.CodeGameOver)
	wantCode(t, s.Apply(0, "A1"), engine.CodeGameOver)
	checkMarshalJSON(t, s, "scored")
	back, err = enginetest.RoundTrip(Game(), s)
	if err != nil {
		t.Fatal(err)
	}
	if err := enginetest.Same(s, back); err != nil || back.Outcome() != out {
		t.Fatalf("restored a scored game: %v, outcome %+v", err, back.Outcome())
	}
}

// TestResumeDropsTheMarking: a stone by the seat to move resumes the game:
// the marking, the acceptances and their extra fields go, and two more
// passes start the phase again with nothing marked.
func TestResumeDropsTheMarking(t *testing.T) {
	s := newWith(t, "9", "", engine.Options{Removal: true})
	playWall(t, s)
	for _, step := range []func() error{func() error { return s.Toggle(0, "B5") }, func() error { return s.Accept(1) }} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.Apply(1, "A1"), engine.CodeNotYourTurn)
	enginetest.Replay(t, s, "A5")
	if s.Scoring() || s.Dead() != nil || s.Accepted(1) || s.passes != 0 {
		t.Fatalf("after the resume: scoring %v, dead %v, accepted %v", s.Scoring(), s.Dead(), s.accepted)
	}
	x := s.Extra()
	for _, k := range []string{"dead", "accepted", "area"} {
		if _, ok := x[k]; ok {
			t.Fatalf("extra %q after the resume: %v", k, x)
		}
	}
	if !slices.Contains(s.Legal(1), Pass) {
		t.Fatal("no pass after the resume")
	}
	enginetest.Replay(t, s, Pass, Pass)
	if !s.Scoring() || len(s.Dead()) != 0 {
		t.Fatalf("second phase: scoring %v, dead %v", s.Scoring(), s.Dead())
	}
	// A5 captured nothing: black's area still touches B5, so it is
	// nobody's.
	if sc := s.Score().(map[string]int); sc["black"] != 11 || sc["white"] != 37 {
		t.Fatalf("score of the board as it stands: %v", sc)
	}
}

// TestToggleGroup: a toggle marks the stone's group, its chain and the
// chains of its color sharing a liberty with it, and a second toggle on
// any of its stones brings the whole group back; Mark sets exactly the
// stones it is given.
func TestToggleGroup(t *testing.T) {
	// Black's wall on column E and white's on F; inside black's area white
	// has C6-C7 and D5, two chains sharing the liberties C5 and D6, and
	// A1 alone, a group of its own.
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	moves = append(moves, "A9", "C6", "B9", "C7", "A8", "D5", "B8", "A1", Pass, Pass)
	s := newWith(t, "9", "", engine.Options{Removal: true})
	enginetest.Replay(t, s, moves...)
	if err := s.Toggle(0, "C7"); err != nil {
		t.Fatal(err)
	}
	if got := s.Dead(); !slices.Equal(got, []string{"D5", "C6", "C7"}) {
		t.Fatalf("dead %v, want the group D5 C6 C7", got)
	}
	if err := s.Toggle(1, "A1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Toggle(0, "D5"); err != nil {
		t.Fatal(err)
	}
	if got := s.Dead(); !slices.Equal(got, []string{"A1"}) {
		t.Fatalf("dead %v, want A1 alone", got)
	}
	if err := s.Mark([]string{"C6", "B8"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Dead(); !slices.Equal(got, []string{"C6", "B8"}) {
		t.Fatalf("marked %v", got)
	}
	wantCode(t, s.Mark([]string{"D6"}), engine.CodeIllegalMove, "D6 is empty")
	if got := s.Dead(); !slices.Equal(got, []string{"C6", "B8"}) {
		t.Fatalf("a refused mark changed the marking: %v", got)
	}
}

// TestJudge: the server's proposal marks the white stone alone in black's
// area of the wall game dead, and nothing else; on a board where each side
// has a live group (two eyes) nothing is dead; the same seed gives the
// same answer.
func TestJudge(t *testing.T) {
	s := newWith(t, "9", "", engine.Options{Removal: true})
	playWall(t, s)
	before, _ := s.MarshalJSON()
	got := s.Judge(engine.Budget{Seed: 1})
	if !slices.Equal(got, []string{"B5"}) {
		t.Fatalf("judged dead %v, want [B5]", got)
	}
	if after, _ := s.MarshalJSON(); string(after) != string(before) {
		t.Fatal("Judge changed the state")
	}
	small := engine.Budget{Seed: 3, Work: 300}
	if a, b := s.Judge(small), s.Judge(small); !slices.Equal(a, b) {
		t.Fatalf("the same seed and budget judged %v, then %v", a, b)
	}
	// Two walls and nothing else: everything lives.
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	alive := newWith(t, "9", "", engine.Options{Removal: true})
	enginetest.Replay(t, alive, append(moves, Pass, Pass)...)
	if got := alive.Judge(engine.Budget{Seed: 2, Work: 500}); len(got) != 0 {
		t.Fatalf("judged dead %v on a board where everything lives", got)
	}
}

// TestScoringSnapshotRefusals: a snapshot whose marking cannot stand is
// refused.
func TestScoringSnapshotRefusals(t *testing.T) {
	s := newWith(t, "9", "", engine.Options{Removal: true})
	playWall(t, s)
	if err := s.Toggle(0, "B5"); err != nil {
		t.Fatal(err)
	}
	good, _ := s.MarshalJSON()
	if _, err := Game().Restore(good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"dead on an empty point":  strings.Replace(string(good), `"dead":["B5"]`, `"dead":["D5"]`, 1),
		"dead out of order":       strings.Replace(string(good), `"dead":["B5"]`, `"dead":["B5","C3"]`, 1),
		"accepted seat 2":         strings.Replace(string(good), `"dead":["B5"]`, `"dead":["B5"],"accepted":[2]`, 1),
		"accepted twice":          strings.Replace(string(good), `"dead":["B5"]`, `"dead":["B5"],"accepted":[0,0]`, 1),
		"no removal":              strings.Replace(string(good), `"options":{"removal":true}`, `"options":{"komi":6.5}`, 1),
		"komi 7":                  strings.Replace(string(good), `"options":{"removal":true}`, `"options":{"komi":7,"removal":true}`, 1),
		"handicap 1":              strings.Replace(string(good), `"options":{"removal":true}`, `"options":{"handicap":1,"removal":true}`, 1),
		"unknown option":          strings.Replace(string(good), `"options":{"removal":true}`, `"options":{"removal":true,"x":1}`, 1),
		"dead before two passes ": strings.Replace(string(good), `,"pass","pass"`, ``, 1),
	} {
		if bad == string(good) {
			t.Fatalf("%s: the case changed nothing", name)
		}
		if _, err := Game().Restore([]byte(bad)); err == nil {
			t.Errorf("%s: restored %s", name, bad)
		}
	}
}

// BenchmarkJudge is the server's proposal at the default budget on each
// board, from a position after two passes: the cost docs/engines/go.md
// quotes for the bot pool's judge job.
//
//	go test -run '^$' -bench Judge -benchtime 5x ./engine/gogame/
func BenchmarkJudge(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := newWith(b, strconv.Itoa(n), "", engine.Options{Removal: true})
			var moves []string
			for row := 1; row <= n; row++ {
				moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
			}
			enginetest.Replay(b, s, append(moves, "C3", "B5", Pass, Pass)...)
			for i := 0; b.Loop(); i++ {
				s.Judge(engine.Budget{Seed: uint64(i)})
			}
		})
	}
}
