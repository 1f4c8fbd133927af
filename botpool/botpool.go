// Package botpool runs bot turns off the room goroutines: a fixed number of
// workers take jobs from a bounded queue, each job with its own copy of the
// state, its own random source and a deadline. A bot that fails or overruns
// its deadline is replaced by a random legal move, and so is a job that
// waits in the queue past its deadline because every worker is held by a
// bot that has not returned yet: a game never stalls.
package botpool

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/metrics"
)

// ErrClosed is returned when the pool is closed.
var ErrClosed = errors.New("bot pool closed")

// ErrBusy is returned by TrySubmit when the queue is full.
var ErrBusy = errors.New("bot pool busy")

// Job is one bot turn.
type Job struct {
	Game  string
	Level string
	Bot   engine.Bot
	// State is the bot's own copy (a Clone); the bot may change it.
	State engine.State
	Seat  int
	// Seed seeds the bot's random source.
	Seed uint64
	// Timeout bounds the bot's thinking; 0 uses the pool's default.
	Timeout time.Duration
	// Done receives the result, on a worker goroutine. It must not block.
	Done func(Result)
}

// Result is a bot's answer.
type Result struct {
	Move string
	// Err is set when there was no move at all (no legal move).
	Err error
	// Fallback is true when the move is a random legal move because the
	// bot failed or ran out of time.
	Fallback bool
	Took     time.Duration
}

// Pool is a bounded worker pool for bot turns.
type Pool struct {
	jobs    chan *queued
	quit    chan struct{}
	wg      sync.WaitGroup
	timeout time.Duration
	log     *zap.Logger
	m       *metrics.Metrics
	once    sync.Once
}

// New starts workers goroutines with a queue of queue jobs. timeout is the
// default deadline of a bot turn.
func New(workers, queue int, timeout time.Duration, log *zap.Logger, m *metrics.Metrics) *Pool {
	if workers < 1 {
		workers = 1
	}
	if queue < 1 {
		queue = 1
	}
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if log == nil {
		log = zap.NewNop()
	}
	p := &Pool{jobs: make(chan *queued, queue), quit: make(chan struct{}), timeout: timeout, log: log, m: m}
	p.wg.Add(workers)
	for range workers {
		go p.worker()
	}
	return p
}

// TrySubmit queues a job without waiting; ErrBusy when the queue is full.
func (p *Pool) TrySubmit(j Job) error {
	select {
	case <-p.quit:
		return ErrClosed
	default:
	}
	q := p.newQueued(j)
	select {
	case p.jobs <- q:
		p.gauge(1)
		return nil
	case <-p.quit:
		q.drop()
		return ErrClosed
	default:
		q.drop()
		return ErrBusy
	}
}

// Submit queues a job, waiting for room in the queue until ctx ends.
func (p *Pool) Submit(ctx context.Context, j Job) error {
	q := p.newQueued(j)
	select {
	case p.jobs <- q:
		p.gauge(1)
		return nil
	case <-p.quit:
		q.drop()
		return ErrClosed
	case <-ctx.Done():
		q.drop()
		return ctx.Err()
	}
}

