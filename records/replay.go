package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Position is one position of a replayed game, as the page shows it: the
// engine's board, score, side to move and extra fields, each already
// encoded as JSON (so a position never shares memory with an engine state).
type Position struct {
	// Board is the engine's Board() (room.state "board").
	Board json.RawMessage
	// Score is the engine's Score(), JSON null when it keeps none.
	Score json.RawMessage
	// Turn is the seat to move; nil when no single seat is (2048 race)
	// and in the last position of a finished game.
	Turn *int
	// Extra holds the engine's Extra() fields (go "stones", queens
	// "owners", ...).
	Extra map[string]json.RawMessage
}

// MarshalJSON writes {"board","score","turn"} and the extra fields beside
// them; the core fields win a clash, as in room.state.
func (p Position) MarshalJSON() ([]byte, error) {
	b := []byte(`{"board":`)
	b = append(b, orNull(p.Board)...)
	b = append(b, `,"score":`...)
	b = append(b, orNull(p.Score)...)
	b = append(b, `,"turn":`...)
	if p.Turn == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, itoa(*p.Turn)...)
	}
	for _, k := range slices.Sorted(maps.Keys(p.Extra)) {
		if k == "board" || k == "score" || k == "turn" {
			continue
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b = append(b, ',')
		b = append(b, key...)
		b = append(b, ':')
		b = append(b, orNull(p.Extra[k])...)
	}
	return append(b, '}'), nil
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// ErrTooLong is returned by ReplayContext when the positions would take
// more than its budget.
var ErrTooLong = errors.New("records: game too long to replay within the budget")

// Replay plays the record's moves from its start position through the
// game's engine and returns every position: index 0 is the start, index i
// the position after move i. It refuses a record the rules refuse: an
// unknown game or variant, a bad setup, a move the engine refuses (out of
// turn, illegal, after the end), or a result that contradicts the engine's
// when the engine ended the game.
func Replay(cat *engine.Catalog, rec *Record) ([]Position, error) {
	return ReplayContext(context.Background(), cat, rec, 0)
}

// ReplayContext is Replay bounded in cost: it stops with ctx's error when
// ctx ends (it looks every 64 moves), and with ErrTooLong as soon as the
// encoded positions pass budget bytes (0: no budget).
func ReplayContext(ctx context.Context, cat *engine.Catalog, rec *Record, budget int) ([]Position, error) {
	out := make([]Position, 0, len(rec.Moves)+1)
	size := 0
	_, err := replay(ctx, cat, rec, func(i int, st engine.State) error {
		p, err := positionOf(st)
		if err != nil {
			return err
		}
		size += len(p.Board) + len(p.Score) + 16
		for k, v := range p.Extra {
			size += len(k) + len(v) + 4
		}
		if budget > 0 && size > budget {
			return ErrTooLong
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rec.Finished() {
		out[len(out)-1].Turn = nil
	}
	return out, nil
}

// FinalState replays the record and returns the engine state after its
// last move (see Replay for what it refuses).
func FinalState(ctx context.Context, cat *engine.Catalog, rec *Record) (engine.State, error) {
	return replay(ctx, cat, rec, nil)
}

// replay plays the record through the engine, calling visit (when not nil)
// with the start position (i = 0) and after each move i.
func replay(ctx context.Context, cat *engine.Catalog, rec *Record, visit func(i int, st engine.State) error) (engine.State, error) {
	st, err := cat.NewWithOptions(rec.Game, rec.Variant, rec.Setup, rec.Seed, rec.Options())
	if err != nil {
		return nil, fmt.Errorf("replay room %s: %w", rec.Room, err)
	}
	if len(rec.Moves) == 0 && len(rec.Dead) > 0 {
		return nil, fmt.Errorf("replay room %s: dead stones in a game without moves", rec.Room)
	}
	if visit != nil {
		if err := visit(0, st); err != nil {
			return nil, fmt.Errorf("replay room %s: start: %w", rec.Room, err)
		}
	}
	for i, m := range rec.Moves {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("replay room %s: %w", rec.Room, err)
			}
		}
		if err := st.Apply(m.Seat, m.Move); err != nil {
			return nil, fmt.Errorf("replay room %s: move %d (seat %d %q): %w", rec.Room, i+1, m.Seat, m.Move, err)
		}
		if i == len(rec.Moves)-1 {
			if err := settle(st, rec); err != nil {
				return nil, fmt.Errorf("replay room %s: %w", rec.Room, err)
			}
		}
		if visit != nil {
			if err := visit(i+1, st); err != nil {
				return nil, fmt.Errorf("replay room %s: after move %d: %w", rec.Room, i+1, err)
			}
		}
	}
	if out := st.Outcome(); out.Over {
		if res := rec.Result; res == nil || res.Winner != out.Winner || res.Reason != out.Reason {
			return nil, fmt.Errorf("replay room %s: the engine ends the game with winner %d by %q, the record says %s",
				rec.Room, out.Winner, out.Reason, describeResult(res))
		}
	}
	return st, nil
}

// settle gives a game that ends in a scoring phase (go's stone removal,
// engine.Scoring) the record's marking, Dead, and when the record says the
// game was counted by it (engine.ReasonScored), every seat's acceptance,
// which ends it: the last position is then the one the players saw at the
// end. Dead stones in a game that did not end in the phase are refused.
func settle(st engine.State, rec *Record) error {
	sc, ok := st.(engine.Scoring)
	if !ok || !sc.Scoring() {
		if len(rec.Dead) > 0 {
			return fmt.Errorf("dead stones %v in a game that did not end in a stone-removal phase", rec.Dead)
		}
		return nil
	}
	if err := sc.Mark(rec.Dead); err != nil {
		return fmt.Errorf("dead stones %v: %w", rec.Dead, err)
	}
	if res := rec.Result; res == nil || res.Reason != engine.ReasonScored {
		return nil
	}
	for seat := range st.Seats() {
		if err := sc.Accept(seat); err != nil {
			return fmt.Errorf("scoring: %w", err)
		}
	}
	return nil
}

func describeResult(res *Result) string {
	if res == nil {
		return "it goes on"
	}
	return fmt.Sprintf("winner %d by %q", res.Winner, res.Reason)
}

// positionOf encodes what the page needs of st.
func positionOf(st engine.State) (Position, error) {
	var p Position
	var err error
	if p.Board, err = json.Marshal(st.Board()); err != nil {
		return p, fmt.Errorf("board: %w", err)
	}
	if p.Score, err = json.Marshal(st.Score()); err != nil {
		return p, fmt.Errorf("score: %w", err)
	}
	if t, ok := st.Turn(); ok {
		p.Turn = &t
	}
	if extra := st.Extra(); len(extra) > 0 {
		p.Extra = make(map[string]json.RawMessage, len(extra))
		for k, v := range extra {
			if p.Extra[k], err = json.Marshal(v); err != nil {
				return p, fmt.Errorf("extra %q: %w", k, err)
			}
		}
	}
	return p, nil
}

// Visit replays the record through the engine, calling visit with the start
// position (i = 0) and the position after each move i; visit must not keep
// or change st. It returns the final state.
func Visit(ctx context.Context, cat *engine.Catalog, rec *Record, visit func(i int, st engine.State) error) (engine.State, error) {
	return replay(ctx, cat, rec, visit)
}
