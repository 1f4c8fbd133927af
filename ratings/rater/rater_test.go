package rater_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/ratings/rater"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// stores runs f on the memory store and on a real Redis.
func stores(t *testing.T, f func(t *testing.T, st store.Store)) {
	t.Run("memory", func(t *testing.T) { f(t, memstore.New()) })
	t.Run("redis", func(t *testing.T) {
		addr := redistest.Start(t)
		st, err := redisstore.New(context.Background(), addr, redistest.Prefix(t, addr))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		f(t, st)
	})
}

var (
	botA = players.Of(players.BotID("a"), "alfa")
	botB = players.Of(players.BotID("b"), "beta")
)

// finished is the record of a finished rated morris game between botA and
// botB that ended at ended with winner (-1 a draw) for reason.
func finished(room string, winner int, reason string, ended time.Time) *records.Record {
	return &records.Record{Room: room, Game: "morris", Variant: "3", Status: records.StatusFinished, Rated: true,
		Players: []players.Player{botA, botB}, Created: ended.Add(-time.Minute), Started: ended.Add(-time.Minute),
		Ended: ended, Moves: []records.Move{{Seat: 0, Move: "b2"}}, Result: &records.Result{Winner: winner, Reason: reason}}
}

// putRecord writes rec as the finishing save does: owed when it is a
// rated result.
func putRecord(t *testing.T, st store.Store, rec *records.Record) {
	t.Helper()
	data, err := records.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	_, owed := rec.RatedScore()
	if err := st.Records().PutRecord(context.Background(), store.RecordEntry{Room: rec.Room, Data: data,
		Players: []string{botA.ID, botB.ID}, Ended: rec.Ended, Rated: owed}); err != nil {
		t.Fatal(err)
	}
}

// until waits for cond (the rater works on its own goroutine).
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

