// Package enginetest checks the properties that every engine.State must
// have, over many random games: every legal move applies, moves that are not
// legal are refused and change nothing, snapshots restore a game that then
// continues identically, clones are independent, and games end.
package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Config says what to check.
type Config struct {
	// Variant to play.
	Variant string
	// Setup, optional, to start from.
	Setup json.RawMessage
	// Games is the number of random games to play.
	Games int
	// MaxPlies bounds a game; a game still going after it fails the check
	// unless AllowUnfinished is set.
	MaxPlies int
	// AllowUnfinished accepts games that are still going after MaxPlies
	// (go on 19x19 with random play, say).
	AllowUnfinished bool
	// Probes are moves that are tried at every ply for every seat; when one
	// is not in Legal(seat) it must be refused and change nothing. Include
	// malformed ones ("", "zz", "a0").
	Probes []string
	// SnapshotEvery makes the check snapshot and restore every this many
	// plies (1 = every ply). 0 means every ply.
	SnapshotEvery int
	// Invariant, optional, is called after every applied move.
	Invariant func(t testing.TB, before, after engine.State, seat int, move string)
	// Scored, when not nil, counts the steps taken in scoring phases
	// (engine.Scoring: toggles and acceptances), so that a test can tell
	// that its games reached one.
	Scored *int
}

// Check plays cfg.Games random games of g and checks the engine contract.
func Check(t *testing.T, g engine.Game, cfg Config) {
	t.Helper()
	if cfg.Games == 0 {
		cfg.Games = 200
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 10000
	}
	if cfg.SnapshotEvery == 0 {
		cfg.SnapshotEvery = 1
	}
	for i := range cfg.Games {
		rng := rand.New(rand.NewPCG(uint64(i), 0x7ab))
		if err := playOne(t, g, cfg, rng, uint64(i)); err != nil {
			t.Fatalf("game %d (variant %s): %v", i, cfg.Variant, err)
		}
	}
}

func playOne(t *testing.T, g engine.Game, cfg Config, rng *rand.Rand, seed uint64) error {
	s, err := g.New(cfg.Variant, cfg.Setup, seed)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	var moves []string
	for ply := 0; ; ply++ {
		out := s.Outcome()
		if out.Over {
			if out.Reason == "" {
				return fmt.Errorf("ply %d: game over without a reason", ply)
			}
			if out.Winner < -1 || out.Winner >= s.Seats() {
				return fmt.Errorf("ply %d: winner %d out of range", ply, out.Winner)
			}
			for seat := range s.Seats() {
				if l := s.Legal(seat); len(l) != 0 {
					return fmt.Errorf("ply %d: game over but seat %d has legal moves %v", ply, seat, l)
				}
				if err := checkRefused(s, seat, "", engine.CodeGameOver); err != nil {
					return err
				}
			}
			return nil
		}
		if ply >= cfg.MaxPlies {
			if cfg.AllowUnfinished {
				return nil
			}
			return fmt.Errorf("not over after %d plies: %v", ply, moves)
		}
		var restored engine.State
		if ply%cfg.SnapshotEvery == 0 {
			if restored, err = RoundTrip(g, s); err != nil {
				return fmt.Errorf("ply %d after %v: %w", ply, moves, err)
			}
		}
		sc, scoring := s.(engine.Scoring)
		scoring = scoring && sc.Scoring()
		var movers []int
		for seat := range s.Seats() {
			legal := s.Legal(seat)
			if len(legal) > 0 {
				movers = append(movers, seat)
			}
			for _, p := range cfg.Probes {
				if slices.Contains(legal, p) {
					continue
				}
				if err := checkRefused(s, seat, p, ""); err != nil {
					return fmt.Errorf("ply %d: %w", ply, err)
				}
			}
		}
		if turn, ok := s.Turn(); ok && !(scoring && len(movers) == 0) {
			if !slices.Equal(movers, []int{turn}) {
				return fmt.Errorf("ply %d: turn %d but seats with legal moves are %v", ply, turn, movers)
			}
		}
		if scoring && (len(movers) == 0 || rng.IntN(2) == 0) {
			// The scoring phase: a toggle or an acceptance by a random
			// seat instead of a move that resumes the game.
			if err := scoreStep(s, sc, rng); err != nil {
				return fmt.Errorf("ply %d: %w", ply, err)
			}
			if cfg.Scored != nil {
				*cfg.Scored++
			}
			moves = append(moves, "(scoring)")
			continue
		}
		if len(movers) == 0 {
			return fmt.Errorf("ply %d: game not over but nobody has a legal move", ply)
		}
		seat := movers[rng.IntN(len(movers))]
		legal := s.Legal(seat)
		move := legal[rng.IntN(len(legal))]
		// A clone must not see the move.
		clone := s.Clone()
		before, _ := s.MarshalJSON()
		if err := s.Apply(seat, move); err != nil {
			return fmt.Errorf("ply %d: legal move %q for seat %d refused: %w", ply, move, seat, err)
		}
		if cloned, _ := clone.MarshalJSON(); !bytes.Equal(cloned, before) {
			return fmt.Errorf("ply %d: applying %q to the original changed its clone", ply, move)
		}
		if restored != nil {
			// The restored copy continues identically, chance included.
			if err := restored.Apply(seat, move); err != nil {
				return fmt.Errorf("ply %d: restored copy refused %q: %w", ply, move, err)
			}
			if err := Same(s, restored); err != nil {
				return fmt.Errorf("ply %d: restored copy diverged after %q: %w", ply, move, err)
			}
		}
		if cfg.Invariant != nil {
			cfg.Invariant(t, clone, s, seat, move)
		}
		moves = append(moves, move)
	}
}

