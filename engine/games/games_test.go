package games

import (
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// TestCatalog checks the catalog against the wire contract's table of game
// ids, variants, seats and the seed bot levels that must come first.
func TestCatalog(t *testing.T) {
	tests := []struct {
		id       string
		variants []string
		seats    []int
		levels   []string // the seed's levels, in order, at the head of the list
	}{
		{"orbito", []string{"2", "3", "4", "5"}, []int{2, 2, 2, 2}, []string{"facil", "normal"}},
		{"morris", []string{"3"}, []int{2}, []string{"facil", "normal", "dificil"}},
		{"go", []string{"9", "13", "19"}, []int{2, 2, 2}, nil},
		{"2048", []string{"solo", "race"}, []int{1, 2}, nil},
		{"queens", []string{"tradicional", "grande", "impar", "x-random"}, []int{2, 2, 2, 2}, []string{"apressado", "roleta", "gulosa"}},
	}
	c := Catalog()
	var gotIDs []string
	for _, info := range c.Infos() {
		gotIDs = append(gotIDs, info.ID)
	}
	var wantIDs []string
	for _, tt := range tests {
		wantIDs = append(wantIDs, tt.id)
	}
	if !slices.Equal(gotIDs, wantIDs) {
		t.Fatalf("catalog ids = %v, want %v", gotIDs, wantIDs)
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			g, ok := c.Game(tt.id)
			if !ok {
				t.Fatalf("Game(%q) not found", tt.id)
			}
			info := g.Info()
			if info.Name == "" || info.Rules == "" {
				t.Errorf("info %q lacks a name or a rules summary", tt.id)
			}
			var variants []string
			var seats []int
			for _, v := range info.Variants {
				variants = append(variants, v.ID)
				seats = append(seats, v.Seats)
				if len(v.SeatNames) != v.Seats {
					t.Errorf("variant %s: %d seat names for %d seats", v.ID, len(v.SeatNames), v.Seats)
				}
			}
			if !slices.Equal(variants, tt.variants) || !slices.Equal(seats, tt.seats) {
				t.Errorf("variants %v seats %v, want %v %v", variants, seats, tt.variants, tt.seats)
			}
			if len(info.Levels) == 0 {
				t.Fatalf("no bot levels")
			}
			for i, want := range tt.levels {
				if i >= len(info.Levels) || info.Levels[i].ID != want {
					t.Errorf("level %d = %v, want %q", i, info.Levels, want)
				}
			}
			for _, l := range info.Levels {
				if _, ok := g.Bot(l.ID); !ok {
					t.Errorf("level %q listed but Bot(%q) is missing", l.ID, l.ID)
				}
			}
			if _, ok := g.Bot("no-such-level"); ok {
				t.Errorf("Bot(no-such-level) found")
			}
			for _, v := range tt.variants {
				s, err := c.New(tt.id, v, nil, 1)
				if err != nil {
					t.Fatalf("New(%s, %s): %v", tt.id, v, err)
				}
				if s.Variant() != v {
					t.Errorf("Variant() = %q, want %q", s.Variant(), v)
				}
			}
			if _, err := c.New(tt.id, "no-such-variant", nil, 1); engine.CodeOf(err) != engine.CodeUnknownGame {
				t.Errorf("New with an unknown variant: code %q, want %q", engine.CodeOf(err), engine.CodeUnknownGame)
			}
		})
	}
	if _, err := c.New("chess", "8", nil, 1); engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("New(chess): code %q, want %q", engine.CodeOf(err), engine.CodeUnknownGame)
	}
}

// TestEveryGameIsAnalysed: every game of the catalog has an analyser; it
// answers the start of every variant with a legal preferred move, and
// refuses another game's state.
func TestEveryGameIsAnalysed(t *testing.T) {
	c := Catalog()
	morris, _ := c.New("morris", "3", nil, 1)
	orbito, _ := c.New("orbito", "2", nil, 1)
	for _, info := range c.Infos() {
		an, ok := c.Analyser(info.ID)
		if !ok {
			t.Errorf("%s has no analyser", info.ID)
			continue
		}
		for _, v := range info.Variants {
			s, err := c.New(info.ID, v.ID, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			a, err := an.Analyse(s, 0, engine.Budget{Work: 200, Seed: 1})
			if err != nil || len(a.Best) == 0 || !slices.Contains(s.Legal(0), a.Best[0]) || a.Method == "" {
				t.Errorf("%s/%s: %+v, %v", info.ID, v.ID, a, err)
			}
		}
		other := morris
		if info.ID == "morris" {
			other = orbito
		}
		if _, err := an.Analyse(other, 0, engine.Budget{}); engine.CodeOf(err) != engine.CodeUnknownGame {
			t.Errorf("%s analysing another game's state: %v, want %s", info.ID, err, engine.CodeUnknownGame)
		}
	}
}
