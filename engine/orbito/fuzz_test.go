package orbito

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// FuzzApply plays plies moves from the empty board (each the legal move at
// index pick mod the count), then tries move for both seats: it must never
// panic, a refusal must change nothing and carry an engine code, and an
// accepted move must have been legal.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"b2", "d1", "a0", "", "zz", "j10", "a11", "b02", "é1", "c\x00", "d1 "} {
		f.Add("2", uint8(0), uint8(3), m)
	}
	f.Add("5", uint8(7), uint8(40), "j10")
	f.Add("3", uint8(30), uint8(1), "f6")
	f.Fuzz(func(t *testing.T, variant string, pick, plies uint8, move string) {
		es, err := Game().New(variant, nil, 0)
		if err != nil {
			return
		}
		s := es.(*state)
		for range plies {
			seat, ok := s.Turn()
			if !ok {
				break
			}
			legal := s.Legal(seat)
			if err := s.Apply(seat, legal[int(pick)%len(legal)]); err != nil {
				t.Fatalf("legal move refused: %v", err)
			}
		}
		for seat := -1; seat <= 2; seat++ {
			legal := s.Legal(seat)
			before, _ := s.MarshalJSON()
			err := s.Apply(seat, move)
			if err != nil {
				if engine.CodeOf(err) == "" {
					t.Fatalf("Apply(%d, %q) = %v, not an *engine.Error", seat, move, err)
				}
				if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
					t.Fatalf("refused Apply(%d, %q) changed the state", seat, move)
				}
				if slices.Contains(legal, move) {
					t.Fatalf("Apply(%d, %q) refused a legal move: %v", seat, move, err)
				}
				continue
			}
			if !slices.Contains(legal, move) {
				t.Fatalf("Apply(%d, %q) accepted a move not in Legal %v", seat, move, legal)
			}
			break
		}
	})
}

// FuzzSetup feeds New arbitrary setups: it must never panic, a refusal is
// bad_setup (or unknown_game for the variant), and an accepted setup is a
// game in progress whose counts play can reach and whose snapshot restores.
func FuzzSetup(f *testing.F) {
	f.Add("2", `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"black"}`)
	f.Add("2", `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"white"}`)
	f.Add("2", `{"black":["a1","b1","c1","d1"],"white":["a4","b4","c4","d4"],"toMove":"black"}`)
	f.Add("3", `{"black":["f6"],"toMove":"white"}`)
	f.Add("5", `{"black":[],"white":[],"toMove":"black","x":1}`)
	f.Add("2", `{"black":["a1","a1"],"toMove":"white"}`)
	f.Add("4", `null`)
	f.Add("2", `{`)
	f.Fuzz(func(t *testing.T, variant, raw string) {
		es, err := Game().New(variant, []byte(raw), 0)
		if err != nil {
			if c := engine.CodeOf(err); c != engine.CodeBadSetup && c != engine.CodeUnknownGame {
				t.Fatalf("New(%q, %q) = %v (code %q), want bad_setup or unknown_game", variant, raw, err, c)
			}
			return
		}
		s := es.(*state)
		if s.outcome.Over {
			t.Fatalf("New(%q, %q) accepted a finished game: %+v", variant, raw, s.outcome)
		}
		if err := checkCounts(s.cells, s.toMove); err != nil {
			t.Fatalf("New(%q, %q) accepted impossible counts: %v", variant, raw, err)
		}
		snap, _ := s.MarshalJSON()
		if _, err := Game().Restore(snap); err != nil {
			t.Fatalf("snapshot of an accepted setup does not restore: %v", err)
		}
	})
}

// FuzzRestore feeds Restore arbitrary bytes: it must never panic, and an
// accepted snapshot must marshal to bytes that restore to the same bytes.
func FuzzRestore(f *testing.F) {
	f.Add(`{"variant":"2","board":["....","....","....","...."],"toMove":"black"}`)
	f.Add(`{"variant":"2","board":[".XO.","..OO","XXXO","X..O"],"toMove":"white"}`)
	f.Add(`{"variant":"2","board":["..OX",".OOX","...X","O..X"],"toMove":"white"}`)
	f.Add(`{"variant":"3","board":["......"],"toMove":"black"}`)
	f.Add(`{"variant":"2","board":["....","....","....","...."],"toMove":"black","extra":true}`)
	f.Add(`{"variant":"9"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := Game().Restore([]byte(raw))
		if err != nil {
			return
		}
		if _, err := enginetest.RoundTrip(Game(), s); err != nil {
			t.Fatalf("Restore(%q) accepted: %v", raw, err)
		}
	})
}
