package server_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// startBotGames creates n bot-against-bot rooms, ten to a watching client,
// and returns the watchers with the rooms each watches.
func startBotGames(t testing.TB, s *testserver.Server, n int) map[*testserver.Client]map[string]bool {
	out := map[*testserver.Client]map[string]bool{}
	for first := 0; first < n; first += 10 {
		w := s.Hello(t, "crowd", "")
		rooms := map[string]bool{}
		for i := first; i < first+10 && i < n; i++ {
			game, variant, level := "orbito", "2", "normal"
			if i%2 == 1 {
				game, variant, level = "morris", "3", "dificil"
			}
			w.Send(map[string]any{"type": "room.create", "game": game, "variant": variant, "watch": true, "level": level})
			rooms[w.Wait("room.joined", nil).Room] = true
		}
		out[w] = rooms
	}
	return out
}

// TestHumansPlayWhileHundredsOfBotGamesRun: 200 bot games run at once
// while two humans play a game to the end; every bot game ends too. The
// bots run in the bounded pool, off the room goroutines, so the human room
// is served throughout (no timing is asserted here; see the benchmark).
func TestHumansPlayWhileHundredsOfBotGamesRun(t *testing.T) {
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = 500 * time.Millisecond })
	watchers := startBotGames(t, s, 200)
	a, b, _, room, _ := morrisRoom(t, s)
	final := playOut(t, rand.New(rand.NewPCG(1, 2)), map[int]*testserver.Client{0: a, 1: b}, room, 2000)
	if final.Result == nil {
		t.Fatalf("human game: %s", final.Raw)
	}
	for w, rooms := range watchers {
		for {
			for _, m := range w.Log() {
				if m.Type == "room.state" && m.Status == "finished" {
					delete(rooms, m.Room)
				}
			}
			if len(rooms) == 0 {
				break
			}
			if _, ok := w.TryWait("room.state", func(m testserver.Msg) bool { return m.Status == "finished" }, 60*time.Second); !ok {
				t.Fatalf("%d bot games did not end (connection: %v)", len(rooms), w.CloseErr())
			}
		}
	}
}

// BenchmarkHumanMoveUnderBotLoad measures a human move's round trip (send,
// apply, save, broadcast back) while 200 bot games run.
func BenchmarkHumanMoveUnderBotLoad(b *testing.B) {
	s := testserver.Start(b, func(c *server.Config) { c.WatchDelay = 0 })
	startBotGames(b, s, 200)
	h := s.Hello(b, "h", "")
	h.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
	room := h.Wait("room.joined", nil).Room
	st := h.State(room, nil)
	b.ResetTimer()
	for range b.N {
		if st.Status != "playing" {
			h.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
			room = h.Wait("room.joined", nil).Room
			st = h.State(room, nil)
		}
		seq := st.Seq
		h.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
		st = h.State(room, func(m testserver.Msg) bool { return m.Seq > seq })
	}
}
