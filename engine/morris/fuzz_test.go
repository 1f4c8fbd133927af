package morris

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// fuzzStates are the positions FuzzApply tries each move on: placing,
// moving, blocked and finished.
var fuzzStates = []string{
	"",
	`{"board":[[1,0,0],[0,-1,0],[0,0,0]],"toMove":"X"}`,
	`{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`,
	`{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"O"}`,
	`{"board":[[-1,-1,1],[-1,1,0],[1,0,0]],"toMove":"O"}`,
	`{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`,
}

// FuzzApply: a move never panics; a refused move is an *engine.Error and
// changes nothing; an accepted move is one Legal listed.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"", "b2", "a1b1", "a1a1", "c3c2", "a4", "A1", "b1a1 ", "a1c3", "\x00\xff", "b2b2b2"} {
		f.Add(0, m)
		f.Add(1, m)
	}
	f.Fuzz(func(t *testing.T, seat int, move string) {
		for _, setup := range fuzzStates {
			s := mustNew(t, setup)
			legal := s.Legal(seat)
			before, _ := s.MarshalJSON()
			err := s.Apply(seat, move)
			if err != nil {
				if engine.CodeOf(err) == "" {
					t.Fatalf("Apply(%d, %q) from %s: %v is not an *engine.Error", seat, move, setup, err)
				}
				if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
					t.Fatalf("refused Apply(%d, %q) from %s changed the state", seat, move, setup)
				}
				if slices.Contains(legal, move) {
					t.Fatalf("Apply(%d, %q) from %s refused (%v) but Legal lists it", seat, move, setup, err)
				}
				continue
			}
			if !slices.Contains(legal, move) {
				t.Fatalf("Apply(%d, %q) from %s accepted but Legal is %v", seat, move, setup, legal)
			}
		}
	})
}

// FuzzSetup: New never panics; a refusal is bad_setup; an accepted setup is
// a position that can occur and whose snapshot restores.
func FuzzSetup(f *testing.F) {
	for _, s := range fuzzStates {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{}`, `null`, `[]`, `{"board":[[0,0,0],[0,0,0]]}`, `{"board":[[2,0,0],[0,0,0],[0,0,0]]}`,
		`{"board":[[1,1,1],[0,0,0],[-1,-1,-1]]}`, `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"x"}`,
		`{"board":[[0,0,0],[0,0,0],[0,0,0]],"extra":1}`, `{"board":[[0,0,0],[0,0,0],[0,0,0]]}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := Game().New(variant3, json.RawMessage(data), 0)
		if err != nil {
			if engine.CodeOf(err) != engine.CodeBadSetup {
				t.Fatalf("New(%q): %v, want code bad_setup", data, err)
			}
			return
		}
		s := es.(*state)
		if err := s.pos.validate(); err != nil {
			t.Fatalf("New(%q) accepted an impossible position: %v", data, err)
		}
		snap, err := s.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		if _, err := Game().Restore(snap); err != nil {
			t.Fatalf("Restore of New(%q)'s snapshot %s: %v", data, snap, err)
		}
	})
}

// FuzzRestore: Restore never panics, and a snapshot it accepts marshals
// back to bytes that restore to the same game.
func FuzzRestore(f *testing.F) {
	for _, setup := range fuzzStates[:3] {
		s := mustNew(f, setup)
		snap, _ := s.MarshalJSON()
		f.Add(snap)
	}
	s := mustNew(f, "")
	for _, m := range []string{"a2", "b2", "a1", "a3", "c1", "b1", "c1c2"} {
		if err := s.Apply(s.pos.toMove.seat(), m); err != nil {
			f.Fatalf("seed game: %v", err)
		}
	}
	good, _ := s.MarshalJSON()
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"c1c2"`), []byte(`"c1c3"`), 1))
	f.Add(bytes.Replace(good, []byte(`"toMove":"O"}`), []byte(`"toMove":"X"}`), 1))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"game":"morris","variant":"3","start":{"board":[[0,0,0],[0,0,0],[0,0,0]]},"moves":[],"board":["...","...","..."],"toMove":"X"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Game().Restore(data)
		if err != nil {
			return
		}
		if _, err := enginetest.RoundTrip(Game(), r); err != nil {
			t.Fatalf("Restore(%s) accepted: %v", data, err)
		}
	})
}
