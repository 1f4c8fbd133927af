package orbito

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
)

// TestLinesOfSeedTranscripts: the final lines of the seed's Exemplos 1-3,
// read off their printed final boards, and no "lines" before the end.
func TestLinesOfSeedTranscripts(t *testing.T) {
	want := map[string][]engine.Line{
		"orbito Exemplo 1 facil, human O": {{Seat: 1, Cells: []string{"a4", "b4", "c4", "d4"}}},
		"orbito Exemplo 2 normal, human X": {
			{Seat: 0, Cells: []string{"a2", "b2", "c2", "d2"}},
			{Seat: 1, Cells: []string{"a3", "b3", "c3", "d3"}},
		},
		"orbito Exemplo 3 two players": {{Seat: 0, Cells: []string{"d1", "d2", "d3", "d4"}}},
	}
	for _, tr := range seedgames.Of("orbito") {
		t.Run(tr.Name, func(t *testing.T) {
			s, err := Game().New(tr.Variant, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, turn := range tr.Turns {
				if x := s.Extra(); x != nil {
					t.Fatalf("extra while playing: %v", x)
				}
				enginetest.Replay(t, s, turn.Move)
			}
			if got := s.Extra()["lines"]; !reflect.DeepEqual(got, want[tr.Name]) {
				t.Errorf("lines %v, want %v", got, want[tr.Name])
			}
		})
	}
}

// TestLinesOfRandomGames: at the end of random games of every size,
// "lines" is there exactly when the reason is line or both_lines, and it
// lists every full row, column and main diagonal of the final board,
// found here by reading the board view, with seats that match the result.
func TestLinesOfRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	reasons := map[string]int{}
	for n := minOrbits; n <= maxOrbits; n++ {
		for range 300 {
			s := randomPosition(n, rng, 1<<10)
			rows := s.Board().([]string)
			k := len(rows)
			name := func(r, c int) string { return s.geo.names[r*k+c] }
			var want []engine.Line
			for seat, ch := range []byte{'X', 'O'} {
				var cand [][]string
				for r := range k {
					var l []string
					for c := range k {
						l = append(l, name(r, c))
					}
					cand = append(cand, l)
				}
				for c := range k {
					var l []string
					for r := range k {
						l = append(l, name(r, c))
					}
					cand = append(cand, l)
				}
				var diag, anti []string
				for i := range k {
					diag = append(diag, name(i, i))
					anti = append(anti, name(k-1-i, i))
				}
				cand = append(cand, diag, anti)
				for _, l := range cand {
					full := true
					for _, sq := range l {
						r, c := square(t, s.geo, sq)/k, square(t, s.geo, sq)%k
						full = full && rows[r][c] == ch
					}
					if full {
						want = append(want, engine.Line{Seat: seat, Cells: l})
					}
				}
			}
			out := s.Outcome()
			reasons[out.Reason]++
			got, ok := s.Extra()["lines"]
			switch out.Reason {
			case ReasonLine, ReasonBothLines:
				if !ok || !reflect.DeepEqual(got, want) {
					t.Fatalf("%q ended by %s: lines %v, want %v", rows, out.Reason, got, want)
				}
				for _, l := range want {
					if out.Reason == ReasonLine && l.Seat != out.Winner {
						t.Fatalf("%q won by %d: a line of seat %d", rows, out.Winner, l.Seat)
					}
				}
			default:
				if ok || len(want) > 0 {
					t.Fatalf("%q ended by %s: lines %v, board lines %v", rows, out.Reason, got, want)
				}
			}
		}
	}
	for _, r := range []string{ReasonLine, ReasonBothLines, ReasonBoardFull} {
		if reasons[r] == 0 {
			t.Errorf("no game ended by %s (%v)", r, reasons)
		}
	}
}
