package crashtest

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestRatedGamesSIGKILLed: the real binary on Redis. Two accounts play
// rated games that end every way a rated game ends (a line, a resignation,
// a draw agreed, and an abort, which is not rated); the process is
// SIGKILLed as soon as Redis holds each finished room, so the rater may or
// may not have applied it, and started again. Each rated game changes each
// rating exactly once: the games counted are the rated games, and both
// ratings are a replay of ratings.Update over the games in order, from
// their records; nothing is left owed.
func TestRatedGamesSIGKILLed(t *testing.T) {
	const prefix = "rated:"
	bin := lobbybin.Build(t, *raceFlag)
	rs := redistest.StartServer(t)
	l := newLobby(t, bin, rs.Addr(), prefix)
	l.start()
	srv := &testserver.Server{URL: l.url(), WSURL: l.wsURL()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := redisstore.New(ctx, rs.Addr(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	browsers := [2]*testserver.Browser{srv.NewBrowser(t), srv.NewBrowser(t)}
	var ids [2]string
	for i, name := range []string{"ana_k", "bia_k"} {
		var made struct{ ID string }
		if code, _ := browsers[i].Do("POST", "/api/account", map[string]string{"name": name, "password": name + " password"}, &made); code != http.StatusCreated {
			t.Fatalf("POST /api/account: %d", code)
		}
		ids[i] = made.ID
	}
	hello := func(i int) *testserver.Client {
		c, err := browsers[i].Dial()
		if err != nil {
			t.Fatal(err)
		}
		c.Send(map[string]any{"type": "hello"})
		c.Wait("welcome", nil)
		return c
	}
	waitFor := func(what string, cond func() (bool, error)) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
			ok, err := cond()
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never: %s", what)
			}
		}
	}
	// moves plays mvs in turn from first, each seen by the other.
	moves := func(first, second *testserver.Client, room string, mvs ...string) {
		for i, mv := range mvs {
			p, o := first, second
			if i%2 == 1 {
				p, o = second, first
			}
			p.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
			o.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == mv })
		}
	}
	ends := []struct {
		reason string
		end    func(first, second *testserver.Client, room string)
	}{
		{"line", func(f, s *testserver.Client, room string) { moves(f, s, room, "a1", "b1", "a2", "b2", "a3") }},
		{"resign", func(f, s *testserver.Client, room string) {
			moves(f, s, room, "b2")
			f.Send(map[string]any{"type": "room.resign", "room": room})
		}},
		{"agreement", func(f, s *testserver.Client, room string) {
			moves(f, s, room, "b2", "a1")
			f.Send(map[string]any{"type": "room.draw.offer", "room": room})
			s.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
			s.Send(map[string]any{"type": "room.draw.accept", "room": room})
		}},
		{"aborted", func(f, _ *testserver.Client, room string) {
			f.Send(map[string]any{"type": "room.abort", "room": room})
		}},
	}
	// At least rounds rounds, and more (up to maxRounds) until a kill
	// came before the rater applied a game: whether one does is a race
	// (about one kill in three here); ratings/rater's TestDrainsOwedGames
	// drains owed games without one.
	rounds, maxRounds := envInt("TABULEIRO_CRASH_RATED_ROUNDS", 2), 8
	if testing.Short() {
		rounds, maxRounds = 1, 4
	}
	maxRounds = max(rounds, maxRounds)
	var rated []string // the rated games' rooms, in the order they ended
	killedOwed := 0
	round := 0
	for ; round < rounds || killedOwed == 0 && round < maxRounds; round++ {
		for _, e := range ends {
			a, b := hello(round%2), hello(1-round%2)
			a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
			room := a.Wait("room.joined", nil).Room
			b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
			s := a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
			if !s.Rated {
				t.Fatalf("a game between two accounts is not rated: %s", s.Raw)
			}
			first, second := a, b
			if s.Players[*s.Turn].ID == b.Player.ID {
				first, second = b, a
			}
			e.end(first, second, room)
			waitFor("room "+room+" finished in the store", func() (bool, error) {
				saved, err := st.LoadRoom(ctx, room)
				if errors.Is(err, store.ErrNotFound) {
					return false, nil
				}
				return err == nil && saved.Finished, err
			})
			l.kill()
			a.Close()
			b.Close()
			owed, err := st.Owed(ctx, 100)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(owed, room) {
				killedOwed++ // killed before the rater applied it: the drain will
			}
			l.start()
			if e.reason == "aborted" {
				continue
			}
			rated = append(rated, room)
			// The rater applies it now (if the killed node did not), from
			// the owed mark the finishing save left: before the next game,
			// so that the games are applied in order.
			waitFor("the rating changes of room "+room, func() (bool, error) {
				_, err := st.Changes(ctx, room)
				if errors.Is(err, ratings.ErrNotFound) {
					return false, nil
				}
				return err == nil, err
			})
		}
	}

	// The replay: Update over the rated games' records, in order.
	want := map[string]ratings.Rating{ids[0]: ratings.New(), ids[1]: ratings.New()}
	for _, room := range rated {
		data, err := st.Records().Record(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := records.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		score, ok := rec.RatedScore()
		if !ok {
			t.Fatalf("room %s's record is not a rated result: %+v", room, rec.Result)
		}
		p0, p1 := rec.Players[0].ID, rec.Players[1].ID
		want[p0], want[p1] = ratings.Update(want[p0], want[p1], score, rec.Ended)
	}
	for _, id := range ids {
		got, err := st.Rating(ctx, "morris/3", id)
		if err != nil {
			t.Fatal(err)
		}
		w := want[id]
		if got.Games != len(rated) || math.Abs(got.Rating-w.Rating) > 1e-6 || math.Abs(got.Deviation-w.Deviation) > 1e-6 ||
			math.Abs(got.Volatility-w.Volatility) > 1e-9 {
			t.Errorf("%s after %d rated games, each followed by a SIGKILL: %+v, want %+v", id, len(rated), got, w)
		}
		hist, err := st.History(ctx, "morris/3", id, 100)
		if err != nil || len(hist) != len(rated) {
			t.Errorf("%s's curve: %d points, want %d (%v)", id, len(hist), len(rated), err)
		}
	}
	owed, err := st.Owed(ctx, 10)
	if err != nil || len(owed) != 0 {
		t.Errorf("owed after every game was applied: %v (%v)", owed, err)
	}
	t.Logf("%d rated games (%d of them killed before the rater applied them) and %d aborted, each followed by a SIGKILL, counted once",
		len(rated), killedOwed, round)
}
