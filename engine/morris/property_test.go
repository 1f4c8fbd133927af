package morris

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// allMoveStrings is every well-formed move: the 9 placements and the 81
// from+to pairs, passes included.
var allMoveStrings = func() []string {
	var out []string
	for p := range point(numPoints) {
		out = append(out, p.String())
	}
	for p := range point(numPoints) {
		for q := range point(numPoints) {
			out = append(out, p.String()+q.String())
		}
	}
	return out
}()

// bruteLegal lists the legal moves of the side to move by the rules
// written out again, point by point, independently of position.moves: the
// order is the reading order of the (from, to) pairs.
func bruteLegal(p position) []string {
	me := p.toMove
	var out []string
	if p.board.count(me) < piecesEach {
		for q := range point(numPoints) {
			if p.board[q] == free {
				out = append(out, q.String())
			}
		}
		return out
	}
	for from := range point(numPoints) {
		for to := range point(numPoints) {
			dc, dr := abs(from.col()-to.col()), abs(from.row()-to.row())
			lined := dc+dr == 1 || (dc == 1 && dr == 1 && (from == 4 || to == 4))
			if p.board[from] == me && p.board[to] == free && lined {
				out = append(out, from.String()+to.String())
			}
		}
	}
	if len(out) == 0 {
		for q := range point(numPoints) {
			if p.board[q] == me {
				out = append(out, q.String()+q.String())
			}
		}
	}
	return out
}

// Thousands of random games from the start: Legal agrees with the rules
// written out independently, every well-formed move is accepted exactly
// when Legal lists it (checked on some games), piece counts never exceed
// three and follow the phase, and every game ends with a line or a
// repetition.
func TestRandomGames(t *testing.T) {
	games := 4000
	if testing.Short() {
		games = 500
	}
	reasons := map[string]int{}
	for g := range games {
		rng := rand.New(rand.NewPCG(uint64(g), 0x3a11))
		s := newState(initialPosition)
		for ply := 0; !s.outcome.Over; ply++ {
			seat := s.pos.toMove.seat()
			legal := s.Legal(seat)
			if want := bruteLegal(s.pos); !slices.Equal(legal, want) {
				t.Fatalf("game %d ply %d %q: Legal = %v, want %v", g, ply, s.pos.board.rows(), legal, want)
			}
			if g%20 == 0 {
				for _, m := range allMoveStrings {
					c := s.Clone()
					if err := c.Apply(seat, m); (err == nil) != slices.Contains(legal, m) {
						t.Fatalf("game %d ply %d %q: Apply(%q) = %v, Legal %v", g, ply, s.pos.board.rows(), m, err, legal)
					}
				}
			}
			if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatalf("game %d ply %d: %v", g, ply, err)
			}
			if err := s.pos.validate(); err != nil {
				t.Fatalf("game %d ply %d: impossible position %q: %v", g, ply, s.pos.board.rows(), err)
			}
		}
		reasons[s.outcome.Reason]++
	}
	if reasons[ReasonLine] == 0 || reasons[ReasonRepetition] == 0 || len(reasons) != 2 {
		t.Errorf("reasons over %d games: %v, want both line and repetition and nothing else", games, reasons)
	}
}
