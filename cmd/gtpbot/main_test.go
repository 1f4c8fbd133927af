package main

import (
	"context"
	"log"
	"os"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// gnugo is Debian's GNU Go, the outside engine of the go tests.
const gnugo = "/usr/games/gnugo"

// TestGnuGoPlaysForte: the bridge, with GNU Go as its engine, plays go 9x9
// as a bot account against the server's forte in a room, to the end; a
// spectator sees every move and the result.
func TestGnuGoPlaysForte(t *testing.T) {
	if _, err := os.Stat(gnugo); err != nil {
		t.Fatalf("GNU Go is needed (Debian's gnugo package): %v", err)
	}
	think := 300 * time.Millisecond // forte's time a move
	if testing.Short() {
		think = 50 * time.Millisecond // a weaker forte, the same game to its end
	}
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = think })
	owner := s.Hello(t, "ana", "")
	id, tok := s.RegisterBot(t, owner.Token, "GNU Go")
	var out testserver.Output
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, config{server: s.URL, token: tok, games: 1,
			engine: gnugo + " --mode gtp --chinese-rules --komi 0.5 --level 1"}, log.New(&out, "", 0))
	}()
	rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
	room, err := s.Rooms.Create(rctx, rooms.Spec{Game: "go", Variant: "9",
		Seats: []players.Player{players.Of(id, "GNU Go"), {Bot: "forte", Name: "bot forte"}}})
	rcancel()
	if err != nil {
		t.Fatal(err)
	}
	watcher := s.Hello(t, "watcher", "")
	watcher.Send(map[string]any{"type": "room.join", "room": room.ID(), "as": "spectator"})
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gtpbot: %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Minute):
		t.Fatalf("the game did not finish; gtpbot's log:\n%s", out.String())
	}
	fin := watcher.StateEver(room.ID(), func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil {
		t.Fatalf("no result: %s", fin.Raw)
	}
	switch fin.Result.Reason {
	case "abandoned", "aborted", "time":
		t.Fatalf("the bridge did not play the game out: %s\n%s", fin.Raw, out.String())
	}
	var rec struct {
		Moves []struct{ Seat int }
	}
	s.GetJSON(t, "/api/records/"+room.ID(), &rec)
	mine := 0
	for _, m := range rec.Moves {
		if m.Seat == 0 {
			mine++
		}
	}
	if mine < 5 {
		t.Fatalf("GNU Go made %d moves in %d; log:\n%s", mine, len(rec.Moves), out.String())
	}
	winner := -1 // none
	if fin.Result.Winner != nil {
		winner = *fin.Result.Winner
	}
	t.Logf("GNU Go (level 1, seat 0) against forte: winner seat %d by %s after %d moves", winner, fin.Result.Reason, len(rec.Moves))
}