// scoreStep takes one step of a scoring phase (engine.Scoring) for a random
// seat: a toggle of a random stone (a third of the time), else an
// acceptance of the marking. A toggle clears the acceptances; an
// acceptance is recorded; once every seat accepted, the game is over.
func scoreStep(s engine.State, sc engine.Scoring, rng *rand.Rand) error {
	seat := rng.IntN(s.Seats())
	if rng.IntN(3) == 0 {
		var stones []string
		raw, _ := json.Marshal(s.Board())
		var rows []string
		if err := json.Unmarshal(raw, &rows); err == nil {
			for i, row := range rows {
				for col, c := range row {
					if c != '.' {
						stones = append(stones, fmt.Sprintf("%c%d", 'A'+col, len(rows)-i))
					}
				}
			}
		}
		if len(stones) > 0 {
			before := slices.Clone(sc.Dead())
			p := stones[rng.IntN(len(stones))]
			if err := sc.Toggle(seat, p); err != nil {
				return fmt.Errorf("toggle %s for seat %d refused: %w", p, seat, err)
			}
			if slices.Equal(before, sc.Dead()) {
				return fmt.Errorf("toggle %s changed no mark", p)
			}
			for i := range s.Seats() {
				if sc.Accepted(i) {
					return fmt.Errorf("seat %d still accepts after a toggle", i)
				}
			}
			return nil
		}
	}
	if err := sc.Accept(seat); err != nil {
		return fmt.Errorf("accept by seat %d refused: %w", seat, err)
	}
	if !sc.Accepted(seat) {
		return fmt.Errorf("seat %d accepted but is not counted", seat)
	}
	all := true
	for i := range s.Seats() {
		all = all && sc.Accepted(i)
	}
	if over := s.Outcome().Over; over != all || sc.Scoring() == all {
		return fmt.Errorf("every seat accepted: %v, over: %v, scoring: %v", all, over, sc.Scoring())
	}
	return nil
}

// checkRefused applies move for seat and requires an *engine.Error (of code
// want, when want is not empty) and an unchanged state.
func checkRefused(s engine.State, seat int, move string, want engine.Code) error {
	before, err := s.MarshalJSON()
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	err = s.Apply(seat, move)
	if err == nil {
		return fmt.Errorf("move %q for seat %d accepted but it is not in Legal: %v", move, seat, s.Legal(seat))
	}
	code := engine.CodeOf(err)
	if code == "" {
		return fmt.Errorf("move %q for seat %d: error %v is not an *engine.Error", move, seat, err)
	}
	if want != "" && code != want {
		return fmt.Errorf("move %q for seat %d: code %s, want %s", move, seat, code, want)
	}
	after, _ := s.MarshalJSON()
	if !bytes.Equal(before, after) {
		return fmt.Errorf("refused move %q for seat %d changed the state", move, seat)
	}
	return nil
}

