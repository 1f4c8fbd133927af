package g2048

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// FuzzApply: any move string for any seat is either one of Legal(seat) and
// accepted, or refused with an *engine.Error and no change.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"N", "S", "E", "W", "", "n", "NN", "N\x00", "é", "W "} {
		f.Add(m, 0, uint64(1), false)
		f.Add(m, 1, uint64(7), true)
	}
	f.Add("E", -1, uint64(3), true)
	f.Fuzz(func(t *testing.T, move string, seat int, seed uint64, race bool) {
		variant := VariantSolo
		if race {
			variant = VariantRace
		}
		s := newState(t, variant, "", seed)
		legal := s.Legal(seat)
		before := snapshot(t, s)
		err := s.Apply(seat, move)
		if err == nil {
			if !slices.Contains(legal, move) {
				t.Fatalf("Apply(%d, %q) accepted, but Legal was %v", seat, move, legal)
			}
			return
		}
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("Apply(%d, %q) error %v is not an *engine.Error", seat, move, err)
		}
		if slices.Contains(legal, move) {
			t.Fatalf("Apply(%d, %q) refused (%v), but Legal was %v", seat, move, err, legal)
		}
		if !bytes.Equal(before, snapshot(t, s)) {
			t.Fatalf("refused Apply(%d, %q) changed the state", seat, move)
		}
	})
}

// FuzzSetup: New never panics on any setup; a refusal is bad_setup with no
// state, and an accepted setup gives a playable game whose snapshot
// restores.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]],"score":0,"seed":42}`,
		`{"board":[[2,4,2,4],[4,2,4,2],[2,4,2,4],[4,2,4,2]],"score":400}`,
		`{"board":[[131072,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}`,
		`{"board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}`,
		`{"board":[[3]]}`, `{"score":-4}`, `null`, ``, `[]`, `{"board":[[0,2,0,0]],"x":1}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, setup []byte, race bool) {
		variant := VariantSolo
		if race {
			variant = VariantRace
		}
		s, err := Game().New(variant, json.RawMessage(setup), 5)
		if err != nil {
			if engine.CodeOf(err) != engine.CodeBadSetup || s != nil {
				t.Fatalf("New(%q) = %v, %v; want no state and code bad_setup", setup, s, err)
			}
			return
		}
		checkPlayable(t, s)
	})
}

// FuzzRestore: Restore never panics; what it accepts encodes to a snapshot
// that restores to the same bytes, and is a playable game.
func FuzzRestore(f *testing.F) {
	for _, variant := range []string{VariantSolo, VariantRace} {
		s := newState(f, variant, "", 1)
		f.Add(snapshot(f, s))
		for range 30 {
			for seat := range s.Seats() {
				if legal := s.Legal(seat); len(legal) > 0 {
					_ = s.Apply(seat, legal[0])
				}
			}
		}
		f.Add(snapshot(f, s))
	}
	f.Add([]byte(`{"variant":"solo","boards":[{"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":0,"rng":"cGNnOgAAAAAAAAABAAAAAAAAIEg="}]}`))
	f.Add([]byte(`{"variant":"solo","boards":[]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Game().Restore(data)
		if err != nil {
			if s != nil {
				t.Fatalf("Restore returned a state with error %v", err)
			}
			return
		}
		if _, err := enginetest.RoundTrip(Game(), s); err != nil {
			t.Fatalf("Restore(%q) accepted: %v", data, err)
		}
		checkPlayable(t, s)
	})
}

// checkPlayable plays a few moves on s: the views answer, every listed move
// applies, and a game that goes on has a seat with a move.
func checkPlayable(t *testing.T, s engine.State) {
	t.Helper()
	r, err := Game().Restore(snapshot(t, s))
	if err != nil {
		t.Fatalf("Restore(own snapshot): %v", err)
	}
	for range 20 {
		_, _, _ = s.Board(), s.Score(), s.Extra()
		moved := false
		for seat := range s.Seats() {
			for _, m := range s.Legal(seat) {
				if err := s.Apply(seat, m); err != nil {
					t.Fatalf("legal move %s for seat %d refused: %v", m, seat, err)
				}
				if err := r.Apply(seat, m); err != nil {
					t.Fatalf("restored copy refused %s: %v", m, err)
				}
				moved = true
				break
			}
		}
		if !moved {
			if !s.Outcome().Over {
				t.Fatalf("no seat can move but the game is not over")
			}
			break
		}
	}
	if !bytes.Equal(snapshot(t, s), snapshot(t, r)) {
		t.Fatalf("a game and its restored copy diverged")
	}
}
