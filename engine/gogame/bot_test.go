package gogame

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// TestBotOnSeedPositions builds every position the seed prints from its
// setup JSON and asks the basico bot, as POST /api/bot/move would.
func TestBotOnSeedPositions(t *testing.T) {
	ex2 := seedTranscripts[1].setup
	for _, tc := range []struct {
		name  string
		setup string
		// want lists the moves the bot may answer; nil means any legal
		// move.
		want []string
	}{
		{"goban example, black to move", setupJSON(t, seedBlack, seedWhite, "black"), nil},
		{"corner, white captures three", setupJSON(t, seedBlackCorner, seedWhite, "white"), []string{"B2"}},
		{"ko position, black captures C2", setupJSON(t, []string{"C1", "C3", "D1", "D2"}, []string{"A2", "B1", "B3", "C2"}, "black"), []string{"B2"}},
		{"ko position, white captures C3", setupJSON(t, []string{"C1", "C3", "D1", "D2"}, []string{"A2", "B1", "B3", "C2"}, "white"), nil},
		{"example 2, black to move", ex2, nil},
		{"example 2, white captures", `{"white":["C2","D2","E2","F2","G2","H2","B3","I3","B4","D4","E4","F4","B5","D5","G5","I5","B6","D6","E6","F6","G6","I6","C7","I7","C8","D8","E8","F8","G8","H8","I8"],` +
			`"black":["C3","D3","E3","F3","G3","C4","G4","H4","C5","H5","C6","H6","D7","E7","F7","G7","H7","E5"],"toMove":"white"}`, []string{"F5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := enginetest.Bot(t, Game(), "basico")
			s := mustNew(t, "9", tc.setup)
			seat, _ := s.Turn()
			for i := range 20 {
				move, err := bot(s.Clone(), seat, rand.New(rand.NewPCG(uint64(i), 7)), time.Now().Add(time.Second))
				if err != nil {
					t.Fatalf("bot: %v", err)
				}
				if !slices.Contains(s.Legal(seat), move) {
					t.Fatalf("bot move %q is not legal", move)
				}
				if tc.want != nil && !slices.Contains(tc.want, move) {
					t.Fatalf("bot played %q, want one of %v", move, tc.want)
				}
			}
		})
	}
}

// TestBotChoices checks each rule of basico on small positions.
func TestBotChoices(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup string
		moves []string // played before asking
		want  []string
	}{
		// White D4 in atari (liberty D5) and nothing to capture: escape.
		{"escape atari", `{"black":["C4","E4","D3"],"white":["D4","A9"],"toMove":"white"}`, nil, []string{"D5"}},
		// Capture the larger group first: C1 captures two, H9 one.
		{"largest capture", `{"black":["A1","B1","H8"],"white":["A2","B2","G9","I8","D1","H7","I7"],"toMove":"white"}`, nil, []string{"C1"}},
		// Opponent passed and white leads on area score: pass to end.
		{"pass when winning", `{"white":["E5"],"toMove":"black"}`, []string{"pass"}, []string{"pass"}},
		// Only own eyes and self-atari remain: pass.
		{"pass instead of filling eyes", `{"black":["B1","A2","B2","C2","C1","D1","D2","E1","E2","F1","F2","G1","G2","I1","H2","I2","A3","B3","C3","D3","E3","F3","G3","H3","I3","A4","B4","C4","D4","E4","F4","G4","H4","I4","A5","B5","C5","D5","E5","F5","G5","H5","I5","A6","B6","C6","D6","E6","F6","G6","H6","I6","A7","B7","C7","D7","E7","F7","G7","H7","I7","A8","B8","C8","D8","E8","F8","G8","H8","I8","A9","B9","C9","D9","E9","F9","G9","H9"],"toMove":"black"}`, nil, []string{"pass"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, "9", tc.setup)
			for _, m := range tc.moves {
				seat, _ := s.Turn()
				if err := s.Apply(seat, m); err != nil {
					t.Fatal(err)
				}
			}
			seat, _ := s.Turn()
			for i := range 10 {
				move, err := basicBot(s.Clone(), seat, rand.New(rand.NewPCG(uint64(i), 1)), time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(tc.want, move) {
					t.Fatalf("bot played %q, want one of %v\n%s", move, tc.want, s)
				}
			}
		})
	}
}

// TestBotRefusals checks that the bot refuses a wrong seat, a finished game
// and a foreign state, and that Bot knows no other level.
func TestBotRefusals(t *testing.T) {
	s := mustNew(t, "9", "")
	if _, err := basicBot(s, 1, rand.New(rand.NewPCG(1, 1)), time.Time{}); engine.CodeOf(err) != engine.CodeNotYourTurn {
		t.Errorf("bot for the wrong seat: %v, want %s", err, engine.CodeNotYourTurn)
	}
	if _, ok := Game().Bot("dificil"); ok {
		t.Error("Bot(\"dificil\") exists")
	}
}

// TestBotGamesEnd plays basico against itself: every game ends by two
// passes within a sane number of moves and every move is legal.
func TestBotGamesEnd(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for i := range games {
		s := mustNew(t, "9", "")
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		for ply := 0; !s.Outcome().Over; ply++ {
			if ply > 400 {
				t.Fatalf("game %d not over after 400 plies\n%s", i, s)
			}
			seat, _ := s.Turn()
			move, err := basicBot(s.Clone(), seat, rng, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Apply(seat, move); err != nil {
				t.Fatalf("game %d ply %d: bot move %q refused: %v", i, ply, move, err)
			}
		}
	}
}