// RoundTrip restores s from its snapshot, checks that the copy is the same
// game (same snapshot bytes, same view, same legal moves) and returns it.
// Check runs it at every ply; a game's FuzzRestore runs it on every
// snapshot Restore accepts.
func RoundTrip(g engine.Game, s engine.State) (engine.State, error) {
	snap, err := s.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	// Rooms write the snapshot into theirs as it is, unchecked.
	if !json.Valid(snap) {
		return nil, fmt.Errorf("snapshot is not valid JSON: %s", snap)
	}
	r, err := g.Restore(snap)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	snap2, err := r.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal restored: %w", err)
	}
	if !bytes.Equal(snap, snap2) {
		return nil, fmt.Errorf("snapshot round trip differs:\n got %s\nwant %s", snap2, snap)
	}
	if err := Same(s, r); err != nil {
		return nil, fmt.Errorf("restored state: %w", err)
	}
	return r, nil
}

// Same reports how a and b differ as games, or nil when they agree on
// everything visible: variant, turn, outcome, score, board, extra fields and
// every seat's legal moves.
func Same(a, b engine.State) error {
	type view struct {
		Variant string
		Turn    int
		TurnOK  bool
		Outcome engine.Outcome
		Score   any
		Board   any
		Extra   map[string]any
		Legal   [][]string
	}
	see := func(s engine.State) []byte {
		v := view{Variant: s.Variant(), Outcome: s.Outcome(), Score: s.Score(), Board: s.Board(), Extra: s.Extra()}
		v.Turn, v.TurnOK = s.Turn()
		for seat := range s.Seats() {
			v.Legal = append(v.Legal, s.Legal(seat))
		}
		b, err := json.Marshal(v)
		if err != nil {
			return []byte(err.Error())
		}
		return b
	}
	va, vb := see(a), see(b)
	if !bytes.Equal(va, vb) {
		return fmt.Errorf("views differ:\n a %s\n b %s", va, vb)
	}
	return nil
}

// Replay applies moves in turn to s: each element is "seat:move" or, for
// alternating games, just the move for the seat to move. It fails the test at
// the first refused move.
func Replay(t testing.TB, s engine.State, moves ...string) {
	t.Helper()
	for i, m := range moves {
		seat, move := -1, m
		if len(m) > 2 && m[1] == ':' && m[0] >= '0' && m[0] <= '9' {
			seat, move = int(m[0]-'0'), m[2:]
		}
		if seat < 0 {
			var ok bool
			if seat, ok = s.Turn(); !ok {
				t.Fatalf("move %d %q: no seat to move", i, m)
			}
		}
		if err := s.Apply(seat, move); err != nil {
			t.Fatalf("move %d %q for seat %d: %v", i, move, seat, err)
		}
	}
}

// Bot is g's bot of level as the service gets it; it fails the test when g
// has no such level.
func Bot(t testing.TB, g engine.Game, level string) engine.Bot {
	t.Helper()
	bot, ok := g.Bot(level)
	if !ok {
		t.Fatalf("%s: Bot(%q) missing", g.Info().ID, level)
	}
	return bot
}

// New starts a game of g's variant from a setup given as JSON text ("" for
// the initial position) and seed, failing the test when it is refused.
func New(t testing.TB, g engine.Game, variant, setup string, seed uint64) engine.State {
	t.Helper()
	var raw json.RawMessage
	if setup != "" {
		raw = json.RawMessage(setup)
	}
	s, err := g.New(variant, raw, seed)
	if err != nil {
		t.Fatalf("%s: New(%q, %s, %d): %v", g.Info().ID, variant, setup, seed, err)
	}
	return s
}

// Analyse analyses s with g's Analyser for the seat to move within budget,
// failing the test when the game is over or the analysis fails.
func Analyse(t testing.TB, g engine.Game, s engine.State, budget engine.Budget) engine.Analysis {
	t.Helper()
	seat, ok := s.Turn()
	if !ok {
		t.Fatal("analyse: the game is over")
	}
	a, err := g.(engine.Analyser).Analyse(s, seat, budget)
	if err != nil {
		t.Fatalf("analyse %s for seat %d: %v", s.Board(), seat, err)
	}
	return a
}
