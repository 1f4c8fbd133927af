package gogame

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestMarshalJSONIsEncodingJSON: the hand-written encoder writes the same
// bytes as encoding/json writes for the snapshot struct, on every position
// of random games of each size, from an empty board and from a setup.
func TestMarshalJSONIsEncodingJSON(t *testing.T) {
	tests := []struct {
		name, variant, setup string
	}{
		{"9x9", "9", ""},
		{"13x13", "13", ""},
		{"19x19", "19", ""},
		{"9x9 setup, white to move", "9", setupJSON(t, []string{"C3", "D4"}, []string{"E5"}, "white")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(tt.name))))
			s := mustNew(t, tt.variant, tt.setup)
			for ply := 0; ply < 150 && !s.over(); ply++ {
				checkMarshalJSON(t, s, fmt.Sprintf("ply %d", ply))
				seat, _ := s.Turn()
				legal := s.Legal(seat)
				if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkMarshalJSON fails the test, naming the position where, unless
// s.MarshalJSON writes what encoding/json writes for s's snapshot struct;
// it returns the bytes written.
func checkMarshalJSON(t *testing.T, s *state, where string) []byte {
	t.Helper()
	got, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	moves := s.moves
	if moves == nil {
		moves = []string{}
	}
	snap := snapshot{Variant: s.variant, Start: s.start, Moves: moves,
		Board: s.board.rows(), ToMove: s.toMove.name(), Dead: s.deadList}
	if o := s.options(); !o.IsZero() {
		snap.Options = &optionsSnap{Komi: o.Komi, Handicap: o.Handicap, Removal: o.Removal}
	}
	for seat, ok := range s.accepted {
		if ok {
			snap.Accepted = append(snap.Accepted, seat)
		}
	}
	want, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s: MarshalJSON\n got %s\nwant %s", where, got, want)
	}
	return got
}

// TestMarshalJSONLongGame: the snapshot, whose move list is kept encoded
// between moves, is still what encoding/json writes at every position of
// long 19x19 and 13x13 games (hundreds of moves, captures and passes), and
// a clone's snapshot is unchanged by the moves played after it was taken.
func TestMarshalJSONLongGame(t *testing.T) {
	for _, tt := range []struct {
		variant, setup string
		plies          int
	}{
		{"19", "", 900},
		{"13", setupJSON(t, []string{"A1", "G7"}, []string{"M13"}, "white"), 600},
	} {
		rng := rand.New(rand.NewPCG(11, uint64(tt.plies)))
		s := mustNew(t, tt.variant, tt.setup)
		var clone *state
		var cloneJSON []byte
		for ply := 0; ply < tt.plies && !s.over(); ply++ {
			got := checkMarshalJSON(t, s, fmt.Sprintf("go %s ply %d", tt.variant, ply))
			if ply%50 == 0 {
				if clone != nil {
					if again, _ := clone.MarshalJSON(); string(again) != string(cloneJSON) {
						t.Fatalf("go %s ply %d: the clone's snapshot changed\n got %s\nwant %s", tt.variant, ply, again, cloneJSON)
					}
				}
				clone, cloneJSON = s.Clone().(*state), got
			}
			seat, _ := s.Turn()
			legal := s.Legal(seat)
			move := legal[rng.IntN(len(legal))]
			if move == Pass && rng.IntN(20) > 0 {
				move = legal[rng.IntN(len(legal))]
			}
			if err := s.Apply(seat, move); err != nil {
				t.Fatal(err)
			}
		}
		if len(s.moves) < tt.plies/2 {
			t.Fatalf("go %s: the game ended after %d moves, want a long one", tt.variant, len(s.moves))
		}
	}
}
