package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// AnalyserConfig says how CheckAnalyser plays and analyses.
type AnalyserConfig struct {
	// Variant to play; Setup, optional, to start from.
	Variant string
	Setup   json.RawMessage
	// Games is the number of games to play (default 5) and MaxPlies the
	// plies of each that are analysed (default: the whole game).
	Games, MaxPlies int
	// Budget is the budget of every analysis (small ones keep the check
	// fast; the contract does not depend on it).
	Budget engine.Budget
	// PlayBest plays the analysis's preferred move in every other ply (the
	// other plies are random), so that the games look like games.
	PlayBest bool
	// Check, optional, is called with every analysis.
	Check func(t testing.TB, s engine.State, seat int, a engine.Analysis)
}

// CheckAnalyser plays cfg.Games games of g, which must implement
// engine.Analyser, and checks the contract of an analysis at every ply for
// every seat that may move: no error; Seat and Method set; Best not empty,
// without repeats, every move of it and of Moves legal; WinRate in [0, 1];
// Outlook one of the three or empty; with MethodTable, every legal move in
// Moves with an outlook, the position's outlook the best of them and Best
// exactly the moves that keep it, the first being the preferred one; the
// same analysis again with the same budget equal (no clock, no hidden
// state); the state unchanged. A seat that may not move, and a finished
// game, are refused with the contract's codes.
func CheckAnalyser(t *testing.T, g engine.Game, cfg AnalyserConfig) {
	t.Helper()
	an, ok := g.(engine.Analyser)
	if !ok {
		t.Fatalf("%s does not implement engine.Analyser", g.Info().ID)
	}
	if cfg.Games == 0 {
		cfg.Games = 5
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 1 << 30
	}
	for i := range cfg.Games {
		rng := rand.New(rand.NewPCG(uint64(i), 0xa7a))
		s, err := g.New(cfg.Variant, cfg.Setup, uint64(i))
		if err != nil {
			t.Fatalf("game %d: new: %v", i, err)
		}
		for ply := 0; ; ply++ {
			if s.Outcome().Over {
				for seat := range s.Seats() {
					if _, err := an.Analyse(s, seat, cfg.Budget); engine.CodeOf(err) != engine.CodeGameOver {
						t.Fatalf("game %d: analysis of a finished game for seat %d: error %v, want code %s", i, seat, err, engine.CodeGameOver)
					}
				}
				break
			}
			if ply >= cfg.MaxPlies {
				break
			}
			var movers []int
			var best [][]string
			for seat := range s.Seats() {
				if len(s.Legal(seat)) == 0 {
					if _, err := an.Analyse(s, seat, cfg.Budget); engine.CodeOf(err) != engine.CodeNotYourTurn && engine.CodeOf(err) != engine.CodeGameOver {
						t.Fatalf("game %d ply %d: analysis for seat %d, which may not move: error %v, want an *engine.Error of code %s or %s",
							i, ply, seat, err, engine.CodeNotYourTurn, engine.CodeGameOver)
					}
					continue
				}
				a, err := checkAnalysis(t, an, s, seat, cfg)
				if err != nil {
					t.Fatalf("game %d ply %d seat %d: %v", i, ply, seat, err)
				}
				movers = append(movers, seat)
				best = append(best, a.Best)
			}
			k := rng.IntN(len(movers))
			seat, legal := movers[k], s.Legal(movers[k])
			move := legal[rng.IntN(len(legal))]
			if cfg.PlayBest && ply%2 == 0 {
				move = best[k][0]
			}
			if err := s.Apply(seat, move); err != nil {
				t.Fatalf("game %d ply %d: %q for seat %d: %v", i, ply, move, seat, err)
			}
		}
	}
}

