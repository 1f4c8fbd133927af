// Command abuse is issue 18's abuse run: two people play a game against a
// bot and a game against each other, first on an idle server and then
// while a hostile client opens connections past the cap, trickles request
// bodies, floods hello, sends eight strong bot requests at once, spams
// chat from twenty connections and (issue 24) has ten guests challenge
// bots of their own as fast as they can. It reports the people's move round trips
// and the bot's replies under load against idle, whether anyone was
// dropped, and the peaks of Redis's and the server's memory.
//
// scripts/abuse starts a fresh lobby and Redis and runs it; see
// docs/PERFORMANCE.md ("Abuse run"). Every client comes through the
// loopback, which the lobby must trust as a proxy (-trusted-proxy
// 127.0.0.1/32): the people and the attacker are told apart by the
// X-Forwarded-For they send.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"
)

type options struct {
	base     string // http://host:port
	redisURL string
	pid      int
	moves    int           // moves each person plays in each phase
	load     time.Duration // the longest the loaded phase lasts
	conns    int           // connections the attacker tries to hold
	trickles int           // trickled bodies
	level    string        // the bot's level in the people's bot game
	// challengers are the guests of the challenge flood (issue 24), each
	// with a bot of its own; 0: none.
	challengers int
}

func main() {
	var o options
	flag.StringVar(&o.base, "url", "http://127.0.0.1:8080", "the lobby's base URL")
	flag.StringVar(&o.redisURL, "redis", "", "the lobby's Redis, for its memory (empty: not sampled)")
	flag.IntVar(&o.pid, "pid", 0, "the lobby's process id, for its memory (0: not sampled)")
	flag.IntVar(&o.moves, "moves", 15, "moves each person plays in each phase")
	flag.DurationVar(&o.load, "load", 90*time.Second, "the longest the loaded phase lasts")
	flag.IntVar(&o.conns, "conns", 300, "WebSockets the attacker tries to hold (past -max-conns-per-addr)")
	flag.IntVar(&o.trickles, "trickles", 200, "request bodies trickled a byte a second")
	flag.StringVar(&o.level, "level", "facil", "the bot's level in the people's go 9x9 game")
	flag.IntVar(&o.challengers, "challengers", 10, "guests that each challenge a bot of their own as fast as they can (issue 24's flood); 0: none")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "abuse:", err)
		os.Exit(1)
	}
}

// Addresses the lobby takes from X-Forwarded-For.
const (
	attacker = "10.66.0.1"
	personA  = "10.1.0.1"
	personB  = "10.1.0.2"
)

func wsURL(base string) string {
	u, _ := url.Parse(base)
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path = "/ws"
	return u.String()
}

// msg is the part of a server message the run reads.
type msg struct {
	Type    string   `json:"type"`
	Room    string   `json:"room"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Seq     int64    `json:"seq"`
	Status  string   `json:"status"`
	Turn    *int     `json:"turn"`
	Legal   []string `json:"legal"`
	Text    string   `json:"text"`
	Seat    *int     `json:"seat"`
	Token   string   `json:"token"`
	// Rooms is a welcome's unfinished rooms.
	Rooms    json.RawMessage `json:"rooms"`
	LastMove *struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"lastMove"`
	at time.Time
}

// client is one WebSocket connection whose messages are read into a channel.
type client struct {
	c      *websocket.Conn
	in     chan msg
	closed atomic.Bool
	wmu    sync.Mutex
}

// dialer gives up on an upgrade the server does not answer in 5 s.
var dialer = websocket.Dialer{HandshakeTimeout: 5 * time.Second}

func dial(base, addr string) (*client, *http.Response, error) {
	h := http.Header{"X-Forwarded-For": {addr}}
	c, resp, err := dialer.Dial(wsURL(base), h)
	if err != nil {
		return nil, resp, err
	}
	cl := &client{c: c, in: make(chan msg, 4096)}
	go func() {
		defer cl.closed.Store(true)
		defer close(cl.in)
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m msg
			if json.Unmarshal(data, &m) == nil {
				m.at = time.Now()
				select {
				case cl.in <- m:
				default: // a reader that does not keep up loses messages it does not wait for
				}
			}
		}
	}()
	return cl, resp, nil
}

func (cl *client) send(v any) error {
	cl.wmu.Lock()
	defer cl.wmu.Unlock()
	_ = cl.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return cl.c.WriteJSON(v)
}

