package server_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// checkSeqs checks that a client saw every seq of room in order from its
// first room.state on, and returns the last state it saw.
func checkSeqs(t *testing.T, who string, c *testserver.Client, room string) testserver.Msg {
	t.Helper()
	var last testserver.Msg
	for _, m := range c.Log() {
		if m.Type != "room.state" || m.Room != room {
			continue
		}
		if last.Seq != 0 && m.Seq != last.Seq+1 {
			t.Fatalf("%s saw seq %d after %d", who, m.Seq, last.Seq)
		}
		last = m
	}
	if last.Seq == 0 {
		t.Fatalf("%s saw no room.state", who)
	}
	return last
}

// playOut plays a room to its end: players[seat] moves for seat, picking a
// random legal move. It returns the final state as the first player saw it.
func playOut(t *testing.T, rng *rand.Rand, players map[int]*testserver.Client, room string, maxPlies int) testserver.Msg {
	t.Helper()
	var watcher *testserver.Client
	for _, seat := range slices.Sorted(func(yield func(int) bool) {
		for s := range players {
			if !yield(s) {
				return
			}
		}
	}) {
		watcher = players[seat]
		break
	}
	var st testserver.Msg
	for _, m := range watcher.Log() {
		if m.Type == "room.state" && m.Room == room && m.Seq > st.Seq {
			st = m
		}
	}
	if st.Seq == 0 || st.Status == "waiting" {
		st = watcher.State(room, func(m testserver.Msg) bool { return m.Status != "waiting" })
	}
	for plies := 0; st.Status == "playing"; plies++ {
		if plies > maxPlies {
			t.Fatalf("game not over after %d plies", maxPlies)
		}
		seat, legal := -1, []string(nil)
		if st.Turn != nil {
			seat, legal = *st.Turn, st.Legal
		} else {
			for _, s := range rng.Perm(len(st.LegalBy)) {
				if l := st.LegalBy[strconv.Itoa(s)]; len(l) > 0 {
					seat, legal = s, l
					break
				}
			}
		}
		p, ok := players[seat]
		if !ok || len(legal) == 0 {
			// A bot's turn: wait for the next state.
			seq := st.Seq
			st = watcher.State(room, func(m testserver.Msg) bool { return m.Seq > seq })
			continue
		}
		move := legal[rng.IntN(len(legal))]
		p.Send(map[string]any{"type": "room.move", "room": room, "move": move})
		seq := st.Seq
		for {
			m := watcher.Wait("", func(m testserver.Msg) bool {
				return m.Type == "error" || (m.Type == "room.state" && m.Room == room && m.Seq > seq)
			})
			if m.Type == "error" && p == watcher {
				t.Fatalf("move %q for seat %d refused: %s", move, seat, m.Raw)
			}
			if m.Type == "room.state" {
				st = m
				if m.LastMove != nil && m.LastMove.Seat == seat && m.LastMove.Move == move {
					break
				}
			}
		}
	}
	return st
}

type gameCase struct{ game, variant string }

var allGames = []gameCase{
	{"orbito", "2"}, {"morris", "3"}, {"go", "9"}, {"2048", "race"}, {"queens", "tradicional"},
}

func TestTwoHumansPlayEveryGameWithSpectators(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	for i, gc := range allGames {
		t.Run(gc.game+"/"+gc.variant, func(t *testing.T) {
			if !hasGame(t, s, gc.game) {
				t.Fatalf("game %s is not in the catalog", gc.game)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			a := s.Hello(t, "ana", "")
			b := s.Hello(t, "bia", "")
			s1 := s.Hello(t, "spec1", "")
			s2 := s.Hello(t, "spec2", "")
			a.Send(map[string]any{"type": "room.create", "id": 1, "game": gc.game, "variant": gc.variant, "opponent": "human"})
			j := a.Wait("room.joined", nil)
			if string(j.ID) != "1" || j.Role != "player" || j.Seat == nil || *j.Seat != 0 {
				t.Fatalf("room.joined = %s", j.Raw)
			}
			room := j.Room
			for _, sp := range []*testserver.Client{s1, s2} {
				sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
				sp.Wait("room.joined", nil)
			}
			b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
			jb := b.Wait("room.joined", nil)
			if jb.Seat == nil || *jb.Seat != 1 {
				t.Fatalf("b joined as %s", jb.Raw)
			}
			final := playOut(t, rng, map[int]*testserver.Client{0: a, 1: b}, room, 5000)
			if final.Result == nil || final.Spectators != 2 {
				t.Fatalf("final state %s", final.Raw)
			}
			if gc.game == "queens" && !strings.Contains(string(final.Raw), `"owners"`) {
				t.Errorf("queens room.state lacks owners: %s", final.Raw)
			}
			for k, sp := range []*testserver.Client{s1, s2} {
				sp.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
				last := checkSeqs(t, "spectator "+strconv.Itoa(k), sp, room)
				if last.Seq != final.Seq {
					t.Fatalf("spectator's last seq %d, players' %d", last.Seq, final.Seq)
				}
			}
			checkSeqs(t, "b", b, room)
		})
	}
}

// TestOneHumanPlays2048Solo: the one-seat variant, watched by a spectator.
func TestOneHumanPlays2048Solo(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	h, sp := s.Hello(t, "solo", ""), s.Hello(t, "spec", "")
	h.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none",
		"setup": map[string]any{"board": [][]int{{0, 2, 0, 0}, {0, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 0, 0}}, "score": 0, "seed": 42}})
	room := h.Wait("room.joined", nil).Room
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	sp.Wait("room.joined", nil)
	h.State(room, func(m testserver.Msg) bool { return m.Spectators == 1 })
	final := playOut(t, rand.New(rand.NewPCG(3, 4)), map[int]*testserver.Client{0: h}, room, 20000)
	sp.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if last := checkSeqs(t, "spectator", sp, room); last.Seq != final.Seq {
		t.Fatalf("spectator ended at seq %d, player at %d", last.Seq, final.Seq)
	}
}

func hasGame(t *testing.T, s *testserver.Server, id string) bool {
	var out struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	s.GetJSON(t, "/api/games", &out)
	for _, g := range out.Games {
		if g.ID == id {
			return true
		}
	}
	return false
}
