// Package loadgen drives the Tabuleiro server through its public WebSocket
// protocol only, the way cmd/loadgen runs it: one go room watched by many
// spectators (fanout), many rooms of two players moving as fast as turns
// allow (rooms), people against bots (bots), everyone dropping and coming
// back with their tokens (reconnect), and connections held idle (idle). It
// reports moves per second, latencies from a move being sent to its state
// arriving (HDR-style histograms), bytes per move per client, errors by
// code and the server's memory.
package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// Modes are the workloads.
var Modes = []string{"fanout", "rooms", "bots", "reconnect", "idle", "signins"}

// Config is one run.
type Config struct {
	// URL is the server's WebSocket endpoint, ws://host:port/ws; several
	// comma-separated endpoints (nodes of a cluster) are spread over as
	// Spread says.
	URL string
	// Spread picks the endpoint of connection id among several: "conn"
	// (id mod n: in fanout the two players and the spectators alternate
	// nodes) or "room" (rooms and bots: every connection of room i on
	// endpoint i mod n). Default "conn".
	Spread string
	Mode   string
	// Spectators: fanout, the room's spectators; rooms and bots, per room.
	Spectators int
	// Rooms: rooms and bots modes.
	Rooms int
	// Conns: connections of the idle and reconnect modes.
	Conns int
	// Moves: fanout, moves to play (0: until Duration).
	Moves int
	// Duration: rooms and bots, the measured window; fanout with Moves 0 and
	// idle, how long to go on (soak).
	Duration time.Duration
	// Gap and Jitter: fanout, the pause after a move reached everyone,
	// plus a uniform random part.
	Gap, Jitter time.Duration
	// Rate: rooms and bots, the aggregate rate of the players' moves to aim
	// at, in moves a second (0: as fast as turns allow). Each room then
	// moves once every Rooms/Rate seconds on average (a uniform 0.5x to
	// 1.5x of it, so that the rooms do not move in step), never before its
	// turn comes; the latency is still measured from the write.
	Rate float64
	// Game, Variant and Level: the rooms (go 19 by default; bots mode uses
	// Level, default the game's first level).
	Game, Variant, Level string
	// Patch asks for room.patch frames (hello feature "patch").
	Patch bool
	// Compress offers permessage-deflate; Bytes then count the payload
	// after decompression, WireBytes what crossed the socket.
	Compress bool
	// Sources spreads connections over 127.0.0.1..Sources.
	Sources int
	// JoinConcurrency bounds the connections being set up at once.
	JoinConcurrency int
	// StormConcurrency bounds the reconnections of the storm in flight at
	// once (0: all at once).
	StormConcurrency int
	// Settle is the pause before each memory reading and before moving.
	Settle time.Duration
	// PID is the server's process id, for its memory and CPU (0: not read).
	PID int
	// MoveTimeout bounds the wait for a move to reach everyone.
	MoveTimeout time.Duration
	// Flood: signins, the sign-ins sent at once during the second phase
	// (default DefaultFlood).
	Flood int
	// FloodRight: signins, the flood signs in to one account with its
	// right password from one address (issue 33's weapon) while others,
	// each from an address of its own, sign in to their own accounts one
	// after another; the report gives their share of successes and their
	// times (target: at least 95%, each within 2 s).
	FloodRight bool
	// Log receives progress lines (nil: none).
	Log io.Writer
}

