package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// The signins mode (issue 26): a flood of sign-ins must never slow a room.
// One person plays the server's bot (Game, Variant, Level) for Moves moves
// on a quiet server, then Moves more while Flood clients send POST
// /api/session with a wrong password, Flood requests at once, each for a
// name and from an address of its own (X-Forwarded-For), so that no limit
// of failed sign-ins refuses them before the hashing: the lobby must
// trust the load generator's address as a proxy (-trusted-proxy
// 127.0.0.1/32), else every flood request past the tenth is a cheap 429.
// The report gives the bot's reply time (the person's move seen to the
// bot's move seen) of each phase, measured in the same run, and their
// ratio; the target is a ratio of the medians within 1.5.
//
// With FloodRight the flood is issue 33's weapon instead: Flood requests
// at once signing in to one account with its right password, all from
// one address; meanwhile others sign in to their own accounts, one after
// another, each from an address of its own, and the report gives their
// share of successes and their times (target: at least 95%, within 2 s).

// DefaultFlood is Config.Flood's default.
const DefaultFlood = 50

// signins runs the mode.
func (r *runner) signins(ctx context.Context) (*Report, error) {
	cfg := r.cfg
	r.cfg.Patch = false // whole states: the move's and the reply's are plain to see
	rep := &Report{SignIns: map[string]int64{}}
	setup := time.Now()
	c, err := r.connect(ctx, 0, "signins-person", "")
	if err != nil {
		return nil, fmt.Errorf("signins: %w", err)
	}
	g := &botGame{r: r, c: c, size: r.boardSize()}
	if err := g.start(ctx); err != nil {
		return nil, fmt.Errorf("signins: %w", err)
	}
	rep.Setup = time.Since(setup)

	var quiet, flood Histogram
	fmt.Fprintf(cfg.Log, "signins: %d moves on a quiet server\n", cfg.Moves)
	if err := g.play(ctx, cfg.Moves, &quiet); err != nil {
		return nil, fmt.Errorf("signins, quiet: %w", err)
	}
	base, err := httpBase(cfg.URL)
	if err != nil {
		return nil, err
	}
	fctx, stop := context.WithCancel(ctx)
	f := &flooder{base: base, n: cfg.Flood, client: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Flood, MaxConnsPerHost: cfg.Flood}}}
	var others []signer
	if cfg.FloodRight {
		tag := strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
		f.right = &signer{name: "flood-" + tag, password: "flood password " + tag, addr: "10.255.0.1"}
		others = make([]signer, othersAccounts)
		for i := range others {
			others[i] = signer{name: fmt.Sprintf("other-%s-%d", tag, i), password: "other password " + tag,
				addr: fmt.Sprintf("10.254.0.%d", i+1)}
		}
		for _, a := range append([]signer{*f.right}, others...) {
			if code, err := f.post(ctx, "/api/account", a); err != nil || code != http.StatusCreated {
				stop()
				return nil, fmt.Errorf("signins: the account %s: %d %v", a.name, code, err)
			}
		}
	}
	var wg sync.WaitGroup
	for range cfg.Flood {
		wg.Go(func() { f.run(fctx) })
	}
	sleep(ctx, max(cfg.Settle, time.Second)) // the flood at its steady state first
	fmt.Fprintf(cfg.Log, "signins: %d moves during a flood of %d sign-ins at once\n", cfg.Moves, cfg.Flood)
	t0, sent0 := time.Now(), f.sent.Load()
	var seen Histogram
	var seenOK atomic.Int64
	if cfg.FloodRight {
		wg.Go(func() { f.others(fctx, others, &seen, &seenOK) })
	}
	err = g.play(ctx, cfg.Moves, &flood)
	window, sent := time.Since(t0), f.sent.Load()-sent0
	stop()
	wg.Wait()
	rep.Others, rep.OthersOK = seen.Summary(), seenOK.Load()
	if err != nil {
		return nil, fmt.Errorf("signins, flood: %w", err)
	}
	rep.BotQuiet, rep.BotFlood = quiet.Summary(), flood.Summary()
	rep.SignInsPerSec = float64(sent) / window.Seconds()
	f.mu.Lock()
	for k, v := range f.answers {
		rep.SignIns[k] = v
	}
	f.mu.Unlock()
	rep.Window = window
	rep.Conns = r.open()
	return rep, nil
}

// httpBase is the server's http(s)://host of a ws(s)://host/ws URL.
func httpBase(ws string) (string, error) {
	u, err := url.Parse(strings.Split(ws, ",")[0])
	if err != nil {
		return "", fmt.Errorf("signins: url %q: %w", ws, err)
	}
	u.Scheme = strings.Replace(u.Scheme, "ws", "http", 1)
	u.Path = ""
	return u.String(), nil
}

