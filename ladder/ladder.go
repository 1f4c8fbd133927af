// Package ladder is the bot ladder: bot accounts entered in a rating pool
// (ratings.Store's JoinLadder) play each other on their own, rated, while
// their event stream is open. One goroutine (Ladder.run) pairs them every
// Config.Every: in each pool, the entrants that are online, not paused and
// under their limit of unfinished games, nearest in rating first, never the
// same two back to back when another opponent is free, at most Config.Games
// ladder games at once, each with the pool's clock (Clock), the first move
// shared evenly between two bots that meet again (Seats), through
// rooms.Manager.Create like every room made for players.
//
// A bot that loses Config.PauseAfter games in a row by a fault of its own
// (on time, by bot_error, abandoned, or aborted because its first move
// never came) is paused: it is not paired again until its event stream
// opens again (StreamOpened, or seen gone and back at a round).
//
// The goroutine owns every piece of the ladder's state (the games it made
// and runs, each bot's last opponent, streaks, pauses) and publishes what
// the board shows (View) as an immutable value after each round. With
// several nodes only the node that holds the ladder's lease (Config.Lead)
// pairs; a node that takes it over (its holder died) starts with no
// streaks, pauses or games of its own: until the games the old holder made
// end, up to twice Config.Games ladder games may run.
package ladder

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Defaults of Config.
const (
	// DefaultGames is how many ladder games may be played at once, in
	// every pool together (cmd/lobby's -ladder-games).
	DefaultGames = 8
	// DefaultPerBot is how many unfinished games (ladder or not) a bot
	// may hold and still be paired: one ladder game begins only for a bot
	// with fewer.
	DefaultPerBot = 2
	// DefaultEvery is the time between two rounds of pairing.
	DefaultEvery = 5 * time.Second
	// DefaultPauseAfter is how many faults in a row pause a bot.
	DefaultPauseAfter = 3
	// Neighbours is how many entrants on each side of a bot, in rating
	// order, a round considers as its opponent: the pairs a round weighs
	// grow with the entrants, not with their square.
	Neighbours = 8
	// MaxEntrants bounds the entrants of one pool a round or a board
	// reads (the store's order, by id): past it, the others wait.
	MaxEntrants = 500
)

// Store is what the ladder reads and writes of the store (store.Store
// implements it).
type Store interface {
	Rating(ctx context.Context, pool, id string) (ratings.Rating, error)
	JoinLadder(ctx context.Context, pool, id string) error
	LeaveLadder(ctx context.Context, pool, id string) error
	Ladder(ctx context.Context, pool string) ([]string, error)
	// PlayerRooms are a player's unfinished rooms: a bot's limit, and how
	// the ladder learns that one of its games finished.
	PlayerRooms(ctx context.Context, id string) ([]string, error)
	// PlayerNames names the entrants that are not online (the board).
	PlayerNames(ctx context.Context, ids []string) (map[string]string, error)
}

// Records reads a finished game's record (store.Records implements it).
type Records interface {
	Record(ctx context.Context, room string) ([]byte, error)
}

// Creator makes rooms (rooms.Manager).
type Creator interface {
	Create(ctx context.Context, spec rooms.Spec) (*rooms.Room, error)
}

// Config is the ladder's wiring and limits; zero limits take the defaults.
type Config struct {
	Catalog *engine.Catalog
	Store   Store
	Records Records
	Rooms   Creator
	// Online lists the bot accounts whose event stream is open, on this
	// node or another.
	Online func() []protocol.BotInfo
	// Lead reports whether this node runs the ladder now (with several
	// nodes, the holder of the ladder's lease); nil: always.
	Lead func(ctx context.Context) bool
	// Games bounds the ladder's games at once (DefaultGames); PerBot a
	// bot's unfinished games (DefaultPerBot); PauseAfter the faults in a
	// row that pause a bot (DefaultPauseAfter).
	Games, PerBot, PauseAfter int
	// Every is the time between rounds (DefaultEvery).
	Every time.Duration
	// Clock, when not nil, is every ladder game's time control instead
	// of its pool's (Clock): tests play with short clocks.
	Clock *protocol.TimeControl
	// Rated makes the ladder's games rated (the wiring sets it; a test of
	// the pairing alone may not).
	Rated bool
	Log   *zap.Logger
}