func (c *Config) defaults() {
	if c.Game == "" {
		c.Game = "go"
	}
	if c.Variant == "" {
		c.Variant = "19"
		if c.Game != "go" {
			c.Variant = ""
		}
	}
	if c.Sources <= 0 {
		c.Sources = 1
	}
	if c.JoinConcurrency <= 0 {
		c.JoinConcurrency = 64
	}
	if c.MoveTimeout <= 0 {
		c.MoveTimeout = 30 * time.Second
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Flood <= 0 {
		c.Flood = DefaultFlood
	}
}

// Report is the outcome of a run.
type Report struct {
	Mode string
	// Conns is the number of connections open at the end of the run.
	Conns int
	// Moves counted (rooms: those whose state reached the mover within
	// the window); Window is the measured time.
	Moves       int64
	Window      time.Duration
	MovesPerSec float64
	// Latencies from a move being sent: to its state at the mover, at the
	// opponent (bots: the bot's answer), at the last spectator of the room
	// (one sample per move), at any spectator (one per delivery).
	Mover, Opponent, LastSpectator, Spectator Summary
	// BytesPerMove: payload bytes received per move per client, by role.
	BytesPerMove map[string]float64
	// FrameBytes: size of the last frame a spectator received for a move.
	FrameBytes int
	// Errors by protocol code; "closed" counts connections lost,
	// "undelivered" moves that did not reach every member.
	Errors map[string]int64
	// Server memory and CPU (PID given).
	RSSBeforeKB, RSSAfterKB int64
	KBPerConn               float64
	ServerCPU, ClientCPU    float64
	// Seated: reconnect, from the drop to the room.state of each client;
	// AllSeated when the last one got it.
	Seated    Summary
	AllSeated time.Duration
	// Setup is how long the connections took to set up.
	Setup time.Duration
	// Rate is the aggregate move rate the rooms aimed at (0: none).
	Rate float64
	// BotQuiet and BotFlood: signins, the bot's reply time (the person's
	// move seen to the bot's seen) on a quiet server and during the flood;
	// SignIns the flood's answers by status, SignInsPerSec their rate.
	BotQuiet, BotFlood Summary
	SignIns            map[string]int64
	SignInsPerSec      float64
	// Others: signins with FloodRight, the others' sign-ins during the
	// flood (their times, from the request to its answer) and how many
	// succeeded.
	Others   Summary
	OthersOK int64
}

// BotRatio is the bot's median reply time during the flood over its
// median on the quiet server (signins), 0 without samples.
func (r *Report) BotRatio() float64 {
	if r.BotQuiet.P50 <= 0 {
		return 0
	}
	return float64(r.BotFlood.P50) / float64(r.BotQuiet.P50)
}

// ErrorCount is the sum of Errors.
func (r *Report) ErrorCount() int64 {
	var n int64
	for _, v := range r.Errors {
		n += v
	}
	return n
}

// Print writes the report as readable lines and one SUMMARY line of
// key=value pairs (milliseconds, KB, bytes) for scripts.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%s: %d connections held; setup %v\n", r.Mode, r.Conns, r.Setup.Round(time.Millisecond))
	if r.Moves > 0 {
		fmt.Fprintf(w, "%s: %d moves in %v = %.0f moves/s\n", r.Mode, r.Moves, r.Window.Round(time.Millisecond), r.MovesPerSec)
		fmt.Fprintf(w, "%s: move sent -> state at mover:          %v\n", r.Mode, r.Mover)
		fmt.Fprintf(w, "%s: move sent -> state at opponent:       %v\n", r.Mode, r.Opponent)
		fmt.Fprintf(w, "%s: move sent -> state at last spectator: %v\n", r.Mode, r.LastSpectator)
		fmt.Fprintf(w, "%s: move sent -> state at any spectator:  %v\n", r.Mode, r.Spectator)
		roles := slices.Sorted(maps.Keys(r.BytesPerMove))
		for _, role := range roles {
			fmt.Fprintf(w, "%s: bytes received per move per %s: %.0f\n", r.Mode, role, r.BytesPerMove[role])
		}
		if r.FrameBytes > 0 {
			fmt.Fprintf(w, "%s: the last move's frame to a spectator: %d bytes\n", r.Mode, r.FrameBytes)
		}
	}
	if r.Seated.N > 0 {
		fmt.Fprintf(w, "%s: drop -> seated again: %v; all %d seated after %s ms\n", r.Mode, r.Seated, r.Seated.N, ms(r.AllSeated))
	}
	if r.BotQuiet.N > 0 {
		fmt.Fprintf(w, "%s: the bot's reply, quiet server:     %v\n", r.Mode, r.BotQuiet)
		fmt.Fprintf(w, "%s: the bot's reply, during the flood: %v\n", r.Mode, r.BotFlood)
		fmt.Fprintf(w, "%s: median during / quiet: %.2f (target: at most 1.5)\n", r.Mode, r.BotRatio())
		fmt.Fprintf(w, "%s: sign-ins %.0f/s, answers %v\n", r.Mode, r.SignInsPerSec, r.SignIns)
	}
	if r.RSSAfterKB > 0 {
		fmt.Fprintf(w, "%s: server VmRSS %d KB -> %d KB (%.1f KB per connection)\n", r.Mode, r.RSSBeforeKB, r.RSSAfterKB, r.KBPerConn)
	}
	if r.ServerCPU > 0 {
		fmt.Fprintf(w, "%s: CPU while moving: server %.2fs, load generator %.2fs\n", r.Mode, r.ServerCPU, r.ClientCPU)
	}
	codes := slices.Sorted(maps.Keys(r.Errors))
	var errs []string
	for _, c := range codes {
		errs = append(errs, fmt.Sprintf("%s=%d", c, r.Errors[c]))
	}
	fmt.Fprintf(w, "%s: errors: %d %s\n", r.Mode, r.ErrorCount(), strings.Join(errs, " "))

	kv := []string{"SUMMARY", r.Mode, "conns=" + strconv.Itoa(r.Conns)}
	add := func(k string, v any) { kv = append(kv, fmt.Sprintf("%s=%v", k, v)) }
	add("setup_s", fmt.Sprintf("%.1f", r.Setup.Seconds()))
	if r.Rate > 0 {
		add("rate", fmt.Sprintf("%.0f", r.Rate))
	}
	if r.Moves > 0 {
		add("moves", r.Moves)
		add("moves_per_s", fmt.Sprintf("%.0f", r.MovesPerSec))
		for _, h := range []struct {
			k string
			s Summary
		}{{"mover", r.Mover}, {"opponent", r.Opponent}, {"last_spectator", r.LastSpectator}} {
			if h.s.N > 0 {
				add(h.k+"_p50_ms", ms(h.s.P50))
				add(h.k+"_p90_ms", ms(h.s.P90))
				add(h.k+"_p99_ms", ms(h.s.P99))
				add(h.k+"_max_ms", ms(h.s.Max))
			}
		}
		for _, role := range slices.Sorted(maps.Keys(r.BytesPerMove)) {
			add("bytes_per_move_"+role, fmt.Sprintf("%.0f", r.BytesPerMove[role]))
		}
		if r.FrameBytes > 0 {
			add("last_frame_bytes", r.FrameBytes)
		}
	}
	if r.Seated.N > 0 {
		add("seated_p50_ms", ms(r.Seated.P50))
		add("seated_p99_ms", ms(r.Seated.P99))
		add("all_seated_ms", ms(r.AllSeated))
	}
	if r.BotQuiet.N > 0 {
		add("bot_quiet_p50_ms", ms(r.BotQuiet.P50))
		add("bot_quiet_p90_ms", ms(r.BotQuiet.P90))
		add("bot_flood_p50_ms", ms(r.BotFlood.P50))
		add("bot_flood_p90_ms", ms(r.BotFlood.P90))
		add("bot_ratio", fmt.Sprintf("%.2f", r.BotRatio()))
		add("signins_per_s", fmt.Sprintf("%.0f", r.SignInsPerSec))
		for _, code := range slices.Sorted(maps.Keys(r.SignIns)) {
			add("signins_"+code, r.SignIns[code])
		}
	}
	if r.Others.N > 0 {
		add("others_signins", r.Others.N)
		add("others_ok_pct", fmt.Sprintf("%.1f", 100*float64(r.OthersOK)/float64(r.Others.N)))
		add("others_p50_ms", ms(r.Others.P50))
		add("others_p99_ms", ms(r.Others.P99))
		add("others_max_ms", ms(r.Others.Max))
	}
	if r.RSSAfterKB > 0 {
		add("rss_before_kb", r.RSSBeforeKB)
		add("rss_after_kb", r.RSSAfterKB)
		add("kb_per_conn", fmt.Sprintf("%.1f", r.KBPerConn))
	}
	if r.ServerCPU > 0 {
		add("server_cpu_s", fmt.Sprintf("%.2f", r.ServerCPU))
		add("client_cpu_s", fmt.Sprintf("%.2f", r.ClientCPU))
	}
	add("errors", r.ErrorCount())
	fmt.Fprintln(w, strings.Join(kv, " "))
}