// botGame is one person's game against the bot, started again when it
// ends.
type botGame struct {
	r    *runner
	c    *Client
	size int
	room string
	seat int
	last *Frame
	k    int
}

// start makes a room against the bot and waits for the person's turn.
func (g *botGame) start(ctx context.Context) error {
	room, st, err := g.r.create(ctx, g.c, "bot")
	if err != nil {
		return err
	}
	g.room, g.last = room, st
	// The person is the seat the bot is not: the one with legal moves
	// when it is its turn; wait for a state where it is someone's turn
	// and there are legal moves for us.
	for g.last.Status != "playing" || !g.last.HasTurn || g.last.Legal().Len() == 0 {
		f, err := g.c.Wait(ctx, "the person's turn", func(f *Frame) bool {
			return f.Type == protocol.TypeRoomState && f.Room == g.room && f.Seq > g.last.Seq
		})
		if err != nil {
			return err
		}
		g.last = f
	}
	g.seat = g.last.Turn
	return nil
}

// play makes moves until n replies of the bot were timed: from the
// arrival of each move's state to the arrival of the bot's reply's.
func (g *botGame) play(ctx context.Context, n int, h *Histogram) error {
	for h.Count() < uint64(n) {
		mv := ChooseMove(g.r.cfg.Game, g.size, g.last.Legal(), g.k)
		g.k++
		prev := g.last.Seq
		if err := g.c.SendMove(g.room, mv); err != nil {
			return err
		}
		mine, err := g.c.Wait(ctx, "the move's state", func(f *Frame) bool {
			return f.Type == protocol.TypeRoomState && f.Room == g.room && f.Seq > prev &&
				(f.HasLastMove && f.LastMove.Seat == g.seat || f.Status == "finished")
		})
		if err != nil {
			return err
		}
		if mine.Status == "finished" {
			if err := g.start(ctx); err != nil {
				return err
			}
			continue
		}
		reply, err := g.c.Wait(ctx, "the bot's reply", func(f *Frame) bool {
			return f.Type == protocol.TypeRoomState && f.Room == g.room && f.Seq > mine.Seq &&
				(f.HasLastMove && f.LastMove.Seat != g.seat || f.Status == "finished")
		})
		if err != nil {
			return err
		}
		h.Record(reply.At.Sub(mine.At))
		g.last = reply
		if reply.Status == "finished" || reply.Legal().Len() == 0 {
			if err := g.start(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// othersAccounts is how many accounts the others sign in to (FloodRight),
// each from an address of its own, in turn: fewer than one a minute each
// stays within the limit of sign-ins a minute to one account.
const othersAccounts = 64

// signer is who signs in: an account and the address it comes from.
type signer struct{ name, password, addr string }

// flooder sends failed sign-ins (or, with right, right ones to one
// account from one address), n at once, until its context ends.
type flooder struct {
	base   string
	n      int
	right  *signer
	client *http.Client
	sent   atomic.Int64
	seq    atomic.Int64 // numbers the requests: a name and an address each

	mu      sync.Mutex
	answers map[string]int64 // by status code, "error" for none
}

// post sends a's name and password to path from a's address and returns
// the status.
func (f *flooder) post(ctx context.Context, path string, a signer) (int, error) {
	body, _ := json.Marshal(map[string]string{"name": a.name, "password": a.password})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", a.addr)
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// others signs the others in, one after another, each to its account in
// turn, until ctx ends, recording each one's time and success.
func (f *flooder) others(ctx context.Context, others []signer, h *Histogram, ok *atomic.Int64) {
	for i := 0; ctx.Err() == nil; i++ {
		t0 := time.Now()
		code, err := f.post(ctx, "/api/session", others[i%len(others)])
		if ctx.Err() != nil {
			return
		}
		h.Record(time.Since(t0))
		if err == nil && code == http.StatusOK {
			ok.Add(1)
		}
		sleep(ctx, 100*time.Millisecond) // people, not a second flood
	}
}

func (f *flooder) run(ctx context.Context) {
	for ctx.Err() == nil {
		n := f.seq.Add(1)
		// A name and an address of its own each, in 10.0.0.0/8; or the
		// flooded account's, from its one address.
		a := signer{name: fmt.Sprintf("flood-%d", n), password: "not the password",
			addr: fmt.Sprintf("10.%d.%d.%d", n>>16&0xff, n>>8&0xff, n&0xff)}
		if f.right != nil {
			a = *f.right
		}
		code, err := f.post(ctx, "/api/session", a)
		status := "error"
		if err == nil {
			status = strconv.Itoa(code)
		} else if ctx.Err() != nil {
			return
		}
		f.sent.Add(1)
		f.mu.Lock()
		if f.answers == nil {
			f.answers = map[string]int64{}
		}
		f.answers[status]++
		f.mu.Unlock()
	}
}