// Move runs one bot turn through the pool and waits for its answer (the
// stateless bot endpoint).
func (p *Pool) Move(ctx context.Context, j Job) (Result, error) {
	ch := make(chan Result, 1)
	j.Done = func(r Result) { ch <- r }
	if err := p.Submit(ctx, j); err != nil {
		return Result{}, err
	}
	select {
	case r := <-ch:
		return r, nil
	case <-p.quit:
		return Result{}, ErrClosed
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// Close stops the workers and waits for them. Queued jobs are dropped.
func (p *Pool) Close() {
	p.once.Do(func() { close(p.quit) })
	p.wg.Wait()
	for {
		select {
		case q := <-p.jobs:
			q.drop()
		default:
			return
		}
	}
}

// The life of a queued job: a worker starts it, or its watchdog answers it
// with a fallback when it is still queued at its deadline, or Close drops
// it. Whoever moves it out of jobQueued first owns the answer.
const (
	jobQueued int32 = iota
	jobStarted
	jobExpired
	jobDropped
)

// queued is a job in the queue, with its watchdog.
type queued struct {
	Job
	state atomic.Int32
	timer *time.Timer
}

// newQueued wraps j for the queue and arms its watchdog: at its deadline
// and grace, a job no worker has started is answered with a random legal
// move (its state is still untouched: no bot has it).
func (p *Pool) newQueued(j Job) *queued {
	if j.Timeout <= 0 {
		j.Timeout = p.timeout
	}
	q := &queued{Job: j}
	q.watch(p)
	return q
}

// drop takes a job that will never run out of the queue's life.
func (q *queued) drop() {
	q.state.CompareAndSwap(jobQueued, jobDropped)
	q.timer.Stop()
}

func (q *queued) watch(p *Pool) {
	q.timer = time.AfterFunc(q.Timeout+grace(q.Timeout), func() {
		if !q.state.CompareAndSwap(jobQueued, jobExpired) {
			return
		}
		p.log.Warn("bot turn waited past its deadline in the queue", zap.String("game", q.Game),
			zap.String("level", q.Level), zap.Duration("timeout", q.Timeout))
		res := fallback(q.State.Legal(q.Seat), rand.New(rand.NewPCG(q.Seed, q.Seed>>1)))
		res.Took = q.Timeout + grace(q.Timeout)
		p.observe(q.Job, res)
		if q.Done != nil {
			q.Done(res)
		}
	})
}

// grace is how long after its deadline a bot's answer is waited for.
func grace(timeout time.Duration) time.Duration {
	return max(timeout/4, 50*time.Millisecond)
}

func (p *Pool) gauge(d float64) {
	if p.m != nil {
		p.m.BotQueue.Add(d)
	}
}

func (p *Pool) worker() {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case q := <-p.jobs:
			p.gauge(-1)
			if q.state.CompareAndSwap(jobQueued, jobStarted) {
				q.timer.Stop()
				p.run(q.Job)
			}
		}
	}
}

type answer struct {
	move string
	err  error
}

// run plays one job. The bot runs on its own goroutine so that the answer
// can be given at the deadline, but the worker waits for the bot to return
// before taking the next job: the pool never runs more bots than workers.
func (p *Pool) run(j Job) {
	timeout := j.Timeout
	if timeout <= 0 {
		timeout = p.timeout
	}
	start := time.Now()
	deadline := start.Add(timeout)
	rng := rand.New(rand.NewPCG(j.Seed, j.Seed^0x9e3779b97f4a7c15))
	// The fallback has its own generator: after a timeout the bot may still
	// be drawing from rng on its goroutine.
	fallbackRng := rand.New(rand.NewPCG(j.Seed^0x9e3779b97f4a7c15, j.Seed))
	legal := j.State.Legal(j.Seat)
	ch := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			if r := recover(); r != nil {
				a = answer{err: fmt.Errorf("bot panic: %v", r)}
			}
			ch <- a
		}()
		a.move, a.err = j.Bot(j.State, j.Seat, rng, deadline)
	}()
	timer := time.NewTimer(timeout + grace(timeout))
	defer timer.Stop()
	var res Result
	select {
	case a := <-ch:
		res = Result{Move: a.move, Err: a.err}
		if a.err == nil && a.move == "" {
			res.Err = errors.New("bot gave no move")
		}
		if res.Err != nil {
			p.log.Warn("bot failed", zap.String("game", j.Game), zap.String("level", j.Level), zap.Error(res.Err))
			res = fallback(legal, fallbackRng)
		}
	case <-timer.C:
		p.log.Warn("bot timed out", zap.String("game", j.Game), zap.String("level", j.Level), zap.Duration("timeout", timeout))
		res = fallback(legal, fallbackRng)
		defer func() { <-ch }()
	case <-p.quit:
		<-ch
		return
	}
	res.Took = time.Since(start)
	p.observe(j, res)
	if j.Done != nil {
		j.Done(res)
	}
}

func (p *Pool) observe(j Job, res Result) {
	if p.m != nil {
		p.m.BotThink.WithLabelValues(j.Game, j.Level).Observe(res.Took.Seconds())
		if res.Fallback {
			p.m.BotFallback.WithLabelValues(j.Game, j.Level).Inc()
		}
	}
}

func fallback(legal []string, rng *rand.Rand) Result {
	if len(legal) == 0 {
		return Result{Err: errors.New("no legal move"), Fallback: true}
	}
	return Result{Move: legal[rng.IntN(len(legal))], Fallback: true}
}
