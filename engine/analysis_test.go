package engine

import (
	"encoding/json"
	"testing"
)

func TestOutlookOrder(t *testing.T) {
	order := []Outlook{"", OutlookLoss, OutlookDraw, OutlookWin}
	for i, a := range order {
		for j, b := range order {
			if got := a.Better(b); got != (i > j) {
				t.Errorf("%q.Better(%q) = %v", a, b, got)
			}
		}
	}
	for in, want := range map[Outlook]Outlook{OutlookWin: OutlookLoss, OutlookLoss: OutlookWin, OutlookDraw: OutlookDraw, "": ""} {
		if got := in.Opposite(); got != want {
			t.Errorf("%q.Opposite() = %q, want %q", in, got, want)
		}
	}
}

// TestAnalysisJSON: the fields a client reads, a win rate of 0 included,
// and nothing for what the method does not give.
func TestAnalysisJSON(t *testing.T) {
	a := Analysis{Seat: 1, Method: MethodMCTS, WinRate: Float(0), Best: []string{"E5"},
		Moves: []MoveValue{{Move: "E5", WinRate: Float(0), Visits: 3}}, Work: 10, Unit: UnitPlayouts}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seat":1,"method":"mcts","winRate":0,"best":["E5"],"moves":[{"move":"E5","winRate":0,"visits":3}],"work":10,"unit":"playouts"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

type plainGame struct{ Game }

func (plainGame) Info() Info { return Info{ID: "plain"} }

type analysedGame struct{ plainGame }

func (analysedGame) Info() Info { return Info{ID: "analysed"} }

func (analysedGame) Analyse(State, int, Budget) (Analysis, error) { return Analysis{}, nil }

func TestCatalogAnalyser(t *testing.T) {
	c := NewCatalog(plainGame{}, analysedGame{})
	for id, want := range map[string]bool{"plain": false, "analysed": true, "nope": false} {
		if _, ok := c.Analyser(id); ok != want {
			t.Errorf("Analyser(%q): %v, want %v", id, ok, want)
		}
	}
}