// Clocks are the pools' time controls, by game (every variant of a game
// the same), and for one pool, go's by board size. A pool without one
// (2048's race: both seats move at once) plays without a clock.
var (
	gameClocks = map[string]protocol.TimeControl{
		"orbito": {Base: 60, Increment: 1},
		"morris": {Base: 120, Increment: 2},
		"queens": {Base: 120, Increment: 2},
	}
	goClocks = map[string]protocol.TimeControl{
		"9":  {Base: 120, Increment: 2},
		"13": {Base: 300, Increment: 3},
		"19": {Base: 600, Increment: 5},
	}
)

// Clock is the pool's default time control for a ladder game: orbito 60 s
// + 1 s a move, morris and queens 120 s + 2 s, go 9x9 120 s + 2 s, 13x13
// 300 s + 3 s, 19x19 600 s + 5 s; nil for a game whose seats move at once
// (2048's race).
func Clock(game, variant string) *protocol.TimeControl {
	if game == "go" {
		if tc, ok := goClocks[variant]; ok {
			return &tc
		}
		tc := goClocks["19"]
		return &tc
	}
	if tc, ok := gameClocks[game]; ok {
		return &tc
	}
	return nil
}

// Entry is one bot on a pool's board (GET /api/ladder/{game}/{variant}).
type Entry struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Rating int     `json:"rating"`
	RD     float64 `json:"rd"`
	// Low and High are the rating less and plus two deviations: where the
	// bot's strength lies with 95% confidence.
	Low         int  `json:"low"`
	High        int  `json:"high"`
	Games       int  `json:"games"`
	Provisional bool `json:"provisional"`
	Online      bool `json:"online"`
	Paused      bool `json:"paused"`
	// Streak is the bot's faults in a row (losses on time, by bot_error,
	// abandoned, aborted for want of its first move).
	Streak int `json:"streak"`
}

// Board is a pool's ladder, best first.
type Board struct {
	Pool string  `json:"pool"`
	Bots []Entry `json:"bots"`
}

// Ladder runs the bot ladder. Its exported methods are safe for concurrent
// use.
type Ladder struct {
	cfg Config
	log *zap.Logger

	view   atomic.Pointer[view] // what the board shows of the goroutine's state
	opened chan string          // bots whose event stream opened (StreamOpened)
	poke   chan struct{}        // a ladder game ended: a round now
	quit   chan struct{}
	done   chan struct{}
	stop   sync.Once

	// The goroutine's state (run): no lock, nobody else touches it.
	games   map[string]*game     // the ladder's games not finished, by room
	last    map[string]string    // each bot's opponent in its last ladder game
	first   map[[2]string]string // each pair's bot that moved first in its last game (pairKey)
	balance map[string]int       // each bot's first moves less its second ones
	streak  map[string]int
	paused  map[string]bool
	away    map[string]bool // a paused bot seen offline since its pause
	turn    int             // rotates the pools' order between rounds
	rounds  int64           // rounds run, led or not
	leading bool
}

// game is one ladder game under way.
type game struct {
	pool string
	bots [2]string // in seat order
}

// view is the goroutine's state as the board shows it: immutable once
// published.
type view struct {
	streak map[string]int
	paused map[string]bool
	games  int
	rounds int64
}