// checkAnalysis analyses s for seat twice and checks one analysis.
func checkAnalysis(t *testing.T, an engine.Analyser, s engine.State, seat int, cfg AnalyserConfig) (engine.Analysis, error) {
	before, _ := s.MarshalJSON()
	a, err := an.Analyse(s, seat, cfg.Budget)
	if err != nil {
		return a, fmt.Errorf("analyse: %w", err)
	}
	if after, _ := s.MarshalJSON(); !bytes.Equal(before, after) {
		return a, fmt.Errorf("the analysis changed the state")
	}
	again, err := an.Analyse(s, seat, cfg.Budget)
	if err != nil {
		return a, fmt.Errorf("analyse again: %w", err)
	}
	if !reflect.DeepEqual(a, again) {
		return a, fmt.Errorf("two analyses with the same budget differ:\n%+v\n%+v", show(a), show(again))
	}
	legal := s.Legal(seat)
	switch {
	case a.Seat != seat:
		return a, fmt.Errorf("analysis of seat %d says seat %d", seat, a.Seat)
	case a.Method == "":
		return a, fmt.Errorf("no method: %s", show(a))
	case len(a.Best) == 0:
		return a, fmt.Errorf("no best move: %s", show(a))
	case a.WinRate != nil && !(*a.WinRate >= 0 && *a.WinRate <= 1):
		return a, fmt.Errorf("win rate %v out of [0, 1]", *a.WinRate)
	case a.Outlook != "" && a.Outlook != engine.OutlookWin && a.Outlook != engine.OutlookDraw && a.Outlook != engine.OutlookLoss:
		return a, fmt.Errorf("outlook %q", a.Outlook)
	}
	if err := legalAndDistinct("best", a.Best, legal); err != nil {
		return a, err
	}
	moves := make([]string, len(a.Moves))
	for i, mv := range a.Moves {
		moves[i] = mv.Move
		if mv.WinRate != nil && !(*mv.WinRate >= 0 && *mv.WinRate <= 1) {
			return a, fmt.Errorf("move %s: win rate %v out of [0, 1]", mv.Move, *mv.WinRate)
		}
	}
	if err := legalAndDistinct("moves", moves, legal); err != nil {
		return a, err
	}
	if !slices.IsSortedFunc(moves, func(x, y string) int { return slices.Index(legal, x) - slices.Index(legal, y) }) {
		return a, fmt.Errorf("moves %v are not in Legal order %v", moves, legal)
	}
	if a.Method == engine.MethodTable {
		if !slices.Equal(moves, legal) {
			return a, fmt.Errorf("table analysis: moves %v, want every legal move %v", moves, legal)
		}
		var keep []string
		var top engine.Outlook
		for _, mv := range a.Moves {
			if mv.Outlook == "" {
				return a, fmt.Errorf("table analysis: move %s without an outlook", mv.Move)
			}
			if mv.Outlook.Better(top) {
				top = mv.Outlook
			}
		}
		for _, mv := range a.Moves {
			if mv.Outlook == top {
				keep = append(keep, mv.Move)
			}
		}
		if a.Outlook != top {
			return a, fmt.Errorf("table analysis: outlook %q, the best move's is %q", a.Outlook, top)
		}
		got := slices.Clone(a.Best[1:])
		want := slices.DeleteFunc(keep, func(m string) bool { return m == a.Best[0] })
		if len(want) == len(keep) || !slices.Equal(got, want) {
			return a, fmt.Errorf("table analysis: best %v, want the preferred move then %v", a.Best, want)
		}
	}
	if cfg.Check != nil {
		cfg.Check(t, s, seat, a)
	}
	return a, nil
}

// legalAndDistinct reports a move of ms that is not in legal or repeated.
func legalAndDistinct(what string, ms, legal []string) error {
	seen := map[string]bool{}
	for _, m := range ms {
		if !slices.Contains(legal, m) {
			return fmt.Errorf("%s: %q is not legal (legal: %v)", what, m, legal)
		}
		if seen[m] {
			return fmt.Errorf("%s: %q twice in %v", what, m, ms)
		}
		seen[m] = true
	}
	return nil
}

// show is an analysis as JSON, for messages.
func show(a engine.Analysis) string {
	b, _ := json.Marshal(a)
	return string(b)
}

// BenchmarkAnalysis measures the analysis of a whole game of g's variant:
// it first plays one game (the analysis's preferred move, a random legal
// move every fourth ply, from seed; at most maxPlies plies, 0 for no
// limit), then analyses each of its positions at budget b.N times, and
// reports the process's CPU time per analysed position ("cpu-ms/ply",
// getrusage: what the work costs, whatever else the machine runs), the
// wall time per position ("ms/ply") and the plies of the game.
func BenchmarkAnalysis(b *testing.B, g engine.Game, variant string, budget engine.Budget, seed uint64, maxPlies int) {
	an := g.(engine.Analyser)
	s, err := g.New(variant, nil, seed)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xbe))
	type position struct {
		s    engine.State
		seat int
	}
	var game []position
	for ply := 0; !s.Outcome().Over && (maxPlies == 0 || ply < maxPlies); ply++ {
		seat := 0
		for len(s.Legal(seat)) == 0 {
			seat++
		}
		a, err := an.Analyse(s, seat, budget)
		if err != nil {
			b.Fatal(err)
		}
		game = append(game, position{s.Clone(), seat})
		move := a.Best[0]
		if ply%4 == 3 {
			legal := s.Legal(seat)
			move = legal[rng.IntN(len(legal))]
		}
		if err := s.Apply(seat, move); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu := ProcessCPU()
	for range b.N {
		for _, p := range game {
			if _, err := an.Analyse(p.s, p.seat, budget); err != nil {
				b.Fatal(err)
			}
		}
	}
	n := float64(b.N * len(game))
	b.ReportMetric(float64((ProcessCPU()-cpu).Microseconds())/1000/n, "cpu-ms/ply")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/n, "ms/ply")
	b.ReportMetric(float64(len(game)), "plies")
}
