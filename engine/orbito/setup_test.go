package orbito

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// TestNewSetupAccepted checks setups that must be accepted: the empty ones,
// the seed's printed positions for either side, and counts play can reach.
func TestNewSetupAccepted(t *testing.T) {
	tests := []struct {
		name     string
		variant  string
		setup    string
		wantRows []string
		wantTurn int
	}{
		{"nil", "2", "", []string{"....", "....", "....", "...."}, 0},
		{"null", "3", "null", []string{"......", "......", "......", "......", "......", "......"}, 0},
		{"empty object", "2", `{"toMove":"black"}`, []string{"....", "....", "....", "...."}, 0},
		{"protocol example", "2", `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"black"}`, seedRows, 0},
		{"seed position, white asked", "2", `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"white"}`, seedRows, 1},
		{"white to move after black", "2", `{"black":["b2"],"white":[],"toMove":"white"}`, []string{"....", ".X..", "....", "...."}, 1},
		{"black to move after white started", "2", `{"white":["b2"],"toMove":"black"}`, []string{"....", ".O..", "....", "...."}, 0},
		{"largest board", "5", ` {"black":["j10"],"white":["a1"],"toMove":"black"} `, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Game().New(tt.variant, []byte(tt.setup), 0)
			if err != nil {
				t.Fatalf("New(%s, %s) = %v, want it accepted", tt.variant, tt.setup, err)
			}
			if tt.wantRows != nil && !slices.Equal(s.Board().([]string), tt.wantRows) {
				t.Errorf("board = %q, want %q", s.Board(), tt.wantRows)
			}
			if turn, ok := s.Turn(); !ok || turn != tt.wantTurn {
				t.Errorf("Turn() = %d, %v, want %d, true", turn, ok, tt.wantTurn)
			}
		})
	}
}

// TestNewSetupRefused checks that malformed setups and positions play cannot
// reach are refused with bad_setup and a message that says why.
func TestNewSetupRefused(t *testing.T) {
	tests := []struct {
		name    string
		setup   string
		wantMsg string
	}{
		{"not JSON", `{`, "malformed JSON"},
		{"not an object", `[1,2]`, "malformed JSON"},
		{"unknown field", `{"black":[],"white":[],"toMove":"black","k":4}`, "unknown field"},
		{"field in another case", `{"Black":["a1"],"toMove":"white"}`, `unknown field "Black"`},
		{"wrong type", `{"black":"a1","toMove":"black"}`, "malformed JSON"},
		{"number square", `{"black":[1],"toMove":"black"}`, "malformed JSON"},
		{"trailing data", `{"toMove":"black"} {}`, "data after the object"},
		{"missing toMove", `{"black":[],"white":[]}`, "toMove is missing"},
		{"bad toMove", `{"toMove":"X"}`, `"X" is not a colour`},
		{"off board", `{"black":["e1"],"white":["a1"],"toMove":"black"}`, `"e1" is not a position`},
		{"row zero", `{"black":["a0"],"white":["a1"],"toMove":"black"}`, `"a0" is not a position`},
		{"listed twice", `{"black":["a1","a1"],"white":["b1","c1"],"toMove":"black"}`, "a1 is listed twice"},
		{"both colours", `{"black":["a1"],"white":["a1"],"toMove":"black"}`, "a1 is listed twice"},
		{"black two ahead", `{"black":["a1","b1"],"toMove":"white"}`, "cannot happen"},
		{"mover ahead", `{"black":["a1"],"toMove":"black"}`, "cannot happen"},
		{"white line", `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d1","d2","d3","d4"],"toMove":"black"}`, "already over (line)"},
		{"both lines", `{"black":["a1","b1","c1","d1"],"white":["a4","b4","c4","d4"],"toMove":"black"}`, "already over (both_lines)"},
		{"full board", `{"black":["a1","b1","c2","d2","a3","b3","c4","d4"],"white":["c1","d1","a2","b2","c3","d3","a4","b4"],"toMove":"black"}`, "already over (board_full)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Game().New("2", []byte(tt.setup), 0)
			if err == nil {
				t.Fatalf("New(%s) = %v, want bad_setup", tt.setup, s.Board())
			}
			if code := engine.CodeOf(err); code != engine.CodeBadSetup {
				t.Errorf("New(%s) code = %q, want %q (%v)", tt.setup, code, engine.CodeBadSetup, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("New(%s) = %q, want a message containing %q", tt.setup, err, tt.wantMsg)
			}
		})
	}
}

// TestNewUnknownVariant checks the variant ids.
func TestNewUnknownVariant(t *testing.T) {
	for _, v := range []string{"1", "6", "", "02", "two"} {
		if _, err := Game().New(v, nil, 0); engine.CodeOf(err) != engine.CodeUnknownGame {
			t.Errorf("New(%q) = %v, want %s", v, err, engine.CodeUnknownGame)
		}
	}
}

// TestInfo checks the catalog entry against the protocol's table.
func TestInfo(t *testing.T) {
	info := Game().Info()
	if info.ID != "orbito" || info.Name == "" || info.Rules == "" {
		t.Errorf("Info() = %q %q %q, want id orbito, a name and rules", info.ID, info.Name, info.Rules)
	}
	var variants []string
	for _, v := range info.Variants {
		variants = append(variants, v.ID)
		if v.Seats != 2 || !slices.Equal(v.SeatNames, []string{"black X", "white O"}) {
			t.Errorf("variant %s: seats %d %v, want 2 [black X white O]", v.ID, v.Seats, v.SeatNames)
		}
	}
	if want := []string{"2", "3", "4", "5"}; !slices.Equal(variants, want) {
		t.Errorf("variants = %v, want %v", variants, want)
	}
	var ids []string
	for _, l := range info.Levels {
		ids = append(ids, l.ID)
		seed := l.ID == "facil" || l.ID == "normal"
		if l.Deterministic != seed || l.Description == "" {
			t.Errorf("level %s: deterministic %v, description %q; want described, deterministic only for the seed's bots", l.ID, l.Deterministic, l.Description)
		}
		if _, ok := Game().Bot(l.ID); !ok {
			t.Errorf("Bot(%q) missing", l.ID)
		}
	}
	if want := []string{"facil", "normal", "forte", "perfeito"}; !slices.Equal(ids, want) {
		t.Errorf("levels = %v, want %v", ids, want)
	}
	if _, ok := Game().Bot("dificil"); ok {
		t.Errorf("Bot(dificil) exists, want none")
	}
}