// wait returns the first message pred accepts, or an error after timeout.
func (cl *client) wait(timeout time.Duration, pred func(msg) bool) (msg, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case m, ok := <-cl.in:
			if !ok {
				return msg{}, errors.New("connection closed")
			}
			if pred(m) {
				return m, nil
			}
		case <-t.C:
			return msg{}, errors.New("timed out")
		}
	}
}

func hello(base, addr, name string) (*client, error) {
	cl, _, err := dial(base, addr)
	if err != nil {
		return nil, err
	}
	if err := cl.send(map[string]any{"type": "hello", "name": name}); err != nil {
		return nil, err
	}
	if _, err := cl.wait(10*time.Second, func(m msg) bool { return m.Type == "welcome" }); err != nil {
		return nil, fmt.Errorf("hello: %w", err)
	}
	return cl, nil
}

// timings are round trips of one kind.
type timings struct{ d []time.Duration }

func (t *timings) add(d time.Duration) { t.d = append(t.d, d) }

func (t *timings) q(p float64) time.Duration {
	if len(t.d) == 0 {
		return 0
	}
	s := slices.Clone(t.d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

// people are the two people and their games.
type people struct {
	a, b    *client
	botRoom string
	botSeat int
	room    string // their game together
	seats   map[*client]int
	last    map[string]msg // the last state of each room
}

func pick(rng *rand.Rand, legal []string) string {
	var real []string
	for _, l := range legal {
		if l != "pass" {
			real = append(real, l)
		}
	}
	if len(real) == 0 {
		return "pass"
	}
	return real[rng.IntN(len(real))]
}

func isState(room string) func(msg) bool {
	return func(m msg) bool { return m.Type == "room.state" && m.Room == room }
}

// setUp seats the people at their two go 9x9 games.
func (p *people) setUp(base, level string) error {
	var err error
	if p.a, err = hello(base, personA, "ana"); err != nil {
		return err
	}
	if p.b, err = hello(base, personB, "bia"); err != nil {
		return err
	}
	p.last, p.seats = map[string]msg{}, map[*client]int{}
	_ = p.a.send(map[string]any{"type": "room.create", "game": "go", "variant": "9", "opponent": "bot", "level": level, "seat": 0})
	j, err := p.a.wait(10*time.Second, func(m msg) bool { return m.Type == "room.joined" || m.Type == "error" })
	if err != nil || j.Type == "error" {
		return fmt.Errorf("bot game: %v %s", err, j.Message)
	}
	p.botRoom, p.botSeat = j.Room, 1
	st, err := p.a.wait(10*time.Second, isState(p.botRoom))
	if err != nil {
		return err
	}
	p.last[p.botRoom] = st
	_ = p.b.send(map[string]any{"type": "room.create", "game": "go", "variant": "9", "opponent": "human", "seat": 0})
	j, err = p.b.wait(10*time.Second, func(m msg) bool { return m.Type == "room.joined" || m.Type == "error" })
	if err != nil || j.Type == "error" {
		return fmt.Errorf("human game: %v %s", err, j.Message)
	}
	p.room = j.Room
	_ = p.a.send(map[string]any{"type": "room.join", "room": p.room, "as": "player"})
	st, err = p.b.wait(10*time.Second, func(m msg) bool { return isState(p.room)(m) && m.Status == "playing" })
	if err != nil {
		return err
	}
	p.last[p.room] = st
	p.seats[p.b], p.seats[p.a] = 0, 1
	return nil
}

// play has the people make n moves in each game, alternating, and records
// each mover's round trip (move sent to its state back) and each bot reply
// (the person's move seen to the bot's move seen). The people's own
// WebSocket reads are their only waits: a stall shows as a long round trip.
func (p *people) play(rng *rand.Rand, n int, move, bot *timings) error {
	// Drain what came while nobody read, keeping the last states.
	for _, c := range []*client{p.a, p.b} {
		for len(c.in) > 0 {
			m := <-c.in
			if m.Type == "room.state" && m.Seq >= p.last[m.Room].Seq {
				p.last[m.Room] = m
			}
		}
	}
	for i := 0; i < n; i++ {
		// The bot game: a's move, then the bot's reply.
		st := p.last[p.botRoom]
		if st.Status != "playing" || st.Turn == nil || *st.Turn != 0 {
			return fmt.Errorf("bot game %s: status %s, not a's turn", p.botRoom, st.Status)
		}
		mv := pick(rng, st.Legal)
		t0 := time.Now()
		_ = p.a.send(map[string]any{"type": "room.move", "room": p.botRoom, "move": mv})
		mine, err := p.a.wait(30*time.Second, func(m msg) bool {
			return isState(p.botRoom)(m) && m.LastMove != nil && m.LastMove.Seat == 0 && m.Seq > st.Seq
		})
		if err != nil {
			return fmt.Errorf("bot game, a's move: %w", err)
		}
		move.add(mine.at.Sub(t0))
		reply, err := p.a.wait(30*time.Second, func(m msg) bool {
			return isState(p.botRoom)(m) && (m.Status == "finished" || m.LastMove != nil && m.LastMove.Seat == p.botSeat)
		})
		if err != nil {
			return fmt.Errorf("bot game, the bot's reply: %w", err)
		}
		bot.add(reply.at.Sub(mine.at))
		p.last[p.botRoom] = reply
		if reply.Status == "finished" {
			return errors.New("the bot game finished: raise nothing, start again with fewer -moves")
		}

		// The human game: whoever is to move.
		hs := p.last[p.room]
		if hs.Status != "playing" || hs.Turn == nil {
			return fmt.Errorf("human game: status %s", hs.Status)
		}
		mover, other := p.b, p.a
		if *hs.Turn == 1 {
			mover, other = p.a, p.b
		}
		mv = pick(rng, hs.Legal)
		t0 = time.Now()
		_ = mover.send(map[string]any{"type": "room.move", "room": p.room, "move": mv})
		got, err := mover.wait(30*time.Second, func(m msg) bool { return isState(p.room)(m) && m.Seq > hs.Seq })
		if err != nil {
			return fmt.Errorf("human game move: %w", err)
		}
		move.add(got.at.Sub(t0))
		seen, err := other.wait(30*time.Second, func(m msg) bool { return isState(p.room)(m) && m.Seq >= got.Seq })
		if err != nil {
			return fmt.Errorf("human game, the opponent's view: %w", err)
		}
		p.last[p.room] = seen
		// The bot game's states that reached b, and the human game's that
		// reached a, are read by the next waits.
	}
	return nil
}

// counters of what the attacker did and how the server answered.
type counters struct {
	wsOpen, wsRefused, wsClosed         atomic.Int64
	wsUnanswered                        atomic.Int64
	trickleCut, trickleOpen             atomic.Int64
	hellos, helloFail                   atomic.Int64
	botOK, bot429, bot503, botOther     atomic.Int64
	chatSent, chatLimited, chatReceived atomic.Int64
	healthFail                          atomic.Int64
	flood                               challengeFlood
}

// attack runs every hostile client until ctx ends.
func attack(ctx context.Context, o options, room string, cnt *counters) *sync.WaitGroup {
	var wg sync.WaitGroup
	goFn := func(f func()) { wg.Add(1); go func() { defer wg.Done(); f() }() }

	// Connections past the cap, held without hello; opened again as the
	// hello deadline closes them. They start a second after the rest, so
	// that the chat spammers find a place under the address's cap.
	goFn(func() {
		sleepCtx(ctx, time.Second)
		var held []*client
		defer func() {
			for _, c := range held {
				_ = c.c.Close()
			}
		}()
		for ctx.Err() == nil {
			live := held[:0]
			for _, c := range held {
				if c.closed.Load() {
					cnt.wsClosed.Add(1)
					_ = c.c.Close()
				} else {
					live = append(live, c)
				}
			}
			held = live
			for len(held) < o.conns && ctx.Err() == nil {
				c, resp, err := dial(o.base, attacker)
				if err != nil {
					if resp != nil {
						cnt.wsRefused.Add(1)
					} else {
						cnt.wsUnanswered.Add(1)
					}
					break
				}
				cnt.wsOpen.Add(1)
				held = append(held, c)
			}
			sleepCtx(ctx, 500*time.Millisecond)
		}
	})
	// Bodies trickled a byte a second.
	for i := 0; i < o.trickles; i++ {
		goFn(func() { trickle(ctx, o.base, cnt) })
	}
	// hello floods: new guests as fast as four connections can make them.
	for i := 0; i < 4; i++ {
		goFn(func() {
			for ctx.Err() == nil {
				c, err := hello(o.base, attacker, "")
				if err != nil {
					cnt.helloFail.Add(1)
					sleepCtx(ctx, 100*time.Millisecond)
					continue
				}
				cnt.hellos.Add(1)
				_ = c.c.Close()
			}
		})
	}
	// Eight strong bot requests at once, again and again.
	for i := 0; i < 8; i++ {
		goFn(func() {
			body := `{"game":"go","variant":"19","level":"forte"}`
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, o.base+"/api/bot/move", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Forwarded-For", attacker)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				_ = resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusOK:
					cnt.botOK.Add(1)
				case http.StatusTooManyRequests:
					cnt.bot429.Add(1)
					sleepCtx(ctx, 200*time.Millisecond)
				case http.StatusServiceUnavailable:
					cnt.bot503.Add(1)
					sleepCtx(ctx, 200*time.Millisecond)
				default:
					cnt.botOther.Add(1)
				}
			}
		})
	}
	// Twenty connections spam the people's game's chat as spectators.
	for i := 0; i < 20; i++ {
		goFn(func() {
			c, err := hello(o.base, attacker, fmt.Sprintf("spam%d", i))
			if err != nil {
				return
			}
			defer c.c.Close()
			_ = c.send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			go func() {
				for m := range c.in {
					switch {
					case m.Type == "room.chat":
						cnt.chatReceived.Add(1)
					case m.Type == "error" && m.Code == "rate_limited":
						cnt.chatLimited.Add(1)
					}
				}
			}()
			text := strings.Repeat("spam ", 99)
			for ctx.Err() == nil && !c.closed.Load() {
				cnt.chatSent.Add(1)
				_ = c.send(map[string]any{"type": "room.chat", "room": room, "text": text})
				sleepCtx(ctx, 50*time.Millisecond)
			}
		})
	}
	// Guests challenge bots of their own (challenge.go).
	for i := 0; i < o.challengers; i++ {
		goFn(func() { cnt.flood.run(ctx, o.base, i) })
	}
	// /healthz answers throughout.
	goFn(func() {
		for ctx.Err() == nil {
			cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			req, _ := http.NewRequestWithContext(cctx, http.MethodGet, o.base+"/healthz", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				if ctx.Err() == nil {
					cnt.healthFail.Add(1)
				}
			}
			if resp != nil {
				_ = resp.Body.Close()
			}
			cancel()
			sleepCtx(ctx, time.Second)
		}
	})
	return &wg
}

