package queens

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// FuzzApply feeds arbitrary moves and seats to a game in progress: Apply
// never panics, accepts exactly the moves Legal lists for the seat to move,
// and a refusal is an *engine.Error that changes nothing.
func FuzzApply(f *testing.F) {
	for _, p := range probes {
		f.Add(0, p)
	}
	f.Add(0, "T@1,7")
	f.Add(0, "D@0,1")
	f.Add(1, "D@0,1")
	f.Add(5, "R@2,2")
	f.Add(0, "D@\x00,1")
	f.Add(0, "D@1,1\n")
	f.Add(0, "Ｄ@1,1")
	f.Fuzz(func(t *testing.T, seat int, mv string) {
		s, err := Game().New("tradicional", json.RawMessage(seedQ3Setup), 0)
		if err != nil {
			t.Fatal(err)
		}
		legal := s.Legal(seat)
		before, _ := s.MarshalJSON()
		err = s.Apply(seat, mv)
		if err == nil {
			if !slices.Contains(legal, mv) {
				t.Fatalf("Apply(%d, %q) accepted a move not in Legal", seat, mv)
			}
			return
		}
		if slices.Contains(legal, mv) {
			t.Fatalf("Apply(%d, %q) refused a legal move: %v", seat, mv, err)
		}
		if engine.CodeOf(err) == "" {
			t.Fatalf("Apply(%d, %q): %v is not an *engine.Error", seat, mv, err)
		}
		if after, _ := s.MarshalJSON(); string(after) != string(before) {
			t.Fatalf("refused Apply(%d, %q) changed the state", seat, mv)
		}
	})
}

// FuzzSetup feeds arbitrary setups to New: it never panics, refuses with
// bad_setup, and an accepted setup is a position whose snapshot restores
// byte for byte and whose pieces do not attack each other unless the game
// is already lost by an invalid placement.
func FuzzSetup(f *testing.F) {
	f.Add(0, []byte(seedQ3Setup))
	f.Add(0, []byte(`{"placed":{"3,0":"D","6,6":"R","1,7":"T","7,1":"D"},"hands":{"primeiro":["D","R","R"],"segundo":["D","R","T"]},"toMove":"primeiro"}`))
	f.Add(1, []byte(`{"placed":{"4,9":"D","8,7":"D","10,10":"D"},"hands":{"primeiro":["D"],"segundo":["D","D"]},"toMove":"segundo"}`))
	f.Add(2, []byte(`{"placed":{"6,6":"C"},"owners":{"6,6":1},"hands":{"primeiro":["B"],"segundo":[]},"toMove":"primeiro"}`))
	f.Add(3, []byte(`{"placed":{},"hands":{"primeiro":[],"segundo":[]},"toMove":"segundo"}`))
	f.Add(0, []byte(`{"placed":{"1,1":"R","1,1":"D"}}`))
	f.Add(0, []byte(`{"placed":{"01,1":"D"},"hands":{"primeiro":["D"],"segundo":["D"]},"toMove":"primeiro"}`))
	f.Add(0, []byte(`null`))
	f.Add(0, []byte(`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, v int, setup []byte) {
		variant := variants[uint(v)%uint(len(variants))].id
		s, err := Game().New(variant, setup, 1)
		if err != nil {
			if engine.CodeOf(err) != engine.CodeBadSetup {
				t.Fatalf("New(%s) = %v, want bad_setup", setup, err)
			}
			return
		}
		st := s.(*state)
		if st.hasConflict() && st.outcome.Reason != ReasonInvalidPlacement {
			t.Fatalf("New(%s) accepted attacking pieces with outcome %+v", setup, st.outcome)
		}
		checkRestores(t, s)
	})
}

// FuzzRestore feeds arbitrary snapshots to Restore: it never panics,
// refuses with bad_setup, and what it accepts marshals back to a snapshot
// that restores to the same bytes.
func FuzzRestore(f *testing.F) {
	for _, v := range variants {
		s, _ := Game().New(v.id, nil, 3)
		snap, _ := s.MarshalJSON()
		f.Add(snap)
		if err := s.Apply(0, s.Legal(0)[0]); err != nil {
			f.Fatal(err)
		}
		snap, _ = s.MarshalJSON()
		f.Add(snap)
	}
	f.Add([]byte(`{"version":1,"variant":"tradicional","placed":{"3,0":"D"},"owners":{"3,0":0},"hands":{"primeiro":["D"],"segundo":["D","D"]},"toMove":"segundo"}`))
	f.Add([]byte(`{"version":1,"variant":"tradicional","placed":{"9,0":"D"},"hands":{"primeiro":[],"segundo":[]},"toMove":"segundo"}`))
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, snap []byte) {
		s, err := Game().Restore(snap)
		if err != nil {
			if engine.CodeOf(err) != engine.CodeBadSetup {
				t.Fatalf("Restore(%s) = %v, want bad_setup", snap, err)
			}
			return
		}
		checkRestores(t, s)
	})
}

// checkRestores requires s's snapshot to restore to the same bytes and the
// same game.
func checkRestores(t *testing.T, s engine.State) {
	t.Helper()
	if _, err := enginetest.RoundTrip(Game(), s); err != nil {
		t.Fatal(err)
	}
}