// errCounter counts errors by code from many goroutines.
type errCounter struct {
	mu sync.Mutex
	m  map[string]int64
}

func (e *errCounter) add(code string, n int64) {
	e.mu.Lock()
	if e.m == nil {
		e.m = map[string]int64{}
	}
	e.m[code] += n
	e.mu.Unlock()
}

func (e *errCounter) snapshot() map[string]int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.m)
}

type runner struct {
	cfg    Config
	dialer *Dialer
	errs   errCounter
	mu     sync.Mutex
	conns  []*Client
}

// Run runs one workload until it is done or ctx ends.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	r := &runner{cfg: cfg, dialer: &Dialer{URL: cfg.URL, Spread: cfg.Spread, Sources: cfg.Sources, Compress: cfg.Compress}}
	defer r.closeAll()
	var (
		rep *Report
		err error
	)
	switch cfg.Mode {
	case "fanout":
		rep, err = r.fanout(ctx)
	case "rooms", "bots":
		rep, err = r.rooms(ctx, cfg.Mode == "bots")
	case "reconnect":
		rep, err = r.reconnect(ctx)
	case "idle":
		rep, err = r.idle(ctx)
	case "signins":
		rep, err = r.signins(ctx)
	default:
		return nil, fmt.Errorf("unknown mode %q (one of %s)", cfg.Mode, strings.Join(Modes, ", "))
	}
	if rep != nil {
		rep.Mode = cfg.Mode
		rep.Errors = r.errs.snapshot()
		if rep.Errors == nil {
			rep.Errors = map[string]int64{}
		}
	}
	return rep, err
}

// received is what a client has received: the payload bytes, or with
// compression the bytes on the wire.
func (r *runner) received(c *Client) int64 {
	if r.cfg.Compress {
		return c.Wire.Load()
	}
	return c.Bytes.Load()
}

func (r *runner) track(c *Client) {
	r.mu.Lock()
	r.conns = append(r.conns, c)
	r.mu.Unlock()
}

