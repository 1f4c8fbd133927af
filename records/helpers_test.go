package records

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/players"
)

var catalog = games.Catalog()

// t0 is the creation time of the test records.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// newRecord is a record of game with two people (or one, in one-seat
// variants) and no moves yet.
func newRecord(t testing.TB, game, variant, setup string) *Record {
	t.Helper()
	g, ok := catalog.Game(game)
	if !ok {
		t.Fatalf("no game %q", game)
	}
	v, ok := g.Info().Variant(variant)
	if !ok {
		t.Fatalf("%s has no variant %q", game, variant)
	}
	rec := &Record{Room: "r-" + game + "-" + variant, Game: game, Variant: variant, Seed: 42,
		Status: StatusPlaying, Created: t0, Started: t0.Add(4 * time.Second)}
	if setup != "" {
		rec.Setup = json.RawMessage(setup)
	}
	names := []string{"ana", "bia"}
	for i := range v.Seats {
		rec.Players = append(rec.Players, players.Player{ID: "p" + names[i], Name: names[i]})
	}
	return rec
}

// play appends moves to rec, each by the seat to move (seat 0 when both
// move freely) and taking 1 s plus 137 ms a move number, and ends the
// record as the engine does. It returns the engine state after them.
func play(t testing.TB, rec *Record, moves ...string) engine.State {
	t.Helper()
	st := replayed(t, rec)
	for _, mv := range moves {
		seat, ok := st.Turn()
		if !ok {
			seat = 0
		}
		if err := st.Apply(seat, mv); err != nil {
			t.Fatalf("move %d %q: %v", len(rec.Moves)+1, mv, err)
		}
		rec.Moves = append(rec.Moves, Move{Seat: seat, Move: mv, Ms: 1000 + 137*int64(len(rec.Moves))})
	}
	end(rec, st)
	return st
}

// end records the engine's outcome when the game is over.
func end(rec *Record, st engine.State) {
	if out := st.Outcome(); out.Over {
		rec.Result = &Result{Winner: out.Winner, Reason: out.Reason}
		rec.Status = StatusFinished
		var total int64
		for _, m := range rec.Moves {
			total += m.Ms
		}
		rec.Ended = rec.Started.Add(time.Duration(total) * time.Millisecond)
	}
}

// replayed is the engine state after rec's moves.
func replayed(t testing.TB, rec *Record) engine.State {
	t.Helper()
	st, err := catalog.NewWithOptions(rec.Game, rec.Variant, rec.Setup, rec.Seed, rec.Options())
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range rec.Moves {
		if err := st.Apply(m.Seat, m.Move); err != nil {
			t.Fatalf("replay move %d: %v", i+1, err)
		}
	}
	return st
}

// playRandom plays random legal moves in rec until the game ends or it has
// max moves. In go a pass is chosen with probability passOdds (else only
// when nothing else is legal), so games run long and capture.
func playRandom(t testing.TB, rec *Record, rng *rand.Rand, max int, passOdds float64) engine.State {
	t.Helper()
	st := replayed(t, rec)
	for len(rec.Moves) < max && !st.Outcome().Over {
		seat, ok := st.Turn()
		if !ok {
			seat = rng.IntN(st.Seats())
			if len(st.Legal(seat)) == 0 {
				seat = 1 - seat
			}
		}
		legal := st.Legal(seat)
		mv := legal[rng.IntN(len(legal))]
		if rec.Game == "go" && len(legal) > 1 {
			if rng.Float64() < passOdds {
				mv = "pass"
			} else {
				for mv == "pass" {
					mv = legal[rng.IntN(len(legal))]
				}
			}
		}
		if err := st.Apply(seat, mv); err != nil {
			t.Fatalf("move %d %q: %v", len(rec.Moves)+1, mv, err)
		}
		rec.Moves = append(rec.Moves, Move{Seat: seat, Move: mv, Ms: rng.Int64N(30000)})
	}
	end(rec, st)
	return st
}
