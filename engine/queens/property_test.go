package queens

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// TestRandomGameProperties plays thousands of random games through the
// public API and checks, after every move, that pieces are conserved
// (placed + in hand), that seats alternate and own what they placed, that
// no placed piece attacks another, and that every finished game is won by
// the last to place with a reason from the rules.
func TestRandomGameProperties(t *testing.T) {
	t.Parallel()
	games := map[string]int{"tradicional": 1200, "grande": 300, "impar": 500, "x-random": 1200}
	for _, v := range variants {
		t.Run(v.id, func(t *testing.T) {
			var reasons = map[string]int{}
			for i := range games[v.id] {
				reasons[playRandomGame(t, v.id, uint64(i))]++
			}
			// Random play must reach both ends of the game: a player stuck,
			// and, in the variants with few pieces, all pieces placed.
			if reasons[ReasonNoValidPlacement] == 0 {
				t.Errorf("no game ended with %s: %v", ReasonNoValidPlacement, reasons)
			}
			if v.id != "grande" && reasons[ReasonAllPlaced] == 0 {
				t.Errorf("no game ended with %s: %v", ReasonAllPlaced, reasons)
			}
			if reasons[ReasonInvalidPlacement] != 0 {
				t.Errorf("%d games ended with %s, which only a setup can reach", reasons[ReasonInvalidPlacement], ReasonInvalidPlacement)
			}
		})
	}
}

// playRandomGame plays one random game and returns its outcome's reason.
func playRandomGame(t *testing.T, variant string, seed uint64) string {
	t.Helper()
	st, err := Game().New(variant, nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	rng := rand.New(rand.NewPCG(seed, 1))
	total := len(s.hands[0]) + len(s.hands[1])
	lastMover := -1
	for ply := 0; ; ply++ {
		if ply > total {
			t.Fatalf("%s seed %d: %d plies with %d pieces", variant, seed, ply, total)
		}
		out := s.Outcome()
		if out.Over {
			if out.Winner != lastMover {
				t.Fatalf("%s seed %d: winner %d, but %d placed last (%s)", variant, seed, out.Winner, lastMover, out.Reason)
			}
			return out.Reason
		}
		seat, _ := s.Turn()
		if want := ply % 2; seat != want {
			t.Fatalf("%s seed %d ply %d: seat %d to move, want %d", variant, seed, ply, seat, want)
		}
		if s.Legal(1-seat) != nil {
			t.Fatalf("%s seed %d ply %d: the seat not to move has moves", variant, seed, ply)
		}
		legal := s.Legal(seat)
		if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
			t.Fatalf("%s seed %d ply %d: %v", variant, seed, ply, err)
		}
		lastMover = seat
		placed := strings.Join(s.Board().([]string), "")
		owners := strings.Join(s.Extra()["owners"].([]string), "")
		n := len(placed) - strings.Count(placed, ".")
		if n != ply+1 || n+len(s.hands[0])+len(s.hands[1]) != total {
			t.Fatalf("%s seed %d ply %d: %d placed and %d in hand, want %d and %d in all", variant, seed, ply, n, len(s.hands[0])+len(s.hands[1]), ply+1, total)
		}
		if c0, c1 := strings.Count(owners, "0"), strings.Count(owners, "1"); c0 != (ply+2)/2 || c1 != (ply+1)/2 {
			t.Fatalf("%s seed %d ply %d: owners %d and %d", variant, seed, ply, c0, c1)
		}
		if s.hasConflict() {
			t.Fatalf("%s seed %d ply %d: placed pieces attack each other", variant, seed, ply)
		}
	}
}

// TestRefusedMovesChangeNothing tries, in random positions, every piece on
// every square: a move is accepted exactly when Legal lists it, and a
// refusal leaves the snapshot unchanged.
func TestRefusedMovesChangeNothing(t *testing.T) {
	for i, s := range randomPositions(t, 8) {
		if s.geo.size > 8 && i%5 != 0 {
			continue
		}
		seat := s.toMove
		legal := map[string]bool{}
		for _, m := range s.Legal(seat) {
			legal[m] = true
		}
		before, _ := s.MarshalJSON()
		for p := range pieceLetters {
			for sq := range s.board {
				mv := s.moveName(move{p, sq})
				c := s.clone()
				err := c.Apply(seat, mv)
				if (err == nil) != legal[mv] {
					t.Fatalf("position %d: Apply(%s) = %v, legal %v", i, mv, err, legal[mv])
				}
				if err != nil {
					if engine.CodeOf(err) != engine.CodeIllegalMove {
						t.Fatalf("position %d: Apply(%s) code %s, want illegal_move", i, mv, engine.CodeOf(err))
					}
					if after, _ := c.MarshalJSON(); string(after) != string(before) {
						t.Fatalf("position %d: refused %s changed the state", i, mv)
					}
				}
			}
		}
	}
}