// untrack forgets a connection the run closes itself (not a lost one).
func (r *runner) untrack(c *Client) {
	r.mu.Lock()
	r.conns = slices.DeleteFunc(r.conns, func(x *Client) bool { return x == c })
	r.mu.Unlock()
}

func (r *runner) closeAll() {
	r.mu.Lock()
	cs := r.conns
	r.conns = nil
	r.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}

// open counts the tracked connections still open, and counts the others
// as lost.
func (r *runner) open() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.conns {
		select {
		case <-c.Done():
			r.errs.add("closed", 1)
		default:
			n++
		}
	}
	return n
}

func (r *runner) connect(ctx context.Context, id int, name, token string) (*Client, error) {
	c, err := r.dialer.Dial(ctx, id)
	if err != nil {
		return nil, err
	}
	r.track(c)
	if _, err := c.Hello(ctx, name, token, r.cfg.Patch); err != nil {
		return nil, err
	}
	return c, nil
}

// create makes a room and returns its id and the first frame that shows it
// (its room.state).
func (r *runner) create(ctx context.Context, c *Client, opponent string) (string, *Frame, error) {
	m := map[string]any{"type": protocol.TypeRoomCreate, "game": r.cfg.Game, "variant": r.cfg.Variant, "opponent": opponent}
	if opponent == "bot" && r.cfg.Level != "" {
		m["level"] = r.cfg.Level
	}
	if err := c.Send(m); err != nil {
		return "", nil, err
	}
	j, err := c.Wait(ctx, "room.joined", func(f *Frame) bool { return f.Type == protocol.TypeRoomJoined })
	if err != nil {
		return "", nil, err
	}
	st, err := c.Wait(ctx, "room.state", func(f *Frame) bool { return f.Type == protocol.TypeRoomState && f.Room == j.Room })
	return j.Room, st, err
}

func (r *runner) join(ctx context.Context, c *Client, room, as string) (*Frame, error) {
	if err := c.Send(map[string]any{"type": protocol.TypeRoomJoin, "room": room, "as": as}); err != nil {
		return nil, err
	}
	return c.Wait(ctx, "room.state", func(f *Frame) bool { return f.Type == protocol.TypeRoomState && f.Room == room })
}

// parallel runs f(0..n-1) with at most conc at once; the first error wins.
func parallel(ctx context.Context, n, conc int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		sem   = make(chan struct{}, max(conc, 1))
	)
	for i := 0; i < n && ctx.Err() == nil; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}

func (r *runner) rss() int64 {
	if r.cfg.PID <= 0 {
		return 0
	}
	kb, err := RSSKB(r.cfg.PID)
	if err != nil {
		fmt.Fprintf(r.cfg.Log, "rss: %v\n", err)
	}
	return kb
}

