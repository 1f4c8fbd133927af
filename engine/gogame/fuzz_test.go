package gogame

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// FuzzApply plays arbitrary move text on a position: it never panics, and
// a refused move is an *engine.Error that changes nothing.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"A1", "I9", "pass", "", "J1", "a1", "A10", "B2", "C2", "S19", "A-1", "A+1", "\x00"} {
		f.Add(m)
	}
	base := mustNew(f, "9", setupJSON(f, []string{"C1", "C3", "D1", "D2"}, []string{"A2", "B1", "B3", "C2"}, "black"))
	f.Fuzz(func(t *testing.T, move string) {
		s := base.Clone().(*state)
		before, _ := s.MarshalJSON()
		err := s.Apply(0, move)
		if err == nil {
			return
		}
		if engine.CodeOf(err) == "" {
			t.Fatalf("Apply(%q): %v is not an *engine.Error", move, err)
		}
		if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
			t.Fatalf("refused move %q changed the state", move)
		}
	})
}

// FuzzSetup feeds arbitrary setups to New: no panic, a refusal is
// bad_setup, and an accepted position has no chain without liberties.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"black":["E4","E5"],"white":["C1","C2"],"toMove":"black"}`,
		`{"black":["A1"],"white":["A2","B1"]}`, `{}`, `null`, `{"toMove":"white"}`, `[`, `{"black":[1]}`,
	} {
		f.Add("9", []byte(s))
	}
	f.Add("19", []byte(`{"white":["S19","A1"]}`))
	f.Fuzz(func(t *testing.T, variant string, setup []byte) {
		st, err := Game().New(variant, json.RawMessage(setup), 0)
		if err != nil {
			if c := engine.CodeOf(err); c != engine.CodeBadSetup && c != engine.CodeUnknownGame {
				t.Fatalf("New: %v has code %q", err, c)
			}
			return
		}
		b := st.(*state).board
		for p, c := range b.cells {
			if c != empty && !b.hasLibertyBesides(p, -1) {
				t.Fatalf("accepted setup %s has a chain without liberty at %s", setup, b.geo.names[p])
			}
		}
	})
}

// FuzzRestore feeds arbitrary bytes to Restore: no panic, and an accepted
// snapshot marshals back to the same bytes.
func FuzzRestore(f *testing.F) {
	s := mustNew(f, "9", "")
	for _, m := range []string{"E5", "D5", "pass"} {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			f.Fatal(err)
		}
	}
	snap, _ := s.MarshalJSON()
	f.Add(snap)
	scored := newWith(f, "9", "", engine.Options{Komi: 6.5, Removal: true})
	playWall(f, scored)
	if err := scored.Toggle(0, "B5"); err != nil {
		f.Fatal(err)
	}
	if err := scored.Accept(1); err != nil {
		f.Fatal(err)
	}
	snap, _ = scored.MarshalJSON()
	f.Add(snap)
	handicap, _ := newWith(f, "13", "", engine.Options{Handicap: 5, Komi: -0.5}).MarshalJSON()
	f.Add(handicap)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"variant":"9","start":{"black":[],"white":[],"toMove":"black"},"moves":[],"board":[".........",".........",".........",".........",".........",".........",".........",".........","........."],"toMove":"black"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Game().Restore(data)
		if err != nil {
			return
		}
		if _, err := enginetest.RoundTrip(Game(), r); err != nil {
			t.Fatalf("Restore(%q) accepted: %v", data, err)
		}
	})
}

// FuzzToggle feeds arbitrary points to Toggle and Mark in the stone-removal
// phase: no panic, and a refusal is an *engine.Error that changes nothing.
func FuzzToggle(f *testing.F) {
	for _, p := range []string{"B5", "E5", "D5", "A1", "pass", "", "Z9", "B05", "\x00", "C3 "} {
		f.Add(p, 0)
	}
	f.Add("F9", 1)
	f.Add("B5", 2)
	base := newWith(f, "9", "", engine.Options{Removal: true})
	playWall(f, base)
	f.Fuzz(func(t *testing.T, point string, seat int) {
		for _, do := range []func(s *state) error{
			func(s *state) error { return s.Toggle(seat, point) },
			func(s *state) error { return s.Mark([]string{"B5", point}) },
		} {
			s := base.Clone().(*state)
			before, _ := s.MarshalJSON()
			if err := do(s); err != nil {
				if engine.CodeOf(err) == "" {
					t.Fatalf("%q: %v is not an *engine.Error", point, err)
				}
				if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
					t.Fatalf("refused %q changed the state", point)
				}
				continue
			}
			if _, err := enginetest.RoundTrip(Game(), s); err != nil {
				t.Fatalf("after %q: %v", point, err)
			}
		}
	})
}