// New makes the ladder; Start runs its goroutine.
func New(cfg Config) *Ladder {
	if cfg.Games <= 0 {
		cfg.Games = DefaultGames
	}
	if cfg.PerBot <= 0 {
		cfg.PerBot = DefaultPerBot
	}
	if cfg.PauseAfter <= 0 {
		cfg.PauseAfter = DefaultPauseAfter
	}
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	l := &Ladder{cfg: cfg, log: cfg.Log, opened: make(chan string, 64), poke: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{}),
		games: map[string]*game{}, last: map[string]string{}, streak: map[string]int{},
		first: map[[2]string]string{}, balance: map[string]int{},
		paused: map[string]bool{}, away: map[string]bool{}}
	l.view.Store(&view{})
	return l
}

// Start runs the ladder's goroutine until Shutdown.
func (l *Ladder) Start() { go l.run() }

// Shutdown stops the goroutine (a round under way finishes first) and
// waits for it, or for ctx.
func (l *Ladder) Shutdown(ctx context.Context) error {
	l.stop.Do(func() { close(l.quit) })
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("ladder shutdown: %w", ctx.Err())
	}
}

// StreamOpened tells the ladder that a bot's event stream opened (on this
// node): a paused bot plays again. It never blocks: when many open at once
// the rest are seen at the next round (gone, then back).
func (l *Ladder) StreamOpened(id string) {
	select {
	case l.opened <- id:
	default:
	}
}

// GameEnded is the rooms' OnGame listener: a ladder game that ends makes
// the next round come at once (its bots are free again). It never blocks.
func (l *Ladder) GameEnded(ev rooms.GameEvent) {
	if ev.Status != rooms.StatusFinished || ev.Again {
		return
	}
	n := 0
	for _, p := range ev.Players {
		if p.BotAccount {
			n++
		}
	}
	if n < 2 {
		return
	}
	select {
	case l.poke <- struct{}{}:
	default:
	}
}

// Errors of Join and Leave, for the HTTP API's answers.
var (
	// ErrNoPool: the game's variant has no rating pool (one seat) or is
	// not in the catalog.
	ErrNoPool = errors.New("no rating pool")
	// ErrNotBot: only bot accounts play on the ladder.
	ErrNotBot = errors.New("only bot accounts play on the ladder")
)

// Pool returns the rating pool of a game's variant in the catalog, or an
// error wrapping ErrNoPool.
func (l *Ladder) Pool(game, variant string) (string, error) {
	_, v, perr := rooms.GameVariant(l.cfg.Catalog, game, variant)
	if perr != nil {
		return "", fmt.Errorf("%w: %s", ErrNoPool, perr.Msg)
	}
	pool, ok := ratings.Pool(game, variant, v.Seats)
	if !ok {
		return "", fmt.Errorf("%w: %s %s has one seat, so no ladder", ErrNoPool, game, variant)
	}
	return pool, nil
}

// Join enters bot id in the ladder of game's variant and returns the pool.
func (l *Ladder) Join(ctx context.Context, id, game, variant string) (string, error) {
	if !players.IsBotID(id) {
		return "", ErrNotBot
	}
	pool, err := l.Pool(game, variant)
	if err != nil {
		return "", err
	}
	if err := l.cfg.Store.JoinLadder(ctx, pool, id); err != nil {
		return "", fmt.Errorf("join the ladder of %s: %w", pool, err)
	}
	return pool, nil
}

// Leave takes bot id out of the ladder of game's variant (its games under
// way go on) and returns the pool.
func (l *Ladder) Leave(ctx context.Context, id, game, variant string) (string, error) {
	if !players.IsBotID(id) {
		return "", ErrNotBot
	}
	pool, err := l.Pool(game, variant)
	if err != nil {
		return "", err
	}
	if err := l.cfg.Store.LeaveLadder(ctx, pool, id); err != nil {
		return "", fmt.Errorf("leave the ladder of %s: %w", pool, err)
	}
	return pool, nil
}