func trickle(ctx context.Context, base string, cnt *counters) {
	u, _ := url.Parse(base)
	c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return
	}
	defer c.Close()
	cnt.trickleOpen.Add(1)
	_, err = fmt.Fprintf(c, "POST /api/bot/move HTTP/1.1\r\nHost: %s\r\nX-Forwarded-For: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", u.Host, attacker)
	if err != nil {
		return
	}
	go func() { // the server's answer, or its close, ends the trickle
		_, _ = bufio.NewReader(c).ReadString('\n')
		_ = c.Close()
	}()
	for ctx.Err() == nil {
		if _, err := c.Write([]byte{' '}); err != nil {
			cnt.trickleCut.Add(1)
			return
		}
		sleepCtx(ctx, time.Second)
	}
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// memory samples the server's RSS and Redis's used memory.
type memory struct {
	o                  options
	rdb                *redis.Client
	rss, redis         int64 // the latest
	peakRSS, peakRedis int64
}

func (m *memory) sample(ctx context.Context) {
	if m.o.pid > 0 {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", m.o.pid)); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
					kb, _ := strconv.ParseInt(f[1], 10, 64)
					m.rss = kb << 10
				}
			}
		}
	}
	if m.rdb != nil {
		if s, err := m.rdb.Info(ctx, "memory").Result(); err == nil {
			for _, l := range strings.Split(s, "\r\n") {
				if v, ok := strings.CutPrefix(l, "used_memory:"); ok {
					m.redis, _ = strconv.ParseInt(v, 10, 64)
				}
			}
		}
	}
	m.peakRSS, m.peakRedis = max(m.peakRSS, m.rss), max(m.peakRedis, m.redis)
}

