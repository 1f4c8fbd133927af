// Package rater applies finished games to the ratings: it listens to the
// rooms' game events (rooms.Config.OnGame) and, on its own goroutine, rates
// each finished rated game once (ratings.Store's Apply, by the room's id),
// tallies every finished game of accounts and bot accounts (won, drawn,
// lost), keeps 2048's best scores, and shows a rated game's changes in its
// room when the room runs here (rooms.Manager.PostRatings).
//
// A node that dies between the save that finishes a rated game and Apply
// leaves the game owed (the save marked it: store.RecordEntry.Rated): the
// rater drains the owed games at its start and every DrainEvery, reading
// each one's record, so that every rated game is applied exactly once.
package rater

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Defaults of Config.
const (
	DefaultQueue      = 1024
	DefaultDrainEvery = time.Minute
	DefaultTimeout    = 5 * time.Second
	// drainBatch is how many owed games one drain reads.
	drainBatch = 100
)

// Config configures a Rater.
type Config struct {
	// Store holds the ratings, the records and the players.
	Store store.Store
	// Post shows a rated game's changes in its room when it runs here
	// (rooms.Manager.PostRatings); nil shows nothing.
	Post func(room string, changes [2]ratings.Change) bool
	Log  *zap.Logger
	// Queue bounds the finished games waiting for the rater (default
	// DefaultQueue); past it a game's event is dropped, and a rated one
	// is applied by the next drain of the owed games.
	Queue int
	// DrainEvery is how often the owed games are drained (default
	// DefaultDrainEvery).
	DrainEvery time.Duration
	// Timeout bounds the store calls for one game (default
	// DefaultTimeout).
	Timeout time.Duration
}

// Rater is the ratings' updater: one goroutine, started by New, that owns
// nothing but its queue; Shutdown stops it.
type Rater struct {
	cfg   Config
	log   *zap.Logger
	queue chan game
	kick  chan struct{}
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
	// base ends at Shutdown: the store calls under way end with it.
	base   context.Context
	cancel context.CancelFunc
}

// game is a finished game to count: a room's event, or a record (drain).
type game struct {
	rec *records.Record
	// score is 2048's score of the one seat (solo), -1 for none.
	score int64
}

// New starts a rater. Its OnGame goes in rooms.Config.OnGame.
func New(cfg Config) *Rater {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.DrainEvery <= 0 {
		cfg.DrainEvery = DefaultDrainEvery
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	r := &Rater{cfg: cfg, log: cfg.Log, queue: make(chan game, cfg.Queue), kick: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	r.base, r.cancel = context.WithCancel(context.Background())
	go r.run()
	return r
}

// OnGame is the rooms' listener: a finished game with a result is queued,
// without blocking (a full queue drops it, and the owed games' drain makes
// up for a rated one).
func (r *Rater) OnGame(ev rooms.GameEvent) {
	if ev.Status != rooms.StatusFinished || ev.Result == nil {
		return
	}
	rec := &records.Record{Room: ev.Room, Game: ev.Game, Variant: ev.Variant, Status: records.StatusFinished,
		Rated: ev.Rated, Players: ev.Players, Started: ev.Started, Ended: ev.Ended,
		Result: &records.Result{Winner: -1, Reason: ev.Result.Reason}}
	if w := ev.Result.Winner; w != nil {
		rec.Result.Winner = *w
	}
	g := game{rec: rec, score: soloScore(ev)}
	select {
	case r.queue <- g:
	default:
		r.log.Warn("rater: queue full, game left to the drain", zap.String("room", ev.Room))
	}
}

// Drain asks the rater to drain the owed games now (tests; the rater does
// it at its start and every DrainEvery).
func (r *Rater) Drain() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Shutdown stops the rater: the game it is counting finishes, the queued
// ones are left (the rated ones are owed and drained at the next start).
// It waits until ctx ends.
func (r *Rater) Shutdown(ctx context.Context) error {
	r.once.Do(func() { close(r.stop); r.cancel() })
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Rater) run() {
	defer close(r.done)
	tick := time.NewTicker(r.cfg.DrainEvery)
	defer tick.Stop()
	r.drain()
	for {
		select {
		case <-r.stop:
			return
		case g := <-r.queue:
			r.count(g)
		case <-tick.C:
			r.drain()
		case <-r.kick:
			r.drain()
		}
	}
}

// ctx is a context for one game's store calls that ends with the rater.
func (r *Rater) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.base, r.cfg.Timeout)
}

