// Command gtpbot plays go on Tabuleiro with any program that speaks the Go
// Text Protocol (GTP version 2): GNU Go here, KataGo, Leela Zero or Pachi
// elsewhere. It is a bot account's program (docs/bots-api.md): it listens to
// the account's event stream and plays every go game the account is seated
// in, each with a fresh engine process.
//
//	gtpbot -server http://localhost:8080 -token <the bot's token> \
//	    -engine "/usr/games/gnugo --mode gtp --chinese-rules --komi 0.5"
//
// The engine's board is kept in step with the room: the moves so far when
// the game's stream opens, then every opponent move as it comes; the engine
// is asked for a move (genmove) when it is the bot's turn. A move the room's
// rules refuse (our positional superko, which GNU Go does not apply) is
// taken back on the engine (undo) and replaced by a pass; "resign" resigns.
// Games from a set-up position are not supported (the engine would not
// know the stones): gtpbot resigns them.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

func main() {
	cfg := config{}
	flag.StringVar(&cfg.server, "server", "http://localhost:8080", "the Tabuleiro server's URL")
	flag.StringVar(&cfg.token, "token", os.Getenv("TABULEIRO_TOKEN"), "the bot account's token (default $TABULEIRO_TOKEN)")
	flag.StringVar(&cfg.engine, "engine", "/usr/games/gnugo --mode gtp --chinese-rules --komi 0.5", "the GTP engine's command line (split at spaces)")
	flag.IntVar(&cfg.games, "games", 0, "stop after this many games have finished (0: never)")
	flag.Parse()
	if cfg.token == "" {
		log.Fatal("gtpbot: -token (or TABULEIRO_TOKEN) is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log.New(os.Stderr, "gtpbot: ", log.LstdFlags)); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal("gtpbot: ", err)
	}
}

// config is the command line.
type config struct {
	server, token, engine string
	games                 int
}

// client talks to the bot API.
type client struct {
	base, token string
	http        *http.Client
}

// apiError is an error answer of the bot API.
type apiError struct {
	Status int
	Code   string
	Msg    string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Msg) }

func (c *client) do(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		var body struct {
			Error struct{ Code, Message string }
		}
		_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body)
		return nil, &apiError{resp.StatusCode, body.Error.Code, body.Error.Message}
	}
	return resp, nil
}

