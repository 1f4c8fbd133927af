package g2048

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

func TestAnalyserContract(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{VariantSolo, VariantRace} {
		t.Run(variant, func(t *testing.T) {
			enginetest.CheckAnalyser(t, Game(), enginetest.AnalyserConfig{
				Variant: variant, Games: 2, MaxPlies: 120, PlayBest: true, Budget: engine.Budget{Work: 3_000},
				Check: func(t testing.TB, s engine.State, seat int, a engine.Analysis) {
					if a.Method != engine.MethodExpectimax || a.Eval == nil || a.Depth < 1 || len(a.Moves) != len(s.Legal(seat)) || a.Work > 3_001 {
						t.Fatalf("analysis %+v: want expectimax within 3,000 nodes with an eval and a value for every legal move", a)
					}
					for _, mv := range a.Moves {
						if *mv.Eval > *a.Eval {
							t.Fatalf("analysis %+v: %s is worth more than the best move", a, mv.Move)
						}
					}
				},
			})
		})
	}
}

// TestAnalyseDepthOne: at depth 1 (a budget of one node) a move's value
// is the heuristic of the board after it, before the new tile: here
// computed from the engine's own slide (grid.reduce), not the search's
// tables.
func TestAnalyseDepthOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	s := newState(t, VariantSolo, "", 4)
	for ply := 0; ply < 300 && !s.Outcome().Over; ply++ {
		a, err := Game().(engine.Analyser).Analyse(s, 0, engine.Budget{Work: 1})
		if err != nil {
			t.Fatal(err)
		}
		if a.Depth != 1 {
			t.Fatalf("ply %d: depth %d at a budget of 1", ply, a.Depth)
		}
		for _, mv := range a.Moves {
			d, _ := parseDirection(mv.Move)
			g := s.boards[0].grid
			g.reduce(d)
			if want := float64(bitboardOf(&g).Evaluate()); *mv.Eval != want {
				t.Fatalf("ply %d: %s worth %v, the board after it %v", ply, mv.Move, *mv.Eval, want)
			}
		}
		legal := s.Legal(0)
		enginetest.Replay(t, s, legal[rng.IntN(len(legal))])
	}
}

// TestAnalyseIsForte: at forte's own budget the preferred move is forte's,
// on positions of a race (both seats) and of a solo game.
func TestAnalyseIsForte(t *testing.T) {
	t.Parallel()
	bot, _ := Game().Bot(LevelForte)
	rng := rand.New(rand.NewPCG(6, 6))
	checked := 0
	for _, variant := range []string{VariantSolo, VariantRace} {
		s := newState(t, variant, "", 6)
		for ply := 0; ply < 400 && !s.Outcome().Over; ply++ {
			for seat := range s.Seats() {
				legal := s.Legal(seat)
				if len(legal) == 0 {
					continue
				}
				if ply%8 == 7 {
					a, err := Game().(engine.Analyser).Analyse(s, seat, engine.Budget{Work: forteConfig.nodeBudget})
					if err != nil {
						t.Fatal(err)
					}
					move, err := bot(s.Clone(), seat, nil, time.Time{})
					if err != nil || move != a.Best[0] {
						t.Fatalf("%s ply %d seat %d: best %v, forte plays %q (%v)", variant, ply, seat, a.Best, move, err)
					}
					checked++
				}
				enginetest.Replay(t, s, string(rune('0'+seat))+":"+legal[rng.IntN(len(legal))])
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d positions", checked)
	}
}

// TestAnalyseDefaultBudget: without a budget the analysis keeps to
// analysisNodes, and goes deeper than with a small one.
func TestAnalyseDefaultBudget(t *testing.T) {
	s := newState(t, VariantSolo, `{"board":[[2,4,8,16],[0,2,4,8],[0,0,2,4],[0,0,0,2]],"score":0,"seed":1}`, 0)
	an := Game().(engine.Analyser)
	a, err := an.Analyse(s, 0, engine.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	small, err := an.Analyse(s, 0, engine.Budget{Work: 500})
	if err != nil {
		t.Fatal(err)
	}
	if a.Work > analysisNodes+1 || a.Work < 10*small.Work || a.Depth <= small.Depth {
		t.Errorf("default budget: %d nodes, depth %d; at 500 nodes: %d, depth %d", a.Work, a.Depth, small.Work, small.Depth)
	}
}