// Board is the ladder of game's variant: its entrants (at most
// MaxEntrants), best first, with their rating, its uncertainty, whether
// they are online and paused, and their streak of faults.
func (l *Ladder) Board(ctx context.Context, game, variant string) (Board, error) {
	pool, err := l.Pool(game, variant)
	if err != nil {
		return Board{}, err
	}
	ids, err := l.cfg.Store.Ladder(ctx, pool)
	if err != nil {
		return Board{}, fmt.Errorf("ladder %s: %w", pool, err)
	}
	if len(ids) > MaxEntrants {
		ids = ids[:MaxEntrants]
	}
	online := l.online()
	v := l.view.Load()
	b := Board{Pool: pool, Bots: make([]Entry, 0, len(ids))}
	var unnamed []string
	for _, id := range ids {
		r, err := l.cfg.Store.Rating(ctx, pool, id)
		if err != nil {
			return Board{}, fmt.Errorf("rating of %s in %s: %w", id, pool, err)
		}
		name, on := online[id]
		if !on {
			unnamed = append(unnamed, id)
		}
		b.Bots = append(b.Bots, Entry{ID: id, Name: name, Rating: r.Shown(), RD: round1(r.Deviation),
			Low: ratings.Rating{Rating: r.Rating - 2*r.Deviation}.Shown(), High: ratings.Rating{Rating: r.Rating + 2*r.Deviation}.Shown(),
			Games: r.Games, Provisional: r.Provisional(), Online: on, Paused: v.paused[id], Streak: v.streak[id]})
	}
	for len(unnamed) > 0 {
		n := min(len(unnamed), players.MaxNameLookups)
		names, err := l.cfg.Store.PlayerNames(ctx, unnamed[:n])
		if err != nil {
			return Board{}, fmt.Errorf("names on the ladder of %s: %w", pool, err)
		}
		for i := range b.Bots {
			if nm, ok := names[b.Bots[i].ID]; ok && b.Bots[i].Name == "" {
				b.Bots[i].Name = nm
			}
		}
		unnamed = unnamed[n:]
	}
	slices.SortStableFunc(b.Bots, func(x, y Entry) int {
		if x.Rating != y.Rating {
			return y.Rating - x.Rating
		}
		if x.RD != y.RD {
			if x.RD < y.RD {
				return -1
			}
			return 1
		}
		return 0
	})
	return b, nil
}

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// Playing is how many ladder games this node's ladder runs now.
func (l *Ladder) Playing() int { return l.view.Load().games }

// Rounds is how many rounds the goroutine has run (published after each):
// a test waits for rounds to pass instead of for time.
func (l *Ladder) Rounds() int64 { return l.view.Load().rounds }

// online is the bots online, by id, with their names.
func (l *Ladder) online() map[string]string {
	out := map[string]string{}
	if l.cfg.Online == nil {
		return out
	}
	for _, b := range l.cfg.Online() {
		out[b.ID] = b.Name
	}
	return out
}

// run is the ladder's goroutine: a round every Config.Every, or at once
// when a ladder game ended, until Shutdown.
func (l *Ladder) run() {
	defer close(l.done)
	t := time.NewTicker(l.cfg.Every)
	defer t.Stop()
	l.round()
	for {
		select {
		case <-l.quit:
			return
		case id := <-l.opened:
			l.resume(id)
			l.publish()
			continue
		case <-l.poke:
		case <-t.C:
		}
		l.round()
	}
}

// resume ends a bot's pause (its event stream opened again), and its
// streak with it. A bot not paused keeps its streak: one that crashes in
// every game and is started again each time is still paused after
// Config.PauseAfter of them.
func (l *Ladder) resume(id string) {
	if !l.paused[id] {
		return
	}
	l.log.Info("ladder: bot back", zap.String("bot", id))
	delete(l.paused, id)
	delete(l.away, id)
	delete(l.streak, id)
}

// roundTimeout bounds one round's store calls and rooms' making.
const roundTimeout = 30 * time.Second

