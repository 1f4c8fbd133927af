package orbito

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
)

// TestGoldenSeedBoard prints the seed's TAD position and the board after
// one rotation as tabuleiro_para_str does.
func TestGoldenSeedBoard(t *testing.T) {
	s := newFromSetup(t, "2", seedBlack, seedWhite, "black")
	var b strings.Builder
	b.WriteString(s.String())
	s.cells = s.cells.rotate(s.geo)
	b.WriteString(s.String())
	enginetest.Golden(t, "seed_board.golden", b.String())
}

// TestGoldenTranscripts prints every board of the seed's three games in the
// seed's format, each bot answer asked from the bot.
func TestGoldenTranscripts(t *testing.T) {
	for i, tr := range seedgames.Of("orbito") {
		t.Run(tr.Name, func(t *testing.T) {
			s := enginetest.New(t, Game(), "2", "", 0).(*state)
			var b strings.Builder
			b.WriteString(s.String())
			for _, tn := range tr.Turns {
				seat, _ := s.Turn()
				move := tn.Move
				who := "player"
				if tn.Bot {
					who = "bot " + tr.Level
					var err error
					if move, err = enginetest.Bot(t, Game(), tr.Level)(s.Clone(), seat, nil, noDeadline); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Apply(seat, move); err != nil {
					t.Fatalf("Apply(%d, %s): %v", seat, move, err)
				}
				fmt.Fprintf(&b, "%s %c (%s): %s\n%s", stoneOfSeat(seat).name(), stoneOfSeat(seat).char(), who, move, s)
			}
			fmt.Fprintf(&b, "outcome: %+v\n", s.Outcome())
			enginetest.Golden(t, fmt.Sprintf("exemplo%d.golden", i+1), b.String())
		})
	}
}