func (r *runner) cpu() float64 {
	if r.cfg.PID <= 0 {
		return 0
	}
	s, _ := CPUSeconds(r.cfg.PID)
	return s
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// boardSize is the go board size of the configured variant (0 otherwise).
func (r *runner) boardSize() int {
	if r.cfg.Game != "go" {
		return 0
	}
	n, _ := strconv.Atoi(r.cfg.Variant)
	return n
}

// fanMove is the move in flight in the fanout mode.
type fanMove struct {
	k          int
	seat       int
	move       string
	sent       time.Time
	recv       []int64 // unix nanos, by client id
	got, total atomic.Int32
	done       chan struct{}
}

func (r *runner) fanout(ctx context.Context) (*Report, error) {
	cfg := r.cfg
	rep := &Report{}
	setupStart := time.Now()
	a, err := r.connect(ctx, 0, "mover-a", "")
	if err != nil {
		return nil, err
	}
	b, err := r.connect(ctx, 1, "mover-b", "")
	if err != nil {
		return nil, err
	}
	room, _, err := r.create(ctx, a, "human")
	if err != nil {
		return nil, fmt.Errorf("create the room: %w", err)
	}
	if _, err := r.join(ctx, b, room, "player"); err != nil {
		return nil, fmt.Errorf("seat 1: %w", err)
	}
	// Seat 0 learns its legal moves from the frame that starts the game.
	start, err := a.Wait(ctx, "the game to start", func(f *Frame) bool { return f.Room == room && f.Legal().Len() > 0 })
	if err != nil {
		return nil, err
	}
	size := r.boardSize()
	var next [2]atomic.Pointer[string]
	first := ChooseMove(cfg.Game, size, start.Legal(), 0)
	next[0].Store(&first)

	sleep(ctx, cfg.Settle)
	rep.RSSBeforeKB = r.rss()
	specs := make([]*Client, cfg.Spectators)
	err = parallel(ctx, cfg.Spectators, cfg.JoinConcurrency, func(ctx context.Context, i int) error {
		c, err := r.connect(ctx, 2+i, "watcher", "")
		if err != nil {
			return err
		}
		specs[i] = c
		_, err = r.join(ctx, c, room, "spectator")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("spectators: %w", err)
	}
	rep.Setup = time.Since(setupStart)
	fmt.Fprintf(cfg.Log, "fanout: room %s, 2 players and %d spectators joined in %v\n", room, cfg.Spectators, rep.Setup.Round(time.Millisecond))
	sleep(ctx, cfg.Settle)
	if rep.RSSBeforeKB > 0 {
		rep.RSSAfterKB = r.rss()
		if cfg.Spectators > 0 {
			rep.KBPerConn = float64(rep.RSSAfterKB-rep.RSSBeforeKB) / float64(cfg.Spectators)
		}
	}

	all := append([]*Client{a, b}, specs...)
	var cur atomic.Pointer[fanMove]
	frameBytes := make([]int, len(all))
	handler := func(c *Client, f *Frame, v *View, newMove bool, at time.Time) {
		if f.Type == protocol.TypeError {
			r.errs.add(f.Code, 1)
			return
		}
		if !newMove || v.Room != room {
			return
		}
		m := cur.Load()
		if m == nil || v.LastMove.Seat != m.seat || v.LastMove.Move != m.move {
			return
		}
		if c.ID < 2 && v.Turn == c.ID {
			mv := ChooseMove(cfg.Game, size, v.Legal(), m.k+1)
			next[c.ID].Store(&mv)
		}
		atomic.StoreInt64(&m.recv[c.ID], at.UnixNano())
		frameBytes[c.ID] = f.size
		if m.got.Add(1) == m.total.Load() {
			close(m.done)
		}
	}
	for _, c := range all {
		c.SetHandler(handler)
	}
	bytes0 := make([]int64, len(all))
	for i, c := range all {
		bytes0[i] = r.received(c)
	}
	var mover, opp, last, anySpec Histogram
	cpu0, self0 := r.cpu(), SelfCPUSeconds()
	began := time.Now()
	moves := 0
	for k := 0; ctx.Err() == nil; k++ {
		if cfg.Moves > 0 && k >= cfg.Moves || cfg.Moves <= 0 && time.Since(began) >= cfg.Duration {
			break
		}
		seat := k % 2
		mv := *next[seat].Load()
		if mv == "" {
			fmt.Fprintf(cfg.Log, "fanout: seat %d has no move but a pass after %d moves; stopping\n", seat, k)
			break
		}
		m := &fanMove{k: k, seat: seat, move: mv, recv: make([]int64, len(all)), done: make(chan struct{})}
		m.total.Store(int32(len(all)))
		cur.Store(m)
		m.sent = time.Now()
		if err := all[seat].SendMove(room, mv); err != nil {
			return nil, fmt.Errorf("move %d: %w", k, err)
		}
		t := time.NewTimer(cfg.MoveTimeout)
		select {
		case <-m.done:
			t.Stop()
		case <-t.C:
			r.errs.add("undelivered", 1)
			missing, closed := 0, 0
			var why error
			for i, c := range all {
				if atomic.LoadInt64(&m.recv[i]) == 0 {
					missing++
					select {
					case <-c.Done():
						closed++
						if why == nil {
							why = c.err
						}
					default:
					}
				}
			}
			return nil, fmt.Errorf("move %d (%s) reached %d of %d clients in %v; of the %d others %d lost their connection (%v)",
				k, mv, m.got.Load(), len(all), cfg.MoveTimeout, missing, closed, why)
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		moves++
		sent := m.sent.UnixNano()
		mover.Record(time.Duration(m.recv[seat] - sent))
		opp.Record(time.Duration(m.recv[1-seat] - sent))
		var worst int64
		for _, t := range m.recv[2:] {
			anySpec.Record(time.Duration(t - sent))
			worst = max(worst, t-sent)
		}
		if len(specs) > 0 {
			last.Record(time.Duration(worst))
		}
		pause := cfg.Gap
		if cfg.Jitter > 0 {
			pause += time.Duration(rand.Int64N(int64(cfg.Jitter)))
		}
		sleep(ctx, pause)
	}
	rep.Window = time.Since(began)
	rep.ServerCPU, rep.ClientCPU = r.cpu()-cpu0, SelfCPUSeconds()-self0
	sleep(ctx, 200*time.Millisecond) // late error frames show up
	rep.Moves = int64(moves)
	rep.MovesPerSec = float64(moves) / rep.Window.Seconds()
	rep.Mover, rep.Opponent, rep.LastSpectator, rep.Spectator = mover.Summary(), opp.Summary(), last.Summary(), anySpec.Summary()
	rep.BytesPerMove = map[string]float64{}
	if moves > 0 {
		per := func(cs []*Client, from int) float64 {
			var sum int64
			for i, c := range cs {
				sum += r.received(c) - bytes0[from+i]
			}
			return float64(sum) / float64(len(cs)) / float64(moves)
		}
		rep.BytesPerMove["player"] = per(all[:2], 0)
		if len(specs) > 0 {
			rep.BytesPerMove["spectator"] = per(specs, 2)
			rep.FrameBytes = frameBytes[2]
		}
	}
	rep.Conns = r.open()
	return rep, nil
}

// pair is one room of the rooms and bots modes: the players' shared move
// clock and the spectators' count of the move in flight.
type pair struct {
	sentAt atomic.Int64 // unix nanos of the last move sent
	k      atomic.Int64 // moves sent in this pair's rooms
	nextAt atomic.Int64 // with a Rate: unix nanos before which the room's next move waits

	mu      sync.Mutex
	moveSeq int64 // the seq of the move the spectators are counting
	got     int
	worst   int64
	last    Histogram
}

// seatState is a rooms-mode client's own state, owned by its reader.
type seatState struct {
	p         *pair
	spectator bool
	seat      int    // -1 for a spectator
	home      string // the room it was set up in
	room      string // the room of its last frame
	asked     string // the finished room it asked a rematch in
	left      string // the last finished room it left for its rematch
	followed  string // the next room a spectator followed
	mover     Histogram
	opp       Histogram
	any       Histogram
	done      int64 // moves of its own that reached it within the window
}

func (r *runner) rooms(ctx context.Context, bots bool) (*Report, error) {
	cfg := r.cfg
	rep := &Report{Rate: cfg.Rate}
	size := r.boardSize()
	pairs := make([]*pair, cfg.Rooms)
	players := make([][]*Client, cfg.Rooms)
	specs := make([][]*Client, cfg.Rooms)
	var (
		armed    atomic.Bool
		stopping atomic.Bool
		deadline atomic.Int64
	)
	// interval is the mean time between two moves of a room with a Rate.
	var interval time.Duration
	if cfg.Rate > 0 {
		interval = time.Duration(float64(cfg.Rooms) / cfg.Rate * float64(time.Second))
	}
	send := func(c *Client, st *seatState, v *View) {
		k := st.p.k.Add(1) - 1
		mv, room := ChooseMove(cfg.Game, size, v.Legal(), int(k)), v.Room
		write := func() {
			st.p.sentAt.Store(time.Now().UnixNano())
			// No move but a pass: resign (SendMove with "").
			if err := c.SendMove(room, mv); err != nil {
				r.errs.add("write", 1)
			}
		}
		if interval == 0 {
			write()
			return
		}
		// Paced: the move waits for the room's slot (the view stays with
		// the reader, so the move and the room are taken now).
		now := time.Now().UnixNano()
		at := max(now, st.p.nextAt.Load())
		st.p.nextAt.Store(at + int64(float64(interval)*(0.5+rand.Float64())))
		if at == now {
			write()
			return
		}
		time.AfterFunc(time.Duration(at-now), func() {
			if !stopping.Load() {
				write()
			}
		})
	}
	handler := func(c *Client, f *Frame, v *View, newMove bool, at time.Time) {
		st := c.State.(*seatState)
		switch f.Type {
		case protocol.TypeError:
			r.errs.add(f.Code, 1)
			return
		case protocol.TypeMatchFound, protocol.TypeRoomJoined:
			// A rematch swaps the seats. The new room's room.joined, which
			// its goroutine sends before its first room.state, carries the
			// seat; the old room's match.found may come after that state.
			if f.HasSeat {
				st.seat = f.Seat
			}
			return
		}
		if v == nil || !armed.Load() {
			return
		}
		inWindow := at.UnixNano() <= deadline.Load()
		if newMove && inWindow {
			d := time.Duration(at.UnixNano() - st.p.sentAt.Load())
			switch {
			case st.seat < 0:
				st.any.Record(d)
				p := st.p
				p.mu.Lock()
				if p.moveSeq != v.Seq {
					p.moveSeq, p.got, p.worst = v.Seq, 0, 0
				}
				p.got++
				p.worst = max(p.worst, int64(d))
				if p.got == cfg.Spectators {
					p.last.Record(time.Duration(p.worst))
				}
				p.mu.Unlock()
			case v.LastMove.Seat == st.seat:
				st.mover.Record(d)
				st.done++
			default:
				st.opp.Record(d)
			}
		}
		// A client follows a rematch to its new room and leaves the
		// finished one, as the web client does when it goes to the new
		// room: a connection that stayed in every room it played would keep
		// them all alive on the server (a soak of hours would measure that).
		if st.seat < 0 {
			if v.Next != "" && st.followed != v.Next {
				st.followed = v.Next
				_ = c.Send(map[string]any{"type": protocol.TypeRoomJoin, "room": v.Next, "as": "spectator"})
				_ = c.Send(map[string]any{"type": protocol.TypeRoomLeave, "room": v.Room})
			}
			return
		}
		if st.asked != "" && st.asked != v.Room && st.left != st.asked && !v.Finished {
			st.left = st.asked
			_ = c.Send(map[string]any{"type": protocol.TypeRoomLeave, "room": st.asked})
		}
		if v.Finished {
			if st.asked != v.Room && !stopping.Load() {
				st.asked = v.Room
				_ = c.Send(map[string]any{"type": protocol.TypeRoomRematch, "room": v.Room})
			}
			return
		}
		fresh := st.room != v.Room
		st.room = v.Room
		if (newMove || fresh) && v.Turn == st.seat && v.Status == "playing" && !stopping.Load() && time.Now().UnixNano() < deadline.Load() {
			send(c, st, v)
		}
	}

	setupStart := time.Now()
	err := parallel(ctx, cfg.Rooms, max(cfg.JoinConcurrency/(2+cfg.Spectators), 1), func(ctx context.Context, i int) error {
		p := &pair{}
		pairs[i] = p
		a, err := r.connect(ctx, 3*i, "player", "")
		if err != nil {
			return err
		}
		opponent := "human"
		if bots {
			opponent = "bot"
		}
		room, _, err := r.create(ctx, a, opponent)
		if err != nil {
			return err
		}
		a.State = &seatState{p: p, seat: 0, home: room}
		players[i] = []*Client{a}
		if !bots {
			b, err := r.connect(ctx, 3*i+1, "player", "")
			if err != nil {
				return err
			}
			b.State = &seatState{p: p, seat: 1}
			if _, err := r.join(ctx, b, room, "player"); err != nil {
				return err
			}
			players[i] = append(players[i], b)
		}
		for s := 0; s < cfg.Spectators; s++ {
			c, err := r.connect(ctx, 3*i+2, "watcher", "")
			if err != nil {
				return err
			}
			c.State = &seatState{p: p, seat: -1, spectator: true}
			if _, err := r.join(ctx, c, room, "spectator"); err != nil {
				return err
			}
			specs[i] = append(specs[i], c)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("set up the rooms: %w", err)
	}
	rep.Setup = time.Since(setupStart)
	fmt.Fprintf(cfg.Log, "%s: %d rooms set up in %v\n", cfg.Mode, cfg.Rooms, rep.Setup.Round(time.Millisecond))
	var everyone []*Client
	for i := range pairs {
		for _, c := range append(slices.Clone(players[i]), specs[i]...) {
			c.SetHandler(handler)
			everyone = append(everyone, c)
		}
	}
	sleep(ctx, cfg.Settle)
	bytes0 := map[*Client]int64{}
	for _, c := range everyone {
		bytes0[c] = r.received(c)
	}
	cpu0, self0 := r.cpu(), SelfCPUSeconds()
	began := time.Now()
	deadline.Store(began.Add(cfg.Duration).UnixNano())
	if interval > 0 { // the rooms' first moves spread over one interval
		for _, p := range pairs {
			p.nextAt.Store(began.UnixNano() + rand.Int64N(int64(interval)))
		}
	}
	armed.Store(true)
	// Seat 0 of every room moves first. The room views belong to the
	// readers, so the first move takes the same path as every other: seat 0
	// asks for the room's state again (an idempotent join) and its reader
	// moves on the answer.
	for i := range pairs {
		a := players[i][0]
		_ = a.Send(map[string]any{"type": protocol.TypeRoomJoin, "room": a.State.(*seatState).home, "as": "player"})
	}
	sleep(ctx, time.Until(time.Unix(0, deadline.Load())))
	rep.ServerCPU, rep.ClientCPU = r.cpu()-cpu0, SelfCPUSeconds()-self0
	rep.Window = time.Since(began)
	stopping.Store(true)
	sleep(ctx, 500*time.Millisecond) // moves in flight land, uncounted
	rep.Conns = r.open()
	totalBytes := map[string]int64{}
	for _, c := range everyone {
		role := "player"
		if c.State.(*seatState).spectator {
			role = "spectator"
		}
		totalBytes[role] += r.received(c) - bytes0[c]
	}
	r.closeAll() // stops the readers: their histograms can be read
	var mover, opp, anySpec, last Histogram
	var done int64
	for _, c := range everyone {
		st := c.State.(*seatState)
		mover.Merge(&st.mover)
		opp.Merge(&st.opp)
		anySpec.Merge(&st.any)
		done += st.done
	}
	for _, p := range pairs {
		last.Merge(&p.last)
	}
	rep.Moves = done
	if bots {
		rep.Moves += int64(opp.Count()) // the bots' moves
	}
	rep.MovesPerSec = float64(rep.Moves) / cfg.Duration.Seconds()
	rep.Mover, rep.Opponent, rep.Spectator, rep.LastSpectator = mover.Summary(), opp.Summary(), anySpec.Summary(), last.Summary()
	rep.BytesPerMove = map[string]float64{}
	var allMoves int64
	for _, p := range pairs {
		allMoves += p.k.Load()
	}
	if allMoves > 0 {
		nPlayers := int64(len(pairs)) * 2
		if bots {
			nPlayers = int64(len(pairs))
			allMoves *= 2
		}
		rep.BytesPerMove["player"] = float64(totalBytes["player"]) / float64(nPlayers) / float64(allMoves) * float64(len(pairs))
		if cfg.Spectators > 0 {
			rep.BytesPerMove["spectator"] = float64(totalBytes["spectator"]) / float64(int64(len(pairs)*cfg.Spectators)) / float64(allMoves) * float64(len(pairs))
		}
	}
	if rep.Moves == 0 {
		return rep, errors.New("no move completed")
	}
	return rep, nil
}

func (r *runner) reconnect(ctx context.Context) (*Report, error) {
	cfg := r.cfg
	rep := &Report{}
	n := cfg.Conns &^ 1
	if n < 2 {
		return nil, errors.New("reconnect needs at least 2 connections")
	}
	clients := make([]*Client, n)
	roomsOf := make([]string, n)
	setupStart := time.Now()
	err := parallel(ctx, n/2, max(cfg.JoinConcurrency/2, 1), func(ctx context.Context, i int) error {
		a, err := r.connect(ctx, 2*i, "storm", "")
		if err != nil {
			return err
		}
		room, _, err := r.create(ctx, a, "human")
		if err != nil {
			return err
		}
		b, err := r.connect(ctx, 2*i+1, "storm", "")
		if err != nil {
			return err
		}
		if _, err := r.join(ctx, b, room, "player"); err != nil {
			return err
		}
		clients[2*i], clients[2*i+1] = a, b
		roomsOf[2*i], roomsOf[2*i+1] = room, room
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seat the clients: %w", err)
	}
	rep.Setup = time.Since(setupStart)
	fmt.Fprintf(cfg.Log, "reconnect: %d clients seated in %d rooms in %v\n", n, n/2, rep.Setup.Round(time.Millisecond))
	sleep(ctx, cfg.Settle)
	r.closeAll()
	// Everyone dropped at once; now everyone comes back at once.
	t0 := time.Now()
	seated := make([]time.Duration, n)
	conc := cfg.StormConcurrency
	if conc <= 0 {
		conc = n
	}
	err = parallel(ctx, n, conc, func(ctx context.Context, i int) error {
		var c *Client
		// A real client retries an "internal" answer (the store could not
		// answer in time); each one is counted as an error.
		for attempt := 0; ; attempt++ {
			var err error
			if c, err = r.dialer.Dial(ctx, i); err != nil {
				return err
			}
			r.track(c)
			_, err = c.Hello(ctx, "storm", clients[i].Token, r.cfg.Patch)
			var se *ServerError
			if err == nil {
				break
			}
			if !errors.As(err, &se) || se.Code != string(protocol.CodeInternal) || attempt >= 20 {
				return err
			}
			r.errs.add(se.Code, 1)
			r.untrack(c)
			c.Close()
			sleep(ctx, time.Duration(100+rand.IntN(400))*time.Millisecond)
		}
		room := roomsOf[i]
		// The welcome came: the room.state must follow. One that never
		// comes is counted ("not_seated") and the storm goes on.
		wctx, cancel := context.WithTimeout(ctx, cfg.MoveTimeout)
		defer cancel()
		if _, err := c.Wait(wctx, "room.state", func(f *Frame) bool { return f.Type == protocol.TypeRoomState && f.Room == room }); err != nil {
			if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			r.errs.add("not_seated", 1)
			seated[i] = -1
			return nil
		}
		seated[i] = time.Since(t0)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reconnect: %w", err)
	}
	var h Histogram
	for _, d := range seated {
		if d >= 0 {
			h.Record(d)
		}
	}
	rep.Seated = h.Summary()
	rep.AllSeated = h.Max()
	rep.Conns = r.open()
	return rep, nil
}

func (r *runner) idle(ctx context.Context) (*Report, error) {
	cfg := r.cfg
	rep := &Report{}
	sleep(ctx, cfg.Settle)
	rep.RSSBeforeKB = r.rss()
	start := time.Now()
	err := parallel(ctx, cfg.Conns, cfg.JoinConcurrency, func(ctx context.Context, i int) error {
		_, err := r.connect(ctx, i, "idle", "")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("idle connections: %w", err)
	}
	rep.Setup = time.Since(start)
	fmt.Fprintf(cfg.Log, "idle: %d connections said hello in %v\n", cfg.Conns, rep.Setup.Round(time.Millisecond))
	sleep(ctx, cfg.Settle)
	if cfg.Duration > 0 {
		sleep(ctx, cfg.Duration)
	}
	rep.RSSAfterKB = r.rss()
	if rep.RSSBeforeKB > 0 && cfg.Conns > 0 {
		rep.KBPerConn = float64(rep.RSSAfterKB-rep.RSSBeforeKB) / float64(cfg.Conns)
	}
	rep.Conns = r.open()
	return rep, nil
}
