package gogame

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// These tests give the MCTS bot a playout budget and no deadline, so that
// every answer depends only on the position and the seed: no test reads
// the clock.

// budgetBot is an MCTS bot of n playouts on one thread.
func budgetBot(n int) engine.Bot { return mctsBot(mctsLevel{playouts: n, threads: 1}) }

// ask asks bot for seat's move with a fixed seed and no deadline.
func ask(t *testing.T, bot engine.Bot, s *state, seed uint64) string {
	t.Helper()
	seat, ok := s.Turn()
	if !ok {
		t.Fatal("game over, nobody to move")
	}
	move, err := bot(s.Clone(), seat, rand.New(rand.NewPCG(seed, 1)), time.Time{})
	if err != nil {
		t.Fatalf("bot: %v", err)
	}
	if !slices.Contains(s.Legal(seat), move) {
		t.Fatalf("bot move %q is not legal in\n%s", move, s)
	}
	return move
}

// stones lists the intersections of rows of a board picture (top row first,
// 'X' black, 'O' white) in the setup's notation.
func stones(rows []string) (blackStones, whiteStones []string) {
	n := len(rows)
	for i, row := range rows {
		for c, ch := range strings.ReplaceAll(row, " ", "") {
			name := columns[c:c+1] + itoa(n-i)
			switch ch {
			case 'X':
				blackStones = append(blackStones, name)
			case 'O':
				whiteStones = append(whiteStones, name)
			}
		}
	}
	return blackStones, whiteStones
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

// fromRows starts a 9x9 game from a board picture.
func fromRows(t *testing.T, toMove string, rows ...string) *state {
	t.Helper()
	b, w := stones(rows)
	return mustNew(t, itoa(len(rows)), setupJSON(t, b, w, toMove))
}

// TestMCTSTactics checks answers that any sensible player gives, for
// several seeds each.
func TestMCTSTactics(t *testing.T) {
	for _, tc := range []struct {
		name   string
		toMove string
		rows   []string
		want   []string
	}{
		{
			// The white chain D5-E5-F5 has a single liberty, G5.
			name: "captures a chain in atari", toMove: "black",
			rows: []string{
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . X X X . . .",
				". . X O O O . . .",
				". . . X X X O . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
			},
			want: []string{"G5"},
		},
		{
			// The black chain D5-E5-F5 has a single liberty, G5; extending
			// there gives it four.
			name: "saves its chain in atari", toMove: "black",
			rows: []string{
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . O O O . . .",
				". . O X X X . . .",
				". . . O O O . . .",
				". . . . . . . . .",
				". . . X . . . . .",
				". . . . . . . . .",
			},
			want: []string{"G5"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fromRows(t, tc.toMove, tc.rows...)
			for seed := range uint64(3) {
				if got := ask(t, budgetBot(1000), s, seed); !slices.Contains(tc.want, got) {
					t.Errorf("seed %d: played %s, want one of %v", seed, got, tc.want)
				}
			}
		})
	}
}

// twoEyes is a finished 9x9 board: black owns the left five columns with
// two eyes (A2 and A8), white the right four with two eyes (I2, I8).
var twoEyes = []string{
	"X X X X X O O O O",
	". X X X X O O O .",
	"X X X X X O O O O",
	"X X X X X O O O O",
	"X X X X X O O O O",
	"X X X X X O O O O",
	"X X X X X O O O O",
	". X X X X O O O .",
	"X X X X X O O O O",
}

// TestMCTSKeepsEyes checks that the bot never fills its own eye: on the
// finished board its only moves are its two eyes, the opponent's eyes
// (suicide, illegal) and pass, so it passes.
func TestMCTSKeepsEyes(t *testing.T) {
	for _, toMove := range []string{"black", "white"} {
		s := fromRows(t, toMove, twoEyes...)
		for seed := range uint64(3) {
			if got := ask(t, budgetBot(500), s, seed); got != Pass {
				t.Errorf("%s, seed %d: played %s, want pass", toMove, seed, got)
			}
		}
	}
}

// TestMCTSPassesWhenWon checks the end of a won game: after the opponent's
// pass the bot passes when the board as it stands wins (45 to 36 for black;
// white wins ties).
func TestMCTSPassesWhenWon(t *testing.T) {
	s := fromRows(t, "white", twoEyes...)
	if err := s.Apply(1, Pass); err != nil {
		t.Fatal(err)
	}
	if got := ask(t, budgetBot(500), s, 1); got != Pass {
		t.Fatalf("black played %s after white's pass on a won board, want pass", got)
	}
	if err := s.Apply(0, Pass); err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); !o.Over || o.Winner != 0 {
		t.Fatalf("outcome %+v, want a black win", o)
	}
}

// TestMCTSCapturesDeadStonesBeforePassing gives black a board it loses as
// it stands, because two dead white stones sit in its area and our scoring
// removes nothing. White passes every turn; black must not pass while it
// loses, must capture the dead stones, and then pass to win.
func TestMCTSCapturesDeadStonesBeforePassing(t *testing.T) {
	s := fromRows(t, "white",
		". . . . X O . . .",
		". . . . X O . . .",
		". O . . X O . . .",
		". . . . X O . . .",
		". . . . X O . . .",
		". . . . X O . . .",
		". O . . X O . . .",
		". . . . X O . . .",
		". . . . X O . . .",
	)
	if sc := scoreOf(t, s); sc.Black >= sc.White {
		t.Fatalf("setup score %+v: black should be behind as the board stands", sc)
	}
	bot := budgetBot(500)
	for ply := 0; ply < 40 && !s.Outcome().Over; ply++ {
		if err := s.Apply(1, Pass); err != nil {
			t.Fatal(err)
		}
		sc := scoreOf(t, s)
		move := ask(t, bot, s, uint64(ply))
		if move == Pass && sc.Black <= sc.White {
			t.Fatalf("black passed at %+v, a lost count", sc)
		}
		if err := s.Apply(0, move); err != nil {
			t.Fatal(err)
		}
	}
	o := s.Outcome()
	if !o.Over || o.Winner != 0 {
		t.Fatalf("outcome %+v, want a black win after capturing; board\n%s", o, s)
	}
}

