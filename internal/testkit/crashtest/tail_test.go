package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestSIGKILLBetweenSnapshots: the real binary on Redis, a 9x9 go game with
// a clock between two people, killed after a number of moves that is not a
// multiple of rooms.SnapshotEvery, so that the last moves are in the
// room's log alone (the store shows it). The restarted server, which
// replays them on the last snapshot, shows exactly what the players saw:
// seq, board, turn, legal moves, score, last move, the history played, the clock of
// the seat not to move to the millisecond. The game goes on; after a
// second kill the same holds, and the log's history is the game played,
// each move once.
func TestSIGKILLBetweenSnapshots(t *testing.T) {
	t.Parallel()
	const prefix = "tail:"
	p := startPair(t, prefix, "go", "9", 600)
	l, srv, a, b, room, seen := p.l, p.srv, p.a, p.b, p.room, p.state
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := redisstore.New(ctx, p.rs.Addr(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	rng := rand.New(rand.NewPCG(7, 11))
	var played []string
	play := func(n int) {
		t.Helper()
		for range n {
			players := []*testserver.Client{a, b}
			mover := players[*seen.Turn]
			legal := slices.DeleteFunc(slices.Clone(seen.Legal), func(m string) bool { return m == "pass" })
			mv := legal[rng.IntN(len(legal))]
			mover.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
			seq := seen.Seq
			seen = a.State(room, func(m testserver.Msg) bool { return m.Seq > seq && m.LastMove != nil && m.LastMove.Move == mv })
			b.State(room, func(m testserver.Msg) bool { return m.Seq >= seen.Seq })
			played = append(played, fmt.Sprintf("%d:%s", seen.LastMove.Seat, mv))
		}
	}
	check := func(when string, killed time.Time) {
		t.Helper()
		a, b = srv.Hello(t, "", a.Token), srv.Hello(t, "", b.Token)
		got := a.State(room, nil)
		b.State(room, nil)
		if got.Seq != seen.Seq || string(got.Board) != string(seen.Board) || *got.Turn != *seen.Turn ||
			!slices.Equal(got.Legal, seen.Legal) || string(got.Score) != string(seen.Score) ||
			!slices.Equal(movesOf(got), played) || *got.LastMove != *seen.LastMove || got.Status != "playing" {
			t.Fatalf("%s: the restarted server shows\n%s\nthe players saw\n%s", when, got.Raw, seen.Raw)
		}
		gc, sc := clocksOf(t, got), clocksOf(t, seen)
		mover, other := fmt.Sprint(*got.Turn), fmt.Sprint(1-*got.Turn)
		if gc[other] != sc[other] || gc[mover] > sc[mover]+1000 || gc[mover] < sc[mover]-time.Since(killed).Milliseconds()-1000 {
			t.Fatalf("%s: clocks %v, the players saw %v", when, gc, sc)
		}
		seen = got
	}

	play(rooms.SnapshotEvery + 7)
	saved, err := st.LoadRoom(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Seq != seen.Seq || saved.Seq == saved.SnapshotSeq || len(saved.Tail) == 0 {
		t.Fatalf("before the kill: stored seq %d, snapshot at %d, %d entries after it; want seq %d with moves after the snapshot",
			saved.Seq, saved.SnapshotSeq, len(saved.Tail), seen.Seq)
	}
	l.kill()
	killed := time.Now()
	l.start()
	check("after the first kill", killed)

	play(5)
	l.kill()
	killed = time.Now()
	l.start()
	check("after the second kill", killed)

	history, err := logHistory(ctx, st, room)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(history, played) {
		t.Fatalf("the log's history\n%v\nwant the %d moves played\n%v", history, len(played), played)
	}
}

// movesOf is the history a join's room.state gives, as "seat:move".
func movesOf(m testserver.Msg) []string {
	var out []string
	for _, mv := range m.Moves {
		out = append(out, fmt.Sprintf("%d:%s", mv.Seat, mv.Move))
	}
	return out
}

// clocksOf reads room.state's clocks.
func clocksOf(t *testing.T, m testserver.Msg) map[string]int64 {
	t.Helper()
	var v struct{ Clocks map[string]int64 }
	if err := json.Unmarshal(m.Raw, &v); err != nil || len(v.Clocks) != 2 {
		t.Fatalf("clocks of %s: %v", m.Raw, err)
	}
	return v.Clocks
}