// round is one round: the ladder's finished games read, pauses ended,
// then the pools' free bots paired.
func (l *Ladder) round() {
	ctx, cancel := context.WithTimeout(context.Background(), roundTimeout)
	defer cancel()
	defer l.publish()
	l.rounds++
	if l.cfg.Lead != nil {
		lead := l.cfg.Lead(ctx)
		if lead != l.leading {
			l.log.Info("ladder: lead", zap.Bool("lead", lead))
		}
		l.leading = lead
		if !lead {
			return
		}
	}
	l.forget()
	online := l.online()
	for id := range l.paused {
		if _, on := online[id]; !on {
			l.away[id] = true
		} else if l.away[id] {
			l.resume(id)
		}
	}
	held := held{store: l.cfg.Store, rooms: map[string][]string{}}
	l.finished(ctx, held)
	if len(l.games) >= l.cfg.Games {
		return
	}
	pools := l.pools()
	if len(pools) == 0 {
		return
	}
	l.turn = (l.turn + 1) % len(pools)
	for i := range pools {
		if len(l.games) >= l.cfg.Games || ctx.Err() != nil {
			return
		}
		l.pair(ctx, pools[(l.turn+i)%len(pools)], online, held)
	}
}

// maxRemembered bounds the bots whose last opponent and streak the ladder
// keeps: past it, those of bots neither paused nor playing are let go.
const maxRemembered = 10000

// forget keeps the maps of bots bounded.
func (l *Ladder) forget() {
	if len(l.first) > maxRemembered || len(l.balance) > maxRemembered {
		clear(l.first)
		clear(l.balance)
	}
	if len(l.last) <= maxRemembered && len(l.streak) <= maxRemembered {
		return
	}
	playing := map[string]bool{}
	for _, g := range l.games {
		playing[g.bots[0]], playing[g.bots[1]] = true, true
	}
	for id := range l.last {
		if !playing[id] {
			delete(l.last, id)
		}
	}
	for id := range l.streak {
		if !l.paused[id] {
			delete(l.streak, id)
		}
	}
}

// finished reads the end of the ladder's games that left their first
// bot's unfinished rooms: the faults that count toward a pause.
func (l *Ladder) finished(ctx context.Context, held held) {
	for room, g := range l.games {
		ids, err := held.of(ctx, g.bots[0])
		if err != nil {
			l.log.Warn("ladder: rooms", zap.Error(err))
			return
		}
		if slices.Contains(ids, room) {
			continue
		}
		delete(l.games, room)
		data, err := l.cfg.Records.Record(ctx, room)
		if err != nil {
			l.log.Warn("ladder: a finished game's record", zap.String("room", room), zap.Error(err))
			continue
		}
		rec, err := records.Decode(data)
		if err != nil || rec.Result == nil {
			l.log.Warn("ladder: a finished game's record", zap.String("room", room), zap.Error(err))
			continue
		}
		fault := Fault(rec.Result.Winner, rec.Result.Reason, len(rec.Moves))
		for seat, id := range g.bots {
			if seat == fault {
				l.streak[id]++
				if l.streak[id] >= l.cfg.PauseAfter && !l.paused[id] {
					l.paused[id] = true
					l.log.Info("ladder: bot paused", zap.String("bot", id), zap.Int("faults", l.streak[id]))
				}
			} else if !l.paused[id] {
				delete(l.streak, id)
			}
		}
	}
}

// Fault is the seat whose own fault ended a game (-1 none): the loser on
// time (rooms.ReasonTimeout), by an error of its program
// (rooms.ReasonBotError) or abandoned (rooms.ReasonAbandoned); and for a
// game aborted because a first move never came (rooms.ReasonAborted), the
// seat whose first move it was (moves plies were played: 0 or 1).
func Fault(winner int, reason string, moves int) int {
	switch reason {
	case rooms.ReasonTimeout, rooms.ReasonBotError, rooms.ReasonAbandoned:
		if winner == 0 || winner == 1 {
			return 1 - winner
		}
	case rooms.ReasonAborted:
		if moves < 2 {
			return moves
		}
	}
	return -1
}

