package gogame

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// legalByCheck is Legal as the rules define it: every empty intersection
// that check accepts (occupied, suicide and superko refused), then pass.
func legalByCheck(s *state) []string {
	var out []string
	for p, c := range s.board.cells {
		if c != empty {
			continue
		}
		if _, err := s.check(p, s.toMove); err == nil {
			out = append(out, s.board.geo.names[p])
		}
	}
	return append(out, Pass)
}

// TestLegalAgreesWithCheck compares the one-pass Legal with a move-by-move
// check at every position of random games played to the end on every size
// (captures, suicides, kos and superko repetitions all occur in them).
func TestLegalAgreesWithCheck(t *testing.T) {
	games := map[string]int{"9": 8, "13": 1, "19": 1}
	positions, refusedBySuperko := 0, 0
	for variant, n := range games {
		for g := range n {
			rng := rand.New(rand.NewPCG(uint64(g), 77))
			s := mustNew(t, variant, "")
			for ply := 0; !s.over() && ply < 1500; ply++ {
				seat, _ := s.Turn()
				got, want := s.Legal(seat), legalByCheck(s)
				if !slices.Equal(got, want) {
					t.Fatalf("go %s game %d ply %d: Legal\n%v\nwant\n%v", variant, g, ply, got, want)
				}
				positions++
				for p, c := range s.board.cells {
					if c != empty {
						continue
					}
					o := s.board.try(p, s.toMove)
					if _, rep := s.seen[o.hash]; rep && !o.suicide {
						refusedBySuperko++
					}
				}
				// Mostly stones, rarely a pass, so games run long and fill up.
				move := got[rng.IntN(len(got))]
				if move == Pass && len(got) > 1 && rng.IntN(10) > 0 {
					move = got[rng.IntN(len(got)-1)]
				}
				if err := s.Apply(seat, move); err != nil {
					t.Fatalf("go %s game %d ply %d: Apply(%s): %v", variant, g, ply, move, err)
				}
			}
		}
	}
	t.Logf("%d positions compared, %d moves refused by superko among them", positions, refusedBySuperko)
	if refusedBySuperko == 0 {
		t.Error("no position had a superko refusal: the test does not exercise it")
	}
}

func ExampleGame_legal() {
	s, _ := Game().New("9", []byte(`{"black":["A2","B1"],"white":["A3","B2","C1"],"toMove":"white"}`), 0)
	fmt.Println(s.Legal(1)[:3])
	// Output: [A1 D1 E1]
}
