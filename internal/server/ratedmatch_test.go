package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ratings"
)

// setRating gives id the rating r in pool, as a rated game the store
// applies would (the rate function is the test's).
func setRating(t *testing.T, s *testserver.Server, pool, id string, r float64) {
	t.Helper()
	now := time.Now()
	g := ratings.Game{Room: "seed-" + id, Pool: pool, Sides: [2]ratings.Side{{ID: id, Name: id}, {ID: "p-nobody", Name: "nobody"}},
		Score: 1, Ended: now}
	_, _, err := s.Store.Apply(context.Background(), g, func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) {
		return ratings.Rating{Rating: r, Deviation: 60, Volatility: 0.06, Games: 30, Last: now.UnixMilli()}, b
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRatedQuickMatch: over WebSockets, casual and rated seekers of the
// same game never meet; a guest is casual only; two accounts of the same
// rating are paired at once into a rated room; two 300 apart wait until
// their ranges (±100, +50 each MatchStep) hold each other, then are paired
// by the sweep, rated.
func TestRatedQuickMatch(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Hub.MatchStep = 20 * time.Millisecond })
	ana, bia := newAccount(t, s, "ana"), newAccount(t, s, "bia")
	find := func(c *testserver.Client, rated any) {
		m := map[string]any{"type": "match.find", "id": "f", "game": "orbito", "variant": "2"}
		if rated != nil {
			m["rated"] = rated
		}
		c.Send(m)
	}
	queued := func(c *testserver.Client) {
		t.Helper()
		if m := c.Wait("match.queued", nil); string(m.ID) != `"f"` {
			t.Fatalf("match.queued %s", m.Raw)
		}
	}

	// ana asks rated (her default as an account), bia casual: both wait.
	find(ana.ws, nil)
	queued(ana.ws)
	find(bia.ws, false)
	queued(bia.ws)

	// A guest may not ask rated; by default it is casual, and meets bia.
	guest := s.Hello(t, "convidado", "")
	find(guest, true)
	if e := guest.WaitError("bad_request"); e.Message == "" {
		t.Fatalf("a guest asked rated: %s", e.Raw)
	}
	find(guest, nil)
	room := guest.Wait("match.found", nil).Room
	if bia.ws.Wait("match.found", nil).Room != room {
		t.Fatal("bia and the guest found different rooms")
	}
	if st := guest.State(room, nil); st.Rated {
		t.Fatalf("the guest's quick match is rated: %s", st.Raw)
	}

	// bia asks rated: she meets ana (1500 both), in a rated room.
	bia.ws.Send(map[string]any{"type": "room.resign", "room": room})
	find(bia.ws, true)
	room = bia.ws.Wait("match.found", func(m testserver.Msg) bool { return m.Room != room }).Room
	if ana.ws.Wait("match.found", nil).Room != room {
		t.Fatal("ana and bia found different rooms")
	}
	if st := ana.ws.State(room, nil); !st.Rated {
		t.Fatalf("a quick match of two accounts asking rated is casual: %s", st.Raw)
	}

	// caio (1800) and duda (1500): 300 apart, they wait, then meet once
	// each one's range reached 300 (4 steps).
	caio, duda := newAccount(t, s, "caio"), newAccount(t, s, "duda")
	setRating(t, s, "orbito/2", caio.id, 1800)
	find(caio.ws, true)
	queued(caio.ws)
	find(duda.ws, true)
	queued(duda.ws)
	room = caio.ws.Wait("match.found", nil).Room
	if duda.ws.Wait("match.found", nil).Room != room {
		t.Fatal("caio and duda found different rooms")
	}
	st := duda.ws.State(room, nil)
	if !st.Rated {
		t.Fatalf("caio and duda's room is casual: %s", st.Raw)
	}
	for _, p := range st.Players {
		if want := map[string]int{caio.id: 1800, duda.id: 1500}[p.ID]; p.Rating != want {
			t.Fatalf("seat %+v: rating %d, want %d", p, p.Rating, want)
		}
	}
}
