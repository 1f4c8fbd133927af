package crashtest

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestSIGKILLAfterEveryEnd: the real binary on Redis. Games end every way
// a game ends (the move that makes a line, a resignation, a flag with
// nobody there, a claim of abandonment, an abort, a draw agreed, and a
// tournament game aborted because its bots never came); the players leave
// or close at once, and the process is SIGKILLed as soon as Redis holds the
// finished room. After the restart every game is in its players' games
// (GET /api/players/{id}/records) and in /api/records: the record was in
// the save that finished the game.
func TestSIGKILLAfterEveryEnd(t *testing.T) {
	const prefix = "ends:"
	bin := lobbybin.Build(t, *raceFlag)
	rs := redistest.StartServer(t)
	l := newLobby(t, bin, rs.Addr(), prefix)
	l.args = append(l.args, "-grace", "300ms", "-abort-after", "2s")
	l.start()
	srv := &testserver.Server{URL: l.url(), WSURL: l.wsURL()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := redisstore.New(ctx, rs.Addr(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// killWhenFinished SIGKILLs the server as soon as the store holds room
	// finished, and starts it again.
	killWhenFinished := func(room string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			saved, err := st.LoadRoom(ctx, room)
			if err == nil && saved.Finished {
				break
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Fatal(err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("room %s never finished in the store", room)
			}
			time.Sleep(2 * time.Millisecond)
		}
		l.kill()
		l.start()
	}
	leave := func(c *testserver.Client, room string) { c.Send(map[string]any{"type": "room.leave", "room": room}) }
	closeConn := func(c *testserver.Client, _ string) { c.Close() }
	game := func(clock int) (a, b *testserver.Client, room string) {
		a, b = srv.Hello(t, "ana", ""), srv.Hello(t, "bia", "")
		create := map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"}
		if clock > 0 {
			create["clock"] = map[string]any{"base": clock, "increment": 0}
		}
		a.Send(create)
		room = a.Wait("room.joined", nil).Room
		b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
		a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
		return a, b, room
	}
	moves := func(a, b *testserver.Client, room string, mvs ...string) {
		for i, mv := range mvs {
			[]*testserver.Client{a, b}[i%2].Send(map[string]any{"type": "room.move", "room": room, "move": mv})
			b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == mv })
		}
	}
	ends := []struct {
		reason string
		clock  int
		end    func(a, b *testserver.Client, room string)
	}{
		{"line", 0, func(a, b *testserver.Client, room string) {
			moves(a, b, room, "a1", "b2", "a2", "c3")
			leave(b, room)
			a.Send(map[string]any{"type": "room.move", "room": room, "move": "a3"})
			closeConn(a, room)
		}},
		{"resign", 0, func(a, b *testserver.Client, room string) {
			moves(a, b, room, "b2")
			closeConn(b, room)
			a.Send(map[string]any{"type": "room.resign", "room": room})
			leave(a, room)
		}},
		{"timeout", 1, func(a, b *testserver.Client, room string) {
			moves(a, b, room, "b2", "a1")
			leave(a, room)
			closeConn(b, room)
		}},
		{"abandoned", 0, func(a, b *testserver.Client, room string) {
			moves(a, b, room, "b2", "a1")
			closeConn(b, room)
			gone := a.State(room, func(m testserver.Msg) bool { return !m.Players[1].Connected })
			time.Sleep(time.Until(time.UnixMilli(gone.Players[1].ClaimableAt)) + 50*time.Millisecond)
			a.Send(map[string]any{"type": "room.claim", "room": room})
			leave(a, room)
		}},
		{"aborted", 0, func(a, b *testserver.Client, room string) {
			leave(b, room)
			a.Send(map[string]any{"type": "room.abort", "room": room})
			closeConn(a, room)
		}},
		{"agreement", 0, func(a, b *testserver.Client, room string) {
			moves(a, b, room, "b2", "a1")
			a.Send(map[string]any{"type": "room.draw.offer", "room": room})
			b.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
			closeConn(a, room)
			b.Send(map[string]any{"type": "room.draw.accept", "room": room})
			leave(b, room)
		}},
	}
	type ended struct {
		room, reason string
		players      []string
	}
	var done []ended
	for _, e := range ends {
		a, b, room := game(e.clock)
		e.end(a, b, room)
		killWhenFinished(room)
		done = append(done, ended{room, e.reason, []string{a.Player.ID, b.Player.ID}})
	}

	// A tournament of two bot accounts that never connect: its first
	// game is aborted with nobody there.
	owner := srv.Hello(t, "prof", "")
	b1, _ := srv.RegisterBot(t, owner.Token, "um")
	b2, _ := srv.RegisterBot(t, owner.Token, "dois")
	var created struct{ ID string }
	body := map[string]any{"game": "morris", "entrants": []map[string]string{{"bot": b1}, {"bot": b2}},
		"partidas": []any{[]any{"3", 1}}, "clock": map[string]int{"base": 60}}
	if code := srv.Do(t, "POST", "/api/torneios", owner.Token, body, &created); code != http.StatusCreated {
		t.Fatalf("POST /api/torneios: %d", code)
	}
	var view struct{ Games []struct{ Room string } }
	for deadline := time.Now().Add(time.Minute); len(view.Games) == 0 || view.Games[0].Room == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tournament's first game never got a room")
		}
		srv.GetJSON(t, "/api/torneios/"+created.ID, &view)
	}
	killWhenFinished(view.Games[0].Room)
	done = append(done, ended{view.Games[0].Room, "aborted", []string{b1, b2}})

	for _, g := range done {
		for _, p := range g.players {
			var list struct {
				Records []struct {
					Room   string
					Result *struct{ Reason string }
				}
			}
			if code := srv.GetJSON(t, "/api/players/"+p+"/records?limit=100", &list); code != http.StatusOK {
				t.Fatalf("GET records of %s: %d", p, code)
			}
			if !slices.ContainsFunc(list.Records, func(r struct {
				Room   string
				Result *struct{ Reason string }
			}) bool {
				return r.Room == g.room && r.Result != nil && r.Result.Reason == g.reason
			}) {
				t.Errorf("after SIGKILL: game %s (ended by %s) is missing from player %s's games", g.room, g.reason, p)
			}
		}
		var rec struct {
			Status string
			Result *struct{ Reason string }
		}
		if code := srv.GetJSON(t, "/api/records/"+g.room, &rec); code != http.StatusOK || rec.Status != "finished" ||
			rec.Result == nil || rec.Result.Reason != g.reason {
			t.Errorf("after SIGKILL: GET /api/records/%s: %d %+v", g.room, code, rec)
		}
	}
	t.Logf("%d games, each followed by a SIGKILL, checked", len(done))
}