func (c *client) post(ctx context.Context, path string) error {
	resp, err := c.do(ctx, "POST", path)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// lines calls fn with each JSON line of an NDJSON stream until it ends, ctx
// ends or fn says stop.
func (c *client) lines(ctx context.Context, path string, fn func([]byte) bool) error {
	resp, err := c.do(ctx, "GET", path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		if line := sc.Bytes(); len(strings.TrimSpace(string(line))) > 0 && !fn(line) {
			return nil
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return err
	}
	return ctx.Err()
}

// state is what gtpbot reads of a room.state.
type state struct {
	Room     string `json:"room"`
	Game     string `json:"game"`
	Variant  string `json:"variant"`
	Status   string `json:"status"`
	Turn     *int   `json:"turn"`
	Legal    []string
	Board    []string `json:"board"`
	LastMove *move    `json:"lastMove"`
	Moves    []move   `json:"moves"`
	Players  []struct {
		Seat int    `json:"seat"`
		ID   string `json:"id"`
	} `json:"players"`
}

type move struct {
	Seat int    `json:"seat"`
	Move string `json:"move"`
}

// run plays until ctx ends or cfg.games games have finished.
func run(ctx context.Context, cfg config, lg *log.Logger) error {
	c := &client{base: strings.TrimRight(cfg.server, "/"), token: cfg.token, http: &http.Client{}}
	resp, err := c.do(ctx, "GET", "/api/bot/account")
	if err != nil {
		return fmt.Errorf("account: %w", err)
	}
	var me struct{ ID, Name string }
	err = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if err != nil {
		return fmt.Errorf("account: %w", err)
	}
	lg.Printf("%s (%s) waiting for games", me.Name, me.ID)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	// started holds the rooms being played (a gameStart may come twice);
	// a room leaves it at its gameFinish, so it holds only games going on.
	// Only this goroutine (the event stream's callback) touches it.
	started := map[string]bool{}
	finished := 0
	for {
		err := c.lines(ctx, "/api/bot/stream/event", func(line []byte) bool {
			var ev struct{ Type, Room string }
			if json.Unmarshal(line, &ev) != nil {
				return true
			}
			switch ev.Type {
			case "gameStart":
				if started[ev.Room] {
					return true
				}
				started[ev.Room] = true
				wg.Add(1)
				go func() {
					defer wg.Done()
					g := &game{c: c, me: me.ID, room: ev.Room, engine: cfg.engine, log: lg}
					if err := g.play(ctx); err != nil && ctx.Err() == nil {
						lg.Printf("%s: %v", ev.Room, err)
					}
				}()
			case "gameFinish":
				delete(started, ev.Room)
				finished++
				if cfg.games > 0 && finished >= cfg.games {
					return false
				}
			}
			return true
		})
		if cfg.games > 0 && finished >= cfg.games {
			wg.Wait() // the games' last states
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		lg.Printf("event stream: %v; again in 2 s", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// game is one room being played.
type game struct {
	c      *client
	me     string
	room   string
	engine string
	log    *log.Logger

	eng    *gtp.Client
	n      int
	seat   int
	plies  int   // moves on the engine's board
	last   *move // the last move on it
	asked  int   // plies when the engine was last asked (-1: never)
	colors [2]string
}

func (g *game) path(tail string) string { return "/api/bot/game/" + url.PathEscape(g.room) + tail }

// play follows the room's stream to the end of the game.
func (g *game) play(ctx context.Context) error {
	g.asked, g.colors = -1, [2]string{"black", "white"}
	defer func() {
		if g.eng != nil {
			_ = g.eng.Close()
		}
	}()
	var failed error
	err := g.c.lines(ctx, g.path("/stream"), func(line []byte) bool {
		var st state
		if err := json.Unmarshal(line, &st); err != nil {
			failed = fmt.Errorf("bad state: %w", err)
			return false
		}
		if err := g.step(ctx, &st); err != nil {
			failed = err
			return false
		}
		return st.Status != "finished"
	})
	if failed != nil {
		return failed
	}
	return err
}

// step brings the engine up to date with st and moves when it is our turn.
func (g *game) step(ctx context.Context, st *state) error {
	if g.eng == nil {
		if err := g.start(ctx, st); err != nil || g.eng == nil {
			return err
		}
	} else if m := st.LastMove; m != nil && (g.last == nil || *m != *g.last) {
		if err := g.played(*m); err != nil {
			return err
		}
	}
	if st.Status != "playing" || st.Turn == nil || *st.Turn != g.seat || g.asked == g.plies {
		return nil
	}
	g.asked = g.plies
	return g.move(ctx, st)
}

// start starts the engine for the game of the stream's first (full) state.
func (g *game) start(ctx context.Context, st *state) error {
	g.seat = -1
	for _, p := range st.Players {
		if p.ID == g.me {
			g.seat = p.Seat
		}
	}
	if g.seat < 0 {
		return fmt.Errorf("not seated in room %s", g.room)
	}
	n, err := strconv.Atoi(st.Variant)
	if st.Game != "go" || err != nil {
		g.log.Printf("%s: %s %s is not go; leaving it", g.room, st.Game, st.Variant)
		return errors.New("not a go game")
	}
	if len(st.Moves) == 0 && slices.ContainsFunc(st.Board, func(row string) bool { return strings.Trim(row, ".") != "" }) {
		g.log.Printf("%s: a set-up position; resigning", g.room)
		return g.c.post(ctx, g.path("/resign"))
	}
	args := strings.Fields(g.engine)
	if len(args) == 0 {
		return errors.New("no engine command")
	}
	if g.eng, err = gtp.Start(args[0], args[1:]...); err != nil {
		return err
	}
	g.n = n
	for _, cmd := range [][]string{{"boardsize", st.Variant}, {"clear_board"}, {"komi", "0.5"}} {
		if _, err := g.eng.Command(cmd[0], cmd[1:]...); err != nil {
			return err
		}
	}
	for _, m := range st.Moves {
		if err := g.played(m); err != nil {
			return err
		}
	}
	g.log.Printf("%s: playing %s on go %dx%d", g.room, g.colors[g.seat], n, n)
	return nil
}

// played puts a move of the room on the engine's board, unless the engine
// generated it (it is there already).
func (g *game) played(m move) error {
	g.plies++
	g.last = &m
	if m.Seat == g.seat && g.asked == g.plies-1 {
		return nil // ours: genmove (or the pass that replaced it) put it there
	}
	vertex, err := gtp.ToGTP(m.Move, g.n)
	if err != nil {
		return err
	}
	_, err = g.eng.Command("play", g.colors[m.Seat], vertex)
	return err
}

// move asks the engine for a move and plays it.
func (g *game) move(ctx context.Context, st *state) error {
	vertex, err := g.eng.Command("genmove", g.colors[g.seat])
	if err != nil {
		return err
	}
	if strings.EqualFold(vertex, "resign") {
		return g.c.post(ctx, g.path("/resign"))
	}
	mv, err := gtp.FromGTP(vertex, g.n)
	if err != nil {
		return fmt.Errorf("genmove answered %q: %w", vertex, err)
	}
	if !slices.Contains(st.Legal, mv) {
		// Our rules refuse it (superko): take it back, pass instead.
		if _, err := g.eng.Command("undo"); err != nil {
			return err
		}
		if _, err := g.eng.Command("play", g.colors[g.seat], "pass"); err != nil {
			return err
		}
		mv = "pass"
	}
	err = g.c.post(ctx, g.path("/move/"+url.PathEscape(mv)))
	var ae *apiError
	if errors.As(err, &ae) && (ae.Code == "game_over" || ae.Code == "not_your_turn") {
		return nil // the game ended (time, a resignation) as we thought
	}
	return err
}
