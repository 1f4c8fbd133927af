package server_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

type catalog struct {
	Games []struct {
		ID       string `json:"id"`
		Variants []struct {
			ID    string `json:"id"`
			Seats int    `json:"seats"`
		} `json:"variants"`
		Levels []struct {
			ID string `json:"id"`
		} `json:"levels"`
	} `json:"games"`
}

// smallest two-seat variant of each game, for games against the bots.
var botVariant = map[string]string{"orbito": "2", "morris": "3", "go": "9", "2048": "race", "queens": "tradicional"}

// TestHumanAgainstEveryBotLevel plays a human (random legal moves; after a
// number of plies it resigns, which is a loss) against every bot level of
// every game, to the end.
func TestHumanAgainstEveryBotLevel(t *testing.T) {
	think := 300 * time.Millisecond // the strong levels' time a move
	if testing.Short() {
		think = 100 * time.Millisecond
	}
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = think })
	var cat catalog
	s.GetJSON(t, "/api/games", &cat)
	if len(cat.Games) < 5 {
		t.Errorf("catalog has %d games, want 5", len(cat.Games))
	}
	for gi, g := range cat.Games {
		for li, l := range g.Levels {
			// One game at a time, and not beside the other tests: in
			// 2048's race the bot moves as fast as it can, without waiting
			// for the human, and this client must read every frame of it
			// (with other games beside it, it fell behind and the server
			// dropped it, 1013).
			t.Run(g.ID+"/"+l.ID, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(gi), uint64(li)))
				h := s.Hello(t, "human", "")
				seat := li % 2
				h.Send(map[string]any{"type": "room.create", "game": g.ID, "variant": botVariant[g.ID],
					"opponent": "bot", "level": l.ID, "seat": seat})
				j := h.Wait("room.joined", nil)
				if j.Seat == nil || *j.Seat != seat {
					t.Fatalf("joined %s", j.Raw)
				}
				final := playUntil(t, rng, h, j.Room, seat, 40)
				if final.Result == nil {
					t.Fatalf("no result: %s", final.Raw)
				}
			})
		}
	}
}

// playUntil plays seat with random legal moves; after maxPlies of its own
// it resigns. It returns the finished state.
func playUntil(t *testing.T, rng *rand.Rand, h *testserver.Client, room string, seat, maxPlies int) testserver.Msg {
	t.Helper()
	st := h.State(room, nil)
	plies := 0
	for st.Status != "finished" {
		var legal []string
		if st.Turn != nil && *st.Turn == seat {
			legal = st.Legal
		} else if st.Turn == nil && st.LegalBy != nil {
			legal = st.LegalBy[string(rune('0'+seat))]
		}
		if len(legal) == 0 || st.Status != "playing" {
			seq := st.Seq
			st = h.State(room, func(m testserver.Msg) bool { return m.Seq > seq })
			continue
		}
		seq := st.Seq
		if plies >= maxPlies {
			h.Send(map[string]any{"type": "room.resign", "room": room})
			return h.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
		}
		plies++
		move := legal[rng.IntN(len(legal))]
		h.Send(map[string]any{"type": "room.move", "room": room, "move": move})
		st = h.State(room, func(m testserver.Msg) bool {
			return m.Seq > seq && m.LastMove != nil && m.LastMove.Seat == seat
		})
	}
	return st
}

// TestBotAgainstBotWithSpectator creates a watch room (bot against bot, the
// creator watching) for every game and follows it to the end.
//
// The bots play with a watch delay, as they do on a real server (700 ms):
// without one a fast bot (2048's) sends a frame every few microseconds, the
// test's reader, which decodes each one, falls behind whenever the machine
// is busy, and the server rightly drops it as a slow client (1013).
func TestBotAgainstBotWithSpectator(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.BotTimeout = 200 * time.Millisecond
		c.WatchDelay = time.Millisecond
	})
	var cat catalog
	s.GetJSON(t, "/api/games", &cat)
	for _, g := range cat.Games {
		if len(g.Levels) == 0 {
			continue
		}
		t.Run(g.ID, func(t *testing.T) {
			t.Parallel() // a room each
			variant := botVariant[g.ID]
			if g.ID == "2048" {
				variant = "solo"
			}
			w := s.Hello(t, "watcher", "")
			w.Send(map[string]any{"type": "room.create", "game": g.ID, "variant": variant, "watch": true, "level": g.Levels[0].ID})
			j := w.Wait("room.joined", nil)
			if j.Role != "spectator" {
				t.Fatalf("joined %s", j.Raw)
			}
			final, ok := w.TryWait("room.state", func(m testserver.Msg) bool { return m.Room == j.Room && m.Status == "finished" }, 60*time.Second)
			if !ok {
				var got []string
				for _, m := range w.Log() {
					got = append(got, string(m.Raw))
				}
				t.Fatalf("bot game did not end (connection: %v); received %s", w.CloseErr(), strings.Join(got, "\n"))
			}
			if final.Spectators != 1 || final.Result == nil {
				t.Fatalf("final %s", final.Raw)
			}
			checkSeqs(t, "watcher", w, j.Room)
		})
	}
}