// pools are the catalog's rating pools: every two-seat variant, by game
// and variant.
func (l *Ladder) pools() [][2]string {
	var out [][2]string
	for _, info := range l.cfg.Catalog.Infos() {
		for _, v := range info.Variants {
			if _, ok := ratings.Pool(info.ID, v.ID, v.Seats); ok {
				out = append(out, [2]string{info.ID, v.ID})
			}
		}
	}
	return out
}

// candidate is a bot a round may pair.
type candidate struct {
	id, name string
	rating   float64
}

// pair makes the pool's games of this round.
func (l *Ladder) pair(ctx context.Context, gv [2]string, online map[string]string, held held) {
	pool, _ := ratings.Pool(gv[0], gv[1], 2)
	ids, err := l.cfg.Store.Ladder(ctx, pool)
	if err != nil {
		l.log.Warn("ladder: entrants", zap.String("pool", pool), zap.Error(err))
		return
	}
	if len(ids) > MaxEntrants {
		ids = ids[:MaxEntrants]
	}
	var cands []candidate
	for _, id := range ids {
		name, on := online[id]
		if !on || l.paused[id] {
			continue
		}
		rs, err := held.of(ctx, id)
		if err != nil {
			l.log.Warn("ladder: rooms", zap.Error(err))
			return
		}
		if len(rs) >= l.cfg.PerBot {
			continue
		}
		r, err := l.cfg.Store.Rating(ctx, pool, id)
		if err != nil {
			l.log.Warn("ladder: rating", zap.String("pool", pool), zap.Error(err))
			return
		}
		cands = append(cands, candidate{id: id, name: name, rating: r.Rating})
	}
	for _, p := range Pairs(cands, l.last) {
		if len(l.games) >= l.cfg.Games {
			return
		}
		l.start(ctx, gv, pool, p, held)
	}
}

// Pairs pairs bots of near rating: each bot at most once, the closest
// pairs first among each bot's Neighbours on either side in rating order;
// a pair whose bots played each other last (last[a] == b or last[b] == a)
// comes after every other pair, so it is made only when neither has
// another opponent left.
func Pairs(cands []candidate, last map[string]string) [][2]candidate {
	c := slices.Clone(cands)
	slices.SortFunc(c, func(x, y candidate) int {
		switch {
		case x.rating < y.rating:
			return -1
		case x.rating > y.rating:
			return 1
		}
		if x.id < y.id {
			return -1
		}
		return 1
	})
	type edge struct {
		i, j   int
		again  bool
		spread float64
	}
	var edges []edge
	for i := range c {
		for j := i + 1; j < len(c) && j <= i+Neighbours; j++ {
			again := last[c[i].id] == c[j].id || last[c[j].id] == c[i].id
			edges = append(edges, edge{i, j, again, c[j].rating - c[i].rating})
		}
	}
	slices.SortStableFunc(edges, func(x, y edge) int {
		if x.again != y.again {
			if y.again {
				return -1
			}
			return 1
		}
		switch {
		case x.spread < y.spread:
			return -1
		case x.spread > y.spread:
			return 1
		}
		return 0
	})
	taken := make([]bool, len(c))
	var out [][2]candidate
	for _, e := range edges {
		if taken[e.i] || taken[e.j] {
			continue
		}
		if e.again && hasOther(c, taken, e.i, e.j, last) {
			continue
		}
		taken[e.i], taken[e.j] = true, true
		out = append(out, [2]candidate{c[e.i], c[e.j]})
	}
	return out
}

