package morris

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
)

// TestLines: the seed's transcript ends on X's row 2, and a setup
// finished by O's column c shows that column; no "lines" while playing or
// after a repetition.
func TestLines(t *testing.T) {
	tr := seedgames.Of("morris")[0]
	s := mustNew(t, "")
	for _, turn := range tr.Turns {
		if _, ok := s.Extra()["lines"]; ok {
			t.Fatalf("lines while playing: %v", s.Extra())
		}
		enginetest.Replay(t, s, turn.Move)
	}
	want := []engine.Line{{Seat: 0, Cells: []string{"a2", "b2", "c2"}}}
	if got := s.Extra()["lines"]; !reflect.DeepEqual(got, want) {
		t.Errorf("seed transcript: lines %v, want %v", got, want)
	}
	over := mustNew(t, `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]]}`)
	want = []engine.Line{{Seat: 1, Cells: []string{"c1", "c2", "c3"}}}
	if got := over.Extra()["lines"]; !reflect.DeepEqual(got, want) {
		t.Errorf("seed's finished position: lines %v, want %v", got, want)
	}
}

// TestLinesOfRandomGames: at the end of random games, "lines" is there
// exactly when a line ended the game, and lists every row and column of
// three pieces of one player, written out by hand here, of the winner.
func TestLinesOfRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	byLine, byRepetition := 0, 0
	for range 2000 {
		s := mustNew(t, "")
		for !s.outcome.Over {
			seat, _ := s.Turn()
			legal := s.Legal(seat)
			enginetest.Replay(t, s, legal[rng.IntN(len(legal))])
		}
		rows := s.Board().([]string)
		var want []engine.Line
		for seat, c := range []byte{'X', 'O'} {
			for r := range 3 {
				if rows[r] == string([]byte{c, c, c}) {
					want = append(want, engine.Line{Seat: seat, Cells: []string{"a" + string(rune('1'+r)), "b" + string(rune('1'+r)), "c" + string(rune('1'+r))}})
				}
			}
			for col := range 3 {
				if rows[0][col] == c && rows[1][col] == c && rows[2][col] == c {
					l := string(rune('a' + col))
					want = append(want, engine.Line{Seat: seat, Cells: []string{l + "1", l + "2", l + "3"}})
				}
			}
		}
		got, ok := s.Extra()["lines"]
		switch s.outcome.Reason {
		case ReasonLine:
			byLine++
			if !ok || !reflect.DeepEqual(got, want) || want[0].Seat != s.outcome.Winner {
				t.Fatalf("%q won by %d: lines %v, want %v", rows, s.outcome.Winner, got, want)
			}
		default:
			byRepetition++
			if ok {
				t.Fatalf("%q ended by %s: lines %v", rows, s.outcome.Reason, got)
			}
		}
	}
	if byLine == 0 || byRepetition == 0 {
		t.Errorf("%d games ended by a line, %d by repetition: want both", byLine, byRepetition)
	}
}