func mb(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) }

func run(o options) error {
	rng := rand.New(rand.NewPCG(18, 18))
	mem := &memory{o: o}
	if o.redisURL != "" {
		opt, err := redis.ParseURL(o.redisURL)
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		mem.rdb = redis.NewClient(opt)
		defer mem.rdb.Close()
	}
	ctx := context.Background()
	var p people
	if err := p.setUp(o.base, o.level); err != nil {
		return fmt.Errorf("seating the people: %w", err)
	}
	mem.sample(ctx)
	rssIdle, redisIdle := mem.rss, mem.redis
	var idleMove, idleBot, loadMove, loadBot timings
	if err := p.play(rng, o.moves, &idleMove, &idleBot); err != nil {
		return fmt.Errorf("idle phase: %w", err)
	}

	var cnt counters
	actx, stop := context.WithTimeout(ctx, o.load)
	defer stop()
	wg := attack(actx, o, p.room, &cnt)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for actx.Err() == nil {
			mem.sample(ctx)
			sleepCtx(actx, time.Second)
		}
	}()
	// Let the attack build up before the people play again.
	sleepCtx(actx, 10*time.Second)
	playErr := p.play(rng, o.moves, &loadMove, &loadBot)
	// The attack goes on to its end, so that the hello deadline and the
	// body timeout show in the counters and the memory peaks cover it.
	<-actx.Done()
	stop()
	wg.Wait()
	<-sampled
	mem.sample(ctx)
	dropped := 0
	for _, c := range []*client{p.a, p.b} {
		if c.closed.Load() {
			dropped++
		}
	}

	fmt.Printf("Abuse run against %s: %d moves each phase, attack for at most %s\n\n", o.base, o.moves, o.load)
	fmt.Println("| round trip | idle p50 ms | idle p95 ms | loaded p50 ms | loaded p95 ms | loaded max ms | p95 loaded/idle |")
	fmt.Println("|---|---|---|---|---|---|---|")
	row := func(name string, i, l *timings) {
		ratio := "-"
		if i.q(0.95) > 0 {
			ratio = strconv.FormatFloat(float64(l.q(0.95))/float64(i.q(0.95)), 'f', 2, 64)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s |\n", name, ms(i.q(0.5)), ms(i.q(0.95)), ms(l.q(0.5)), ms(l.q(0.95)), ms(l.q(1)), ratio)
	}
	row("a person's move (both games)", &idleMove, &loadMove)
	row("the bot's reply ("+o.level+", go 9x9)", &idleBot, &loadBot)
	fmt.Println()
	fmt.Printf("- people dropped: %d of 2; play under load: %v\n", dropped, errString(playErr))
	fmt.Printf("- connections: %d opened by the attacker, %d refused at the upgrade, %d upgrades unanswered in 5 s, %d closed by the server (no hello)\n",
		cnt.wsOpen.Load(), cnt.wsRefused.Load(), cnt.wsUnanswered.Load(), cnt.wsClosed.Load())
	fmt.Printf("- trickled bodies: %d opened, %d cut off by the server\n", cnt.trickleOpen.Load(), cnt.trickleCut.Load())
	fmt.Printf("- hello flood: %d guests welcomed, %d refused or failed\n", cnt.hellos.Load(), cnt.helloFail.Load())
	fmt.Printf("- strong bot requests: %d answered, %d 429, %d 503, %d other\n", cnt.botOK.Load(), cnt.bot429.Load(), cnt.bot503.Load(), cnt.botOther.Load())
	fmt.Printf("- chat spam: %d lines sent by 20 connections, %d rate_limited, %d lines received by them\n",
		cnt.chatSent.Load(), cnt.chatLimited.Load(), cnt.chatReceived.Load())
	if o.challengers > 0 {
		cnt.flood.report(o.challengers)
	}
	fmt.Printf("- /healthz failures: %d\n", cnt.healthFail.Load())
	if o.pid > 0 {
		fmt.Printf("- server RSS: %s MB idle, %s MB peak, %s MB at the end\n", mb(rssIdle), mb(mem.peakRSS), mb(mem.rss))
	}
	if mem.rdb != nil {
		fmt.Printf("- Redis used_memory: %s MB idle, %s MB peak, %s MB at the end\n", mb(redisIdle), mb(mem.peakRedis), mb(mem.redis))
	}
	return nil
}

func errString(err error) string {
	if err == nil {
		return "completed"
	}
	return err.Error()
}
