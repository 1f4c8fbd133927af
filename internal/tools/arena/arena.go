// Package arena plays bots against each other, and go bots against GNU Go,
// through the engine contract only (engine/games.Catalog and Game.Bot), so
// every level registered in a game's catalog plays without changes here.
// It prints its results as markdown tables; cmd/arena is its command line
// and docs/bots/arena.md its manual.
package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// GnuGoLevel is the name of the GNU Go opponent in Config.B.
const GnuGoLevel = "gnugo"

// DefaultGnuGoPath is where Debian's gnugo package installs GNU Go.
const DefaultGnuGoPath = gtp.GnuGo

// Config describes a match between two levels (or GNU Go), a solo run of a
// one-seat game, or a queens tournament.
type Config struct {
	// Game and Variant pick the game; Variant "" is the game's default (in a
	// tournament, every variant).
	Game, Variant string
	// A and B are the two levels; B is GnuGoLevel for GNU Go (go only) and
	// unused in one-seat games.
	A, B string
	// Games is the number of games; A and B swap seats every game.
	Games int
	// First is the index of the first game. Game i is the same game in any
	// run with the same seed (its chance, opening and bots' seeds depend on
	// i alone), so a long match can be played as several runs (-first 0
	// -games 50, then -first 50 -games 50, ...) that add up to one.
	First int
	// Seed fixes the games' chance, the bots' random sources and the
	// openings.
	Seed uint64
	// MoveTime is each bot's deadline per move.
	MoveTime time.Duration
	// Openings is the number of random legal plies played before the bots
	// take over; games 2k and 2k+1 share the opening with the seats swapped.
	Openings int
	// MaxPlies ends a game as a draw ("move_cap") after this many plies; 0
	// is 4 times the legal moves of the first position for two-seat games
	// (at least 200) and no cap for one-seat games.
	MaxPlies int
	// Parallel is the number of games played at the same time (default 1,
	// so that times per move are those of one core).
	Parallel int
	// Progress, when set, receives each game as it ends (from the goroutine
	// that played it), e.g. to print a line per game during long matches.
	Progress func(Game)
	// GnuGoPath and GnuGoLevel configure GNU Go (level 1..10).
	GnuGoPath  string
	GnuGoLevel int
}

// Side is one player's statistics over a match.
type Side struct {
	Level                  string
	Wins, Losses, Draws    int
	FirstW, FirstL, FirstD int // as the first player (seat 0)
	ScoreSum               float64
	Scored                 int
	Moves                  int
	Think                  time.Duration
	MaxThink               time.Duration
	Errors                 int // moves the player could not give (forfeits)
}

// Game is the result of one game of a match.
type Game struct {
	Index   int
	ASeat   int // the seat A played
	Winner  int // seat, -1 for a draw
	Reason  string
	Plies   int
	Scores  []float64 // per seat, nil when the game keeps no score
	MaxTile int       // the highest number on the board (2048), 0 otherwise
	// Referee is GNU Go's own count of the final position ("B+3.5"), and
	// RefereeAgrees whether its winner is ours; empty without GNU Go.
	Referee       string
	RefereeAgrees bool
	// Refused counts GNU Go moves our rules refused (superko), played as
	// passes.
	Refused int
	// Moves is the game's record, the opening included.
	Moves []string
	think [2]sideTime // by player: 0 is A, 1 is B
}

type sideTime struct {
	moves int
	total time.Duration
	max   time.Duration
}

// Match is the result of Run.
type Match struct {
	Config  Config
	Seats   int
	A, B    Side
	Games   []Game
	Elapsed time.Duration
	// Interrupted is set when the match was stopped before all its games.
	Interrupted bool
}

// player gives moves for one seat of a game.
type player interface {
	// move returns the player's move for seat in s, which it must not
	// change.
	move(s engine.State, seat, ply int) (string, error)
	// played tells the player that seat played move (its own moves too).
	played(seat int, move string) error
	close() error
}

// botPlayer is a catalog level.
type botPlayer struct {
	bot      engine.Bot
	seed     uint64
	moveTime time.Duration
}

func (p *botPlayer) move(s engine.State, seat, ply int) (string, error) {
	rng := rand.New(rand.NewPCG(p.seed, uint64(ply)))
	var deadline time.Time
	if p.moveTime > 0 {
		deadline = time.Now().Add(p.moveTime)
	}
	return p.bot(s.Clone(), seat, rng, deadline)
}

func (p *botPlayer) played(int, string) error { return nil }
func (p *botPlayer) close() error             { return nil }