// count counts one finished game: its tally, its rating, 2048's best.
func (r *Rater) count(g game) {
	ctx, cancel := r.ctx()
	defer cancel()
	rec := g.rec
	if _, ok := rec.RatedScore(); ok {
		if err := r.apply(ctx, rec); err != nil {
			r.log.Warn("rater: apply", zap.String("room", rec.Room), zap.Error(err))
		}
	}
	if err := r.tally(ctx, rec); err != nil {
		r.log.Warn("rater: tally", zap.String("room", rec.Room), zap.Error(err))
	}
	if g.score > 0 && len(rec.Players) == 1 {
		if err := r.best(ctx, rec.Players[0], g.score); err != nil {
			r.log.Warn("rater: best score", zap.String("room", rec.Room), zap.Error(err))
		}
	}
}

// apply rates a rated game once and shows its changes in its room.
func (r *Rater) apply(ctx context.Context, rec *records.Record) error {
	score, _ := rec.RatedScore()
	pool, ok := ratings.Pool(rec.Game, rec.Variant, len(rec.Players))
	if !ok {
		return errors.New("no rating pool")
	}
	g := ratings.Game{Room: rec.Room, Pool: pool, Score: score, Ended: rec.Ended}
	for i, p := range rec.Players {
		g.Sides[i] = ratings.Side{ID: p.ID, Name: p.Name, Bot: players.IsBotID(p.ID)}
	}
	ended := rec.Ended
	if ended.IsZero() {
		ended = time.Now()
	}
	changes, _, err := r.cfg.Store.Apply(ctx, g, func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) {
		return ratings.Update(a, b, score, ended)
	})
	if err != nil {
		return err
	}
	if r.cfg.Post != nil {
		r.cfg.Post(rec.Room, changes)
	}
	return nil
}

// tally counts a two-seat game with a result for its accounts and bot
// accounts (not guests, whose tallies nobody reads, nor the server's bots).
func (r *Rater) tally(ctx context.Context, rec *records.Record) error {
	res := rec.Result
	if res == nil || res.Reason == records.ReasonAborted || len(rec.Players) != 2 || rec.Started.IsZero() {
		return nil
	}
	outcomes := map[string]ratings.Outcome{}
	for i, p := range rec.Players {
		ok, err := r.account(ctx, p)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		switch res.Winner {
		case -1:
			outcomes[p.ID] = ratings.Drawn
		case i:
			outcomes[p.ID] = ratings.Won
		default:
			outcomes[p.ID] = ratings.Lost
		}
	}
	if len(outcomes) == 0 {
		return nil
	}
	return r.cfg.Store.Tally(ctx, rec.Room, outcomes)
}

// best raises the best 2048 score of an account or a bot account.
func (r *Rater) best(ctx context.Context, p players.Player, score int64) error {
	ok, err := r.account(ctx, p)
	if err != nil || !ok {
		return err
	}
	return r.cfg.Store.Best(ctx, p.ID, p.Name, score)
}

// account reports whether p is an account or a bot account.
func (r *Rater) account(ctx context.Context, p players.Player) (bool, error) {
	switch {
	case p.ID == "" || p.Bot != "":
		return false, nil
	case players.IsBotID(p.ID):
		return true, nil
	}
	id, err := r.cfg.Store.PlayerByID(ctx, p.ID)
	if errors.Is(err, players.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return id.Account(), nil
}

// drain applies the owed games: rated games whose end was saved and whose
// changes were not applied (a node died in between, or its queue was
// full). Each one's record says how it ended.
func (r *Rater) drain() {
	ctx, cancel := r.ctx()
	owed, err := r.cfg.Store.Owed(ctx, drainBatch)
	cancel()
	if err != nil {
		r.log.Warn("rater: owed games", zap.Error(err))
		return
	}
	for _, room := range owed {
		select {
		case <-r.stop:
			return
		default:
		}
		ctx, cancel := r.ctx()
		data, err := r.cfg.Store.Records().Record(ctx, room)
		cancel()
		if err != nil {
			r.log.Warn("rater: owed game's record", zap.String("room", room), zap.Error(err))
			continue
		}
		rec, err := records.Decode(data)
		if err != nil {
			r.log.Warn("rater: owed game's record", zap.String("room", room), zap.Error(err))
			continue
		}
		r.log.Info("rater: owed game", zap.String("room", room))
		r.count(game{rec: rec, score: -1})
	}
}

// soloScore is the score of a finished 2048 game alone, -1 for any other
// game.
func soloScore(ev rooms.GameEvent) int64 {
	if ev.Game != "2048" || ev.Variant != "solo" || len(ev.Players) != 1 {
		return -1
	}
	if m, ok := ev.Score.(map[string]int); ok {
		if s, ok := m["0"]; ok {
			return int64(s)
		}
	}
	return -1
}
