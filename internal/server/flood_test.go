package server_test

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// TestChallengeFloodStaysUnderTheCap is the attack run's flood: ten guests,
// each with a bot account of its own online, challenge their bots as fast
// as they can (POST /api/bots/{id}/challenge, 40 each, 8 at once). Every
// room counts against the cap on a player's unfinished rooms, as
// room.create's do: each guest and each bot ends with at most the cap
// (one guest made 239 rooms in 10 s, ten 3,386 in 15 s), the challenges
// past it are answered 409 saying so, and the cap is reached, not fallen
// short of. The goroutines and rooms before and after are logged.
func TestChallengeFloodStaysUnderTheCap(t *testing.T) {
	const guests, each, atOnce = 10, 40, 8
	cap := rooms.DefaultMaxPlayerRooms
	s := testserver.Start(t)
	type guest struct {
		c            *testserver.Client
		bot, botTok  string
		made, capped int
		other        []string
	}
	gs := make([]*guest, guests)
	for i := range gs {
		c := s.Hello(t, fmt.Sprintf("g%d", i), "")
		id, tok := s.RegisterBot(t, c.Token, fmt.Sprintf("robo%d", i))
		s.OpenStream(t, "/api/bot/stream/event", tok)
		gs[i] = &guest{c: c, bot: id, botTok: tok}
	}
	goroutines, roomsBefore := runtime.NumGoroutine(), s.Rooms.Len()
	client := &http.Client{}
	challenge := func(g *guest) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/bots/"+g.bot+"/challenge",
			strings.NewReader(`{"game":"morris","variant":"3"}`))
		req.Header.Set("Authorization", "Bearer "+g.c.Token)
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, g := range gs {
		for range atOnce {
			wg.Go(func() {
				for range each / atOnce {
					code, body := challenge(g)
					mu.Lock()
					switch {
					case code == http.StatusCreated:
						g.made++
					case code == http.StatusConflict && strings.Contains(body, "unfinished games"):
						g.capped++
					default:
						g.other = append(g.other, fmt.Sprintf("%d %s", code, body))
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	flood := s.Rooms.Len() - roomsBefore
	for i, g := range gs {
		if len(g.other) > 0 {
			t.Errorf("guest %d: answers other than 201 and 409: %v", i, g.other)
		}
		if g.made > cap || g.made+g.capped != each {
			t.Errorf("guest %d: %d rooms made and %d refused of %d challenges, want at most %d made", i, g.made, g.capped, each, cap)
		}
		for _, p := range []string{g.c.Player.ID, g.bot} {
			if ids, err := s.Store.PlayerRooms(t.Context(), p); err != nil || len(ids) > cap {
				t.Errorf("guest %d: %s holds %d unfinished rooms (%v), want at most %d", i, p, len(ids), err, cap)
			}
		}
		// The cap is reached: challenges one at a time fill it, and then
		// are refused.
		for g.made < cap {
			if code, body := challenge(g); code != http.StatusCreated {
				t.Fatalf("guest %d with %d rooms: %d %s, want 201", i, g.made, code, body)
			}
			g.made++
		}
		if code, body := challenge(g); code != http.StatusConflict || !strings.Contains(body, "you have 20 unfinished games") {
			t.Errorf("guest %d at the cap: %d %s, want 409 saying so", i, code, body)
		}
	}
	if n := s.Rooms.Len() - roomsBefore; n != guests*cap {
		t.Errorf("%d rooms after the flood and the top-up, want %d", n, guests*cap)
	}
	t.Logf("%d guests x %d challenges: %d rooms after the flood (%d at most), goroutines %d before, %d after",
		guests, each, flood, guests*cap, goroutines, runtime.NumGoroutine())
}