// check validates the configuration against the catalog.
func (c *Config) check(cat *engine.Catalog) (engine.Game, engine.Variant, error) {
	g, ok := cat.Game(c.Game)
	if !ok {
		var ids []string
		for _, i := range cat.Infos() {
			ids = append(ids, i.ID)
		}
		return nil, engine.Variant{}, fmt.Errorf("unknown game %q (games: %s)", c.Game, strings.Join(ids, ", "))
	}
	info := g.Info()
	if c.Variant == "" {
		c.Variant = info.Variants[0].ID
	}
	v, ok := info.Variant(c.Variant)
	if !ok {
		var ids []string
		for _, v := range info.Variants {
			ids = append(ids, v.ID)
		}
		return nil, engine.Variant{}, fmt.Errorf("game %s has no variant %q (variants: %s)", c.Game, c.Variant, strings.Join(ids, ", "))
	}
	levels := []string{c.A}
	if v.Seats == 2 {
		levels = append(levels, c.B)
	}
	for _, l := range levels {
		if l == GnuGoLevel && c.Game == "go" {
			continue
		}
		if !info.HasLevel(l) {
			var ids []string
			for _, l := range info.Levels {
				ids = append(ids, l.ID)
			}
			extra := ""
			if c.Game == "go" {
				extra = ", " + GnuGoLevel
			}
			return nil, engine.Variant{}, fmt.Errorf("game %s has no level %q (levels: %s%s)", c.Game, l, strings.Join(ids, ", "), extra)
		}
	}
	if c.A == GnuGoLevel {
		return nil, engine.Variant{}, errors.New("GNU Go plays as -b only")
	}
	if c.Games < 1 {
		return nil, engine.Variant{}, fmt.Errorf("games = %d, want at least 1", c.Games)
	}
	if c.First < 0 {
		return nil, engine.Variant{}, fmt.Errorf("first = %d, want at least 0", c.First)
	}
	if c.Parallel < 1 {
		c.Parallel = 1
	}
	if c.GnuGoPath == "" {
		c.GnuGoPath = DefaultGnuGoPath
	}
	if c.B == GnuGoLevel && (c.GnuGoLevel < 0 || c.GnuGoLevel > 10) {
		return nil, engine.Variant{}, fmt.Errorf("gnugo level %d out of 0..10", c.GnuGoLevel)
	}
	return g, v, nil
}

// Run plays the match described by cfg with the games of cat. When ctx is
// cancelled it stops after the games in progress and returns the match of
// the finished games (Interrupted set) with an error.
func Run(ctx context.Context, cat *engine.Catalog, cfg Config) (*Match, error) {
	g, v, err := cfg.check(cat)
	if err != nil {
		return nil, err
	}
	m := &Match{Config: cfg, Seats: v.Seats, A: Side{Level: cfg.A}, B: Side{Level: cfg.B}}
	if v.Seats == 1 {
		m.B = Side{}
	}
	start := time.Now()
	games := make([]Game, cfg.Games)
	errs := make([]error, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	for range cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i], errs[i] = playOne(ctx, g, cfg, v, cfg.First+i)
				if errs[i] == nil && cfg.Progress != nil {
					cfg.Progress(games[i])
				}
			}
		}()
	}