func rating(t *testing.T, st store.Store, id string) ratings.Rating {
	t.Helper()
	r, err := st.Rating(context.Background(), "morris/3", id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func same(a, b ratings.Rating) bool {
	return a.Games == b.Games && math.Abs(a.Rating-b.Rating) < 1e-6 && math.Abs(a.Deviation-b.Deviation) < 1e-6 &&
		math.Abs(a.Volatility-b.Volatility) < 1e-9
}

// TestDrainsOwedGames: games a node left owed (the finishing save marked
// them, nobody applied them) are applied by a rater's drain at its start,
// each once, as Update rates them from their records: a win of the second
// seat on time, then a draw. A game owed again, and a second rater, change
// nothing; an aborted game is never owed.
func TestDrainsOwedGames(t *testing.T) {
	t.Parallel()
	stores(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
		putRecord(t, st, finished("aborted1", -1, records.ReasonAborted, t0))
		putRecord(t, st, finished("lost1", 1, "timeout", t0.Add(time.Minute)))
		posted := make(chan string, 8)
		post := func(room string, _ [2]ratings.Change) bool { posted <- room; return false }
		r1 := rater.New(rater.Config{Store: st, Post: post})
		defer r1.Shutdown(ctx)
		until(t, "the owed game applied", func() bool { return rating(t, st, botA.ID).Games == 1 })
		wantA, wantB := ratings.Update(ratings.New(), ratings.New(), 0, t0.Add(time.Minute))
		if a, b := rating(t, st, botA.ID), rating(t, st, botB.ID); !same(a, wantA) || !same(b, wantB) {
			t.Fatalf("after a loss on time: %+v %+v, want %+v %+v", a, b, wantA, wantB)
		}
		if got := <-posted; got != "lost1" {
			t.Fatalf("posted %s", got)
		}

		// The draw, owed while the rater runs: the next drain.
		putRecord(t, st, finished("draw1", -1, "agreement", t0.Add(2*time.Minute)))
		r1.Drain()
		until(t, "the draw applied", func() bool { return rating(t, st, botA.ID).Games == 2 })
		wantA, wantB = ratings.Update(wantA, wantB, 0.5, t0.Add(2*time.Minute))
		if a, b := rating(t, st, botA.ID), rating(t, st, botB.ID); !same(a, wantA) || !same(b, wantB) {
			t.Fatalf("after the draw: %+v %+v, want %+v %+v", a, b, wantA, wantB)
		}

		// Owed again (a later save of the finished room), and a second
		// rater: applied once all the same.
		if err := st.Owe(ctx, "lost1"); err != nil {
			t.Fatal(err)
		}
		r2 := rater.New(rater.Config{Store: st})
		defer r2.Shutdown(ctx)
		until(t, "nothing owed", func() bool {
			owed, err := st.Owed(ctx, 10)
			return err == nil && len(owed) == 0
		})
		if a := rating(t, st, botA.ID); !same(a, wantA) {
			t.Fatalf("a game owed again was applied again: %+v, want %+v", a, wantA)
		}
		if _, err := st.Changes(ctx, "aborted1"); !errors.Is(err, ratings.ErrNotFound) {
			t.Fatalf("an aborted game's changes: %v, want ErrNotFound", err)
		}
		res, err := st.Results(ctx, botB.ID)
		if err != nil || res != (ratings.Results{Won: 1, Drawn: 1}) {
			t.Fatalf("botB's results %+v (%v), want a win and a draw", res, err)
		}
	})
}

// TestRatesEvents: a room's end (rooms.GameEvent) is applied once, told
// again (Again) or not, and its changes posted; a resignation is the
// resigner's loss; a casual game and one without a result only count in
// the tallies; 2048 alone raises the best score.
func TestRatesEvents(t *testing.T) {
	t.Parallel()
	stores(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		posted := make(chan [2]ratings.Change, 8)
		r := rater.New(rater.Config{Store: st, Post: func(_ string, c [2]ratings.Change) bool { posted <- c; return true }})
		defer r.Shutdown(ctx)
		now := time.Now().Truncate(time.Millisecond)
		winner := 0
		ev := rooms.GameEvent{Room: "ev1", Game: "morris", Variant: "3", Status: rooms.StatusFinished, Rated: true,
			Players: []players.Player{botA, botB}, Result: &protocol.Result{Winner: &winner, Reason: "resign"},
			Started: now.Add(-time.Minute), Ended: now}
		r.OnGame(ev)
		ev.Again = true
		r.OnGame(ev)
		casual := ev
		casual.Room, casual.Rated, casual.Again = "casual1", false, false
		r.OnGame(casual)
		r.OnGame(rooms.GameEvent{Room: "solo1", Game: "2048", Variant: "solo", Status: rooms.StatusFinished,
			Players: []players.Player{botA}, Result: &protocol.Result{Reason: "no_moves"}, Started: now, Ended: now,
			Score: map[string]int{"0": 2048}})
		first := <-posted
		if again := <-posted; again != first {
			t.Fatalf("the game told again posted %+v, first %+v", again, first)
		}
		until(t, "the tallies and the best score", func() bool {
			res, _ := st.Results(ctx, botA.ID)
			best, _ := st.BestScore(ctx, botA.ID)
			return res.Won == 2 && best == 2048
		})
		wantA, wantB := ratings.Update(ratings.New(), ratings.New(), 1, now)
		if a, b := rating(t, st, botA.ID), rating(t, st, botB.ID); !same(a, wantA) || !same(b, wantB) {
			t.Fatalf("after botB resigned: %+v %+v, want %+v %+v", a, b, wantA, wantB)
		}
		if first[0].ID != botA.ID || !same(first[0].After, wantA) || first[0].Diff() <= 0 {
			t.Fatalf("posted %+v", first)
		}
		if res, _ := st.Results(ctx, botB.ID); res != (ratings.Results{Lost: 2}) {
			t.Fatalf("botB's results %+v, want two losses", res)
		}
	})
}
