package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// challengeFlood is issue 24's flood: guests, each with a bot account of
// its own online, challenge their bots as fast as they can (POST
// /api/bots/{id}/challenge). Every room counts against the cap on a
// player's unfinished rooms, so each guest should end with at most the
// cap (before the fix one guest made 239 rooms in 10 s).
type challengeFlood struct {
	made, capped, limited, other atomic.Int64
	failed                       atomic.Int64 // guests that could not set up

	mu   sync.Mutex
	held []int // each guest's unfinished rooms at the end (its welcome)
}

// floodAddr is the address of flooding guest i: one each, so that the
// attacker's hello flood does not take their guests' places.
func floodAddr(i int) string { return fmt.Sprintf("10.66.1.%d", i+1) }

// run runs guest i of the flood until ctx ends, then counts its
// unfinished rooms.
func (f *challengeFlood) run(ctx context.Context, base string, i int) {
	addr := floodAddr(i)
	w, err := welcomeOf(base, addr, map[string]any{"type": "hello", "name": fmt.Sprintf("flood%d", i)})
	if err != nil {
		f.failed.Add(1)
		return
	}
	token := w.Token
	var bot struct{ ID, Token string }
	if code := apiCall(ctx, base, addr, http.MethodPost, "/api/bots", token, `{"name":"flood`+fmt.Sprint(i)+`"}`, &bot); code != http.StatusCreated {
		f.failed.Add(1)
		return
	}
	// The bot online: its event stream open and read.
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go readStream(sctx, base, addr, bot.Token)
	time.Sleep(200 * time.Millisecond)
	body := `{"game":"morris","variant":"3"}`
	for ctx.Err() == nil {
		switch code := apiCall(ctx, base, addr, http.MethodPost, "/api/bots/"+bot.ID+"/challenge", token, body, nil); code {
		case http.StatusCreated:
			f.made.Add(1)
		case http.StatusConflict:
			f.capped.Add(1)
		case http.StatusTooManyRequests:
			f.limited.Add(1)
			sleepCtx(ctx, 100*time.Millisecond)
		case 0: // the run ended
		default:
			f.other.Add(1)
		}
	}
	// Its unfinished rooms, as its next hello lists them.
	if w, err := welcomeOf(base, addr, map[string]any{"type": "hello", "token": token}); err == nil {
		var rooms []json.RawMessage
		_ = json.Unmarshal(w.Rooms, &rooms)
		f.mu.Lock()
		f.held = append(f.held, len(rooms))
		f.mu.Unlock()
	}
}

// welcomeOf says hello from addr and returns the welcome.
func welcomeOf(base, addr string, hello map[string]any) (msg, error) {
	c, _, err := dial(base, addr)
	if err != nil {
		return msg{}, err
	}
	defer c.c.Close()
	if err := c.send(hello); err != nil {
		return msg{}, err
	}
	return c.wait(10*time.Second, func(m msg) bool { return m.Type == "welcome" })
}

// apiCall sends one request of the HTTP API from addr with token and
// decodes a JSON answer into out (when not nil); 0 when it failed.
func apiCall(ctx context.Context, base, addr, method, path, token, body string, out any) int {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, method, base+path, strings.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// readStream reads the bot's event stream until ctx ends.
func readStream(ctx context.Context, base, addr, token string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/bot/stream/event", nil)
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
	}
}

// report prints the flood's line of the run's report.
func (f *challengeFlood) report(guests int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	most, total := 0, 0
	for _, n := range f.held {
		most, total = max(most, n), total+n
	}
	fmt.Printf("- challenge flood: %d guests with a bot each (%d could not set up): %d rooms made, %d refused at the cap (409), %d rate-limited, %d other answers; at the end %d unfinished rooms, at most %d for one guest (the cap is -max-player-rooms)\n",
		guests, f.failed.Load(), f.made.Load(), f.capped.Load(), f.limited.Load(), f.other.Load(), total, most)
}