feed:
	for i := range cfg.Games {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	m.Elapsed = time.Since(start)
	if err := ctx.Err(); err != nil {
		// Interrupted: the games that finished still make a table.
		for i, gm := range games {
			if errs[i] == nil && gm.Plies > 0 {
				m.Games = append(m.Games, gm)
				m.add(gm)
			}
		}
		m.Interrupted = true
		return m, fmt.Errorf("arena: interrupted after %d of %d games: %w", len(m.Games), cfg.Games, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m.Games = games
	for _, gm := range games {
		m.add(gm)
	}
	return m, nil
}

// add counts one game into the sides' statistics.
func (m *Match) add(gm Game) {
	sides := [2]*Side{&m.A, &m.B}
	for who, sd := range sides {
		if m.Seats == 1 && who == 1 {
			break
		}
		seat := gm.ASeat
		if who == 1 {
			seat = 1 - gm.ASeat
		}
		switch {
		case gm.Winner == seat:
			sd.Wins++
			if seat == 0 {
				sd.FirstW++
			}
		case gm.Winner == -1:
			sd.Draws++
			if seat == 0 {
				sd.FirstD++
			}
		default:
			sd.Losses++
			if seat == 0 {
				sd.FirstL++
			}
		}
		if gm.Scores != nil && seat < len(gm.Scores) {
			sd.ScoreSum += gm.Scores[seat]
			sd.Scored++
		}
		t := gm.think[who]
		sd.Moves += t.moves
		sd.Think += t.total
		sd.MaxThink = max(sd.MaxThink, t.max)
	}
}

// gameSeed is the seed of game i's chance and opening. In a game of two
// seats games 2k and 2k+1 share it, so both seat assignments meet the same
// opening and spawns; a one-seat game has no seats to swap, and each game
// gets its own (a deterministic bot would otherwise play every game twice).
func gameSeed(seed uint64, i, seats int) uint64 {
	k := uint64(i)
	if seats > 1 {
		k = uint64(i / 2)
	}
	return seed*0x9e3779b97f4a7c15 + k*0xbf58476d1ce4e5b9 + 1
}

// playOne plays game i: A takes seat i%2.
func playOne(ctx context.Context, g engine.Game, cfg Config, v engine.Variant, i int) (_ Game, retErr error) {
	gs := gameSeed(cfg.Seed, i, v.Seats)
	s, err := g.New(cfg.Variant, nil, gs)
	if err != nil {
		return Game{}, fmt.Errorf("game %d: %w", i, err)
	}
	gm := Game{Index: i, ASeat: i % 2, Winner: -1}
	if v.Seats == 1 {
		gm.ASeat = 0
	}
	players := make([]player, v.Seats) // by seat
	who := make([]int, v.Seats)        // by seat: 0 for A, 1 for B
	defer func() {
		for _, p := range players {
			if p == nil {
				continue
			}
			if cerr := p.close(); cerr != nil && retErr == nil {
				retErr = fmt.Errorf("game %d: %w", i, cerr)
			}
		}
	}()
	for seat := range v.Seats {
		level, w := cfg.A, 0
		if seat != gm.ASeat {
			level, w = cfg.B, 1
		}
		who[seat] = w
		if level == GnuGoLevel {
			gp, err := startGnuGo(cfg, s, seat, gs)
			if err != nil {
				return Game{}, fmt.Errorf("game %d: %w", i, err)
			}
			players[seat] = gp
			continue
		}
		bot, _ := g.Bot(level)
		players[seat] = &botPlayer{bot: bot, seed: gs ^ uint64(w+1)*0x94d049bb133111eb ^ uint64(i), moveTime: cfg.MoveTime}
	}
	apply := func(seat int, move string) error {
		if err := s.Apply(seat, move); err != nil {
			return err
		}
		gm.Moves = append(gm.Moves, move)
		for _, p := range players {
			if err := p.played(seat, move); err != nil {
				return err
			}
		}
		return nil
	}
	// The random opening.
	orng := rand.New(rand.NewPCG(gs, 0x6f70656e))
	for range cfg.Openings {
		seat, ok := s.Turn()
		if !ok {
			break
		}
		legal := s.Legal(seat)
		if len(legal) > 1 {
			// The list is the state's (engine.State): delete from a copy.
			legal = slices.DeleteFunc(slices.Clone(legal), func(m string) bool { return m == "pass" })
		}
		if err := apply(seat, legal[orng.IntN(len(legal))]); err != nil {
			return Game{}, fmt.Errorf("game %d opening: %w", i, err)
		}
		gm.Plies++
	}
	maxPlies := cfg.MaxPlies
	if maxPlies == 0 && v.Seats == 2 {
		if seat, ok := s.Turn(); ok {
			maxPlies = max(200, gm.Plies+4*len(s.Legal(seat)))
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return Game{}, err
		}
		seat, ok := s.Turn()
		if !ok {
			break
		}
		if maxPlies > 0 && gm.Plies >= maxPlies {
			gm.Reason = "move_cap"
			break
		}
		t0 := time.Now()
		move, err := players[seat].move(s, seat, gm.Plies)
		took := time.Since(t0)
		st := &gm.think[who[seat]]
		st.moves++
		st.total += took
		st.max = max(st.max, took)
		if err == nil {
			err = apply(seat, move)
		}
		if err != nil {
			// A player without a move, or with an illegal one, forfeits.
			var gerr *gnugoError
			if errors.As(err, &gerr) {
				return Game{}, fmt.Errorf("game %d: %w", i, err)
			}
			gm.Winner, gm.Reason = 1-seat, fmt.Sprintf("forfeit: %v", err)
			if v.Seats == 1 {
				gm.Winner = -1
			}
			break
		}
		gm.Plies++
	}
	if gm.Reason == "" {
		o := s.Outcome()
		gm.Winner, gm.Reason = o.Winner, o.Reason
	}
	gm.Scores = seatScores(s, v)
	gm.MaxTile = maxNumber(s.Board())
	for _, p := range players {
		if gp, ok := p.(*gnugoPlayer); ok {
			gm.Refused = gp.refused
			if gm.Reason == "two_passes" {
				gm.Referee, gm.RefereeAgrees, err = gp.referee(gm.Winner)
				if err != nil {
					return Game{}, fmt.Errorf("game %d: %w", i, err)
				}
			}
		}
	}
	return gm, nil
}

// seatScores reads State.Score as one number per seat: the keys are the
// seat numbers ("0", "1") or the first word of the seat names ("black").
func seatScores(s engine.State, v engine.Variant) []float64 {
	sc := s.Score()
	if sc == nil {
		return nil
	}
	raw, err := json.Marshal(sc)
	if err != nil {
		return nil
	}
	var byKey map[string]float64
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil
	}
	out := make([]float64, v.Seats)
	for seat := range v.Seats {
		val, ok := byKey[strconv.Itoa(seat)]
		if !ok && seat < len(v.SeatNames) {
			val, ok = byKey[strings.Fields(v.SeatNames[seat] + " ?")[0]]
		}
		if !ok {
			return nil
		}
		out[seat] = val
	}
	return out
}

// maxNumber is the largest number in a board view made of numbers (2048's
// rows), or 0 when the board holds none.
func maxNumber(board any) int {
	raw, err := json.Marshal(board)
	if err != nil {
		return 0
	}
	var rows [][]int
	if err := json.Unmarshal(raw, &rows); err != nil {
		return 0
	}
	best := 0
	for _, r := range rows {
		for _, x := range r {
			best = max(best, x)
		}
	}
	return best
}