// hasOther reports whether the repeated pair i, j has a free bot besides
// themselves that either could play (within Neighbours): then the pair
// waits for a later round rather than play again at once.
func hasOther(c []candidate, taken []bool, i, j int, last map[string]string) bool {
	for _, a := range []int{i, j} {
		for k := max(0, a-Neighbours); k < len(c) && k <= a+Neighbours; k++ {
			if k != i && k != j && !taken[k] && last[c[k].id] != c[a].id && last[c[a].id] != c[k].id {
				return true
			}
		}
	}
	return false
}

// Seats orders a ladder game's two bots: the one that moved first in the
// pair's last game moves second now (first is that bot, "" for none), so
// that two bots meeting again share the first move evenly, as a
// tournament's pairs do; a pair's first game takes the bot that moved
// first less often so far (balance: firsts less seconds), else either at
// random (coin).
func Seats(a, b string, first string, balance map[string]int, coin bool) [2]string {
	switch {
	case first == a:
		return [2]string{b, a}
	case first == b:
		return [2]string{a, b}
	case balance[a] < balance[b]:
		return [2]string{a, b}
	case balance[b] < balance[a], coin:
		return [2]string{b, a}
	}
	return [2]string{a, b}
}

// pairKey names a pair of bots whatever their order.
func pairKey(a, b string) [2]string { return [2]string{min(a, b), max(a, b)} }

// start makes one ladder game, the seats as Seats orders them.
func (l *Ladder) start(ctx context.Context, gv [2]string, pool string, p [2]candidate, held held) {
	key := pairKey(p[0].id, p[1].id)
	if order := Seats(p[0].id, p[1].id, l.first[key], l.balance, rand.IntN(2) == 1); order[0] != p[0].id {
		p[0], p[1] = p[1], p[0]
	}
	clock := l.cfg.Clock
	if clock == nil {
		clock = Clock(gv[0], gv[1])
	}
	spec := rooms.Spec{ID: rooms.NewID(), Game: gv[0], Variant: gv[1], Clock: clock,
		Seats: []players.Player{players.Of(p[0].id, p[0].name), players.Of(p[1].id, p[1].name)}}
	spec = rated(spec, l.cfg.Rated)
	if _, err := l.cfg.Rooms.Create(ctx, spec); err != nil {
		lvl := zap.WarnLevel
		if errors.Is(err, rooms.ErrTooManyRooms) {
			lvl = zap.DebugLevel
		}
		l.log.Log(lvl, "ladder: a game refused", zap.String("pool", pool), zap.Error(err))
		return
	}
	id := spec.ID
	l.games[id] = &game{pool: pool, bots: [2]string{p[0].id, p[1].id}}
	l.last[p[0].id], l.last[p[1].id] = p[1].id, p[0].id
	l.first[key] = p[0].id
	l.balance[p[0].id]++
	l.balance[p[1].id]--
	held.add(id, p[0].id, p[1].id)
	l.log.Info("ladder: game", zap.String("room", id), zap.String("pool", pool),
		zap.String("a", p[0].name), zap.String("b", p[1].name))
}

// held is the bots' unfinished rooms as one round reads them (each bot's
// once) and adds to them.
type held struct {
	store Store
	rooms map[string][]string
}

func (h held) of(ctx context.Context, id string) ([]string, error) {
	if ids, ok := h.rooms[id]; ok {
		return ids, nil
	}
	ids, err := h.store.PlayerRooms(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("rooms of %s: %w", id, err)
	}
	h.rooms[id] = ids
	return ids, nil
}

// add counts a room the round made among its bots' rooms.
func (h held) add(room string, bots ...string) {
	for _, b := range bots {
		h.rooms[b] = append(h.rooms[b], room)
	}
}

// publish makes what the board shows of the goroutine's state.
func (l *Ladder) publish() {
	v := &view{streak: make(map[string]int, len(l.streak)), paused: make(map[string]bool, len(l.paused)), games: len(l.games),
		rounds: l.rounds}
	for id, n := range l.streak {
		v.streak[id] = n
	}
	for id := range l.paused {
		v.paused[id] = true
	}
	l.view.Store(v)
}