// TestMCTSLegalOnRandomPositions asks the bot on positions reached by random
// legal moves on every board size, ko and superko fights included, and
// checks every answer is legal (ask fails otherwise).
func TestMCTSLegalOnRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	bot := budgetBot(64)
	for _, variant := range []string{"9", "13", "19"} {
		for range 15 {
			st, err := Game().New(variant, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*state)
			plies := rng.IntN(4 * len(s.board.cells))
			for range plies {
				seat, ok := s.Turn()
				if !ok {
					break
				}
				legal := s.Legal(seat)
				if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok := s.Turn(); ok {
				ask(t, bot, s, rng.Uint64())
			}
		}
	}
}

// TestMCTSDeterministic checks that a playout budget without a deadline
// makes the move a function of the seed, with one thread and with several.
func TestMCTSDeterministic(t *testing.T) {
	s := mustNew(t, "9", "")
	for _, m := range []string{"E5", "C3", "G7"} {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, threads := range []int{1, 3} {
		bot := mctsBot(mctsLevel{playouts: 600, threads: threads})
		first := ask(t, bot, s, 9)
		for range 3 {
			if again := ask(t, bot, s, 9); again != first {
				t.Fatalf("threads %d: %s then %s with the same seed", threads, first, again)
			}
		}
	}
}

// playGame plays one game between two bots from the empty board (bots[0]
// is black) with per-ply seeds from seed, and returns the winning seat.
func playGame(t *testing.T, variant string, bots [2]engine.Bot, seed uint64) int {
	t.Helper()
	st, err := Game().New(variant, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	for ply := 0; ; ply++ {
		seat, ok := s.Turn()
		if !ok {
			return s.Outcome().Winner
		}
		if ply > 4*len(s.board.cells) {
			t.Fatalf("game of seed %d did not end after %d plies", seed, ply)
		}
		move, err := bots[seat](s.Clone(), seat, rand.New(rand.NewPCG(seed, uint64(ply))), time.Time{})
		if err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		if err := s.Apply(seat, move); err != nil {
			t.Fatalf("seat %d played %q: %v", seat, move, err)
		}
	}
}

// TestMCTSBeatsBasico plays 10 fixed-seed games against basico on 9x9, the
// MCTS bot half of them as black, and expects at least 8 wins.
func TestMCTSBeatsBasico(t *testing.T) {
	mcts, basico := budgetBot(200), engine.Bot(basicBot)
	wins := 0
	for g := range 10 {
		mctsSeat := g % 2
		bots := [2]engine.Bot{mcts, basico}
		if mctsSeat == 1 {
			bots = [2]engine.Bot{basico, mcts}
		}
		if playGame(t, "9", bots, uint64(g)) == mctsSeat {
			wins++
		}
	}
	if wins < 8 {
		t.Fatalf("MCTS won %d of 10 games against basico, want at least 8", wins)
	}
	t.Logf("MCTS won %d of 10 against basico", wins)
}

// TestPatterns checks the 3x3 pattern table on shapes drawn by hand, and
// that a match does not depend on the orientation or the colors.
func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []string // 5x5 around the move at C3 (the center)
		want bool
	}{
		{"empty board", []string{".....", ".....", ".....", ".....", "....."}, false},
		{"enclosing hane", []string{".....", ".XOX.", ".....", ".....", "....."}, true},
		{"cut 1", []string{".....", ".XO..", ".O...", ".....", "....."}, true},
		{"peeped cut", []string{".....", ".XO..", ".O.X.", "..X..", "....."}, true},
		{"opposite corners", []string{".....", ".X...", ".....", "...O.", "....."}, false},
		{"lone stone", []string{".....", "..X..", ".....", ".....", "....."}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for sym := range 8 {
				for _, swap := range []bool{false, true} {
					rows := transform5(tc.rows, sym, swap)
					p := NewPlayout(9)
					for r, row := range rows {
						for c, ch := range row {
							v := (r+3)*p.stride + c + 3 // rows 2..6, columns 2..6 of the 9x9 board
							switch ch {
							case 'X':
								p.place(v, black)
							case 'O':
								p.place(v, white)
							}
						}
					}
					if got := p.matchesPattern(5*p.stride + 5); got != tc.want {
						t.Fatalf("symmetry %d swap %v: match %v, want %v for %q", sym, swap, got, tc.want, rows)
					}
				}
			}
		})
	}
}

// transform5 rotates a 5x5 picture sym%4 quarter turns, mirrors it when
// sym >= 4 and swaps the colors when swap is set.
func transform5(rows []string, sym int, swap bool) []string {
	g := make([][]byte, 5)
	for i := range g {
		g[i] = []byte(rows[i])
	}
	for range sym % 4 {
		n := make([][]byte, 5)
		for i := range n {
			n[i] = make([]byte, 5)
			for j := range n[i] {
				n[i][j] = g[4-j][i]
			}
		}
		g = n
	}
	out := make([]string, 5)
	for i, r := range g {
		if sym >= 4 {
			slices.Reverse(r)
		}
		s := string(r)
		if swap {
			s = strings.NewReplacer("X", "O", "O", "X").Replace(s)
		}
		out[i] = s
	}
	return out
}
