// Package botpool runs bot turns and analyses off the room goroutines: a
// fixed number of workers take jobs from bounded queues, one per class of
// work, each job with its own copy of the state, its own random source and a
// deadline that counts from the moment a worker starts it.
//
// The classes are served in strict priority: a turn of a bot in a live room
// (Live) before any move asked of the stateless endpoint (Stateless), and
// those before any analysis of a finished game (Analysis). The two lower
// classes together never hold every worker (one is kept for live turns when
// there are two or more), each has a bound on how many of its jobs run at
// once, and a job whose requester has gone (its context ended) leaves the
// queue without running. So a live room's bot waits only for other live
// rooms' bots, never for someone's HTTP requests or analyses.
//
// A bot that fails or overruns its deadline is replaced by a random legal
// move. A live turn still queued is given a random legal move only when
// every worker is held by a bot past its deadline (a bot that does not
// return: a table being built, say), so that a game never stalls; waiting
// behind other turns is load, and load never makes a bot play at random.
package botpool

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/metrics"
)

// ErrClosed is returned when the pool is closed.
var ErrClosed = errors.New("bot pool closed")

// ErrBusy is returned when the queue of the job's class is full.
var ErrBusy = errors.New("bot pool busy")

// Class is the priority class of a job.
type Class int

const (
	// Live is a turn of a bot seated in a live room: the zero value, and
	// the first served.
	Live Class = iota
	// Stateless is a move asked of the stateless endpoint
	// (POST /api/bot/move), served when no live turn waits.
	Stateless
	// Analysis is the analysis of a position (of a finished game, say),
	// served last.
	Analysis

	numClasses
)

// String returns the class's name, as the metrics label it.
func (c Class) String() string {
	switch c {
	case Live:
		return "live"
	case Stateless:
		return "stateless"
	case Analysis:
		return "analysis"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Job is one bot turn.
type Job struct {
	// Class is the job's priority class (default Live).
	Class Class
	Game  string
	Level string
	Bot   engine.Bot
	// State is the bot's own copy (a Clone); the bot may change it.
	State engine.State
	Seat  int
	// Seed seeds the bot's random source.
	Seed uint64
	// Timeout bounds the bot's thinking, from the moment a worker starts
	// it; 0 uses the pool's default.
	Timeout time.Duration
	// Done receives the result, on a pool goroutine. It must not block.
	Done func(Result)
}

// Result is a bot's answer.
type Result struct {
	Move string
	// Err is set when there was no move at all: no legal move, or the job
	// was dropped because its requester had gone (wrapping ctx's error).
	Err error
	// Fallback is true when the move is a random legal move because the
	// bot failed or ran out of time.
	Fallback bool
	Took     time.Duration
}

// Default bounds of the classes below Live (New's options change them).
const (
	// DefaultStatelessQueue is how many stateless moves may wait.
	DefaultStatelessQueue = 64
	// DefaultAnalysisQueue is how many analyses may wait.
	DefaultAnalysisQueue = 64
	// DefaultAnalysisRunning is how many analyses may run at once.
	DefaultAnalysisRunning = 1
)

// Option configures a Pool.
type Option func(*Pool)

// WithStateless bounds the stateless class: queue jobs may wait, running
// may run at once (default DefaultStatelessQueue, and every worker not kept
// for live turns). Values below 1 keep the default.
func WithStateless(queue, running int) Option {
	return func(p *Pool) { p.setClass(Stateless, queue, running) }
}

// WithAnalyses bounds the analysis class: queue jobs may wait, running may
// run at once (default DefaultAnalysisQueue and DefaultAnalysisRunning).
// Values below 1 keep the default.
func WithAnalyses(queue, running int) Option {
	return func(p *Pool) { p.setClass(Analysis, queue, running) }
}

// Pool is a bounded worker pool for bot turns and analyses.
type Pool struct {
	workers int
	// background is how many workers the classes below Live may hold
	// together: all but one when there are two or more.
	background int
	timeout    time.Duration
	log        *zap.Logger
	m          *metrics.Metrics
	quit       chan struct{} // closed by Close
	wg         sync.WaitGroup

	mu   sync.Mutex
	cond *sync.Cond // a job was queued, a worker freed a class's slot, or the pool closed
	// Guarded by mu:
	queues  [numClasses]list.List // of *task, oldest first
	limits  [numClasses]struct{ queue, running int }
	running [numClasses]int
	// overrun is how many workers are held by a job past its deadline and
	// grace.
	overrun int
	closed  bool
}

// New starts workers goroutines. queue bounds the live turns waiting for a
// worker; timeout is the default deadline of a bot turn.
func New(workers, queue int, timeout time.Duration, log *zap.Logger, m *metrics.Metrics, opts ...Option) *Pool {
	workers = max(workers, 1)
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if log == nil {
		log = zap.NewNop()
	}
	p := &Pool{workers: workers, background: max(1, workers-1), timeout: timeout, log: log, m: m,
		quit: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	p.limits[Live].queue, p.limits[Live].running = max(queue, 1), workers
	p.limits[Stateless].queue, p.limits[Stateless].running = DefaultStatelessQueue, p.background
	p.limits[Analysis].queue, p.limits[Analysis].running = DefaultAnalysisQueue, DefaultAnalysisRunning
	for _, o := range opts {
		o(p)
	}
	p.wg.Add(workers)
	for range workers {
		go p.worker()
	}
	return p
}

func (p *Pool) setClass(c Class, queue, running int) {
	if queue >= 1 {
		p.limits[c].queue = queue
	}
	if running >= 1 {
		p.limits[c].running = running
	}
}

// task is a job in a queue or on a worker. Its fields after the job's are
// guarded by the pool's mutex.
type task struct {
	Job
	// work is an analysis's function (Analyse); nil for a bot turn.
	work func(ctx context.Context, deadline time.Time) error
	// workDone receives work's error, or why it never ran.
	workDone chan error

	ctx   context.Context
	state taskState
	elem  *list.Element
	// stopCtx stops the callback that drops the task when ctx ends.
	stopCtx func() bool
	// watchdog: a live turn's check for workers that are all held (nil
	// for the other classes).
	watchdog *time.Timer
}

type taskState int

const (
	taskQueued taskState = iota
	taskStarted
	taskExpired // answered with a fallback while queued
	taskDropped // its requester went, or the pool closed
)

// TrySubmit queues a job without waiting; ErrBusy when its class's queue is
// full. The rooms' bot turns come this way.
func (p *Pool) TrySubmit(j Job) error {
	return p.Submit(context.Background(), j)
}

// Submit queues a job without waiting for room: ErrBusy when its class's
// queue is full. ctx is the requester's: when it ends before a worker starts
// the job, the job leaves the queue without running and Done gets a Result
// whose Err wraps ctx's error. A job already started runs to its answer.
func (p *Pool) Submit(ctx context.Context, j Job) error {
	if j.Timeout <= 0 {
		j.Timeout = p.timeout
	}
	return p.enqueue(ctx, &task{Job: j})
}

// Move runs one bot turn through the pool and waits for its answer (the
// stateless endpoint, with Class Stateless), or for ctx to end.
func (p *Pool) Move(ctx context.Context, j Job) (Result, error) {
	ch := make(chan Result, 1)
	j.Done = func(r Result) { ch <- r }
	if err := p.Submit(ctx, j); err != nil {
		return Result{}, err
	}
	select {
	case r := <-ch:
		if r.Err != nil && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return r, nil
	case <-p.quit:
		return Result{}, ErrClosed
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// Analyse runs f on a worker in the analysis class and waits for it. It
// starts after every live turn and stateless move waiting, and at most the
// class's running bound of analyses run at once (WithAnalyses). f gets ctx
// and its deadline, timeout after it starts (0: the pool's default), and
// must return by then: once started, Analyse waits for f and returns its
// error. When ctx ends before a worker starts f, f never runs and Analyse
// returns ctx's error. ErrBusy when the analysis queue is full, ErrClosed
// when the pool is closed before f started.
func (p *Pool) Analyse(ctx context.Context, timeout time.Duration, f func(ctx context.Context, deadline time.Time) error) error {
	if timeout <= 0 {
		timeout = p.timeout
	}
	t := &task{Job: Job{Class: Analysis, Game: "analysis", Timeout: timeout}, work: f, workDone: make(chan error, 1)}
	if err := p.enqueue(ctx, t); err != nil {
		return err
	}
	// Every way out of the queue answers once: a worker with f's error,
	// the context's end or Close with why f never ran.
	return <-t.workDone
}

// Queued returns how many jobs of class c wait for a worker.
func (p *Pool) Queued(c Class) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.queues[c].Len()
}

func (p *Pool) enqueue(ctx context.Context, t *task) error {
	c := t.Class
	if c < 0 || c >= numClasses {
		return fmt.Errorf("bot pool: unknown class %d", int(c))
	}
	t.ctx = ctx
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	if p.queues[c].Len() >= p.limits[c].queue {
		return ErrBusy
	}
	t.elem = p.queues[c].PushBack(t)
	p.gauge(c, 1)
	if c == Live {
		t.watchdog = time.AfterFunc(t.Timeout+grace(t.Timeout), func() { p.watch(t) })
	}
	if ctx.Done() != nil {
		// Runs on its own goroutine, at once if ctx has ended already.
		t.stopCtx = context.AfterFunc(ctx, func() { p.requesterGone(t) })
	}
	p.cond.Signal()
	return nil
}

// unqueueLocked takes a queued task out of its queue and out of the
// watchdog's and the context's reach, leaving it in state s.
func (p *Pool) unqueueLocked(t *task, s taskState) {
	p.queues[t.Class].Remove(t.elem)
	t.elem = nil
	t.state = s
	p.gauge(t.Class, -1)
	if t.watchdog != nil {
		t.watchdog.Stop()
	}
	if t.stopCtx != nil {
		t.stopCtx()
	}
}

// requesterGone drops a task still queued when its context ends.
func (p *Pool) requesterGone(t *task) {
	p.mu.Lock()
	if t.state != taskQueued {
		p.mu.Unlock()
		return
	}
	p.unqueueLocked(t, taskDropped)
	p.mu.Unlock()
	err := fmt.Errorf("bot job dropped before it started: %w", t.ctx.Err())
	if t.work != nil {
		t.workDone <- err
	} else if t.Done != nil {
		t.Done(Result{Err: err})
	}
}

// watch is a queued live turn's watchdog, every deadline and grace of it:
// when every worker is held by a job past its deadline, nothing may free
// one soon, and the turn is answered with a random legal move (its state is
// still untouched: no bot has it); else the turn waits for a worker, as long
// as that takes.
func (p *Pool) watch(t *task) {
	p.mu.Lock()
	if t.state != taskQueued {
		p.mu.Unlock()
		return
	}
	if p.overrun < p.workers {
		t.watchdog.Reset(t.Timeout + grace(t.Timeout))
		p.mu.Unlock()
		return
	}
	p.unqueueLocked(t, taskExpired)
	p.mu.Unlock()
	p.log.Warn("bot turn answered at random: every worker is held by a bot past its deadline",
		zap.String("game", t.Game), zap.String("level", t.Level), zap.Duration("timeout", t.Timeout))
	res := fallback(t.State.Legal(t.Seat), rand.New(rand.NewPCG(t.Seed, t.Seed>>1)))
	res.Took = t.Timeout + grace(t.Timeout)
	p.observe(t.Job, res)
	if t.Done != nil {
		t.Done(res)
	}
}

// Close stops the workers and waits for them (a bot still thinking is
// waited for, and its answer dropped). Queued jobs are dropped: bot turns
// without an answer, analyses with ErrClosed.
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.quit)
	}
	var dropped []*task
	for c := range p.queues {
		for e := p.queues[c].Front(); e != nil; e = p.queues[c].Front() {
			t := e.Value.(*task)
			p.unqueueLocked(t, taskDropped)
			dropped = append(dropped, t)
		}
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	for _, t := range dropped {
		if t.work != nil {
			t.workDone <- ErrClosed
		}
	}
	p.wg.Wait()
}

// grace is how long after its deadline a bot's answer is waited for.
func grace(timeout time.Duration) time.Duration {
	return max(timeout/4, 50*time.Millisecond)
}

func (p *Pool) gauge(c Class, d float64) {
	if p.m != nil {
		p.m.BotQueue.WithLabelValues(c.String()).Add(d)
	}
}

func (p *Pool) worker() {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		t := p.nextLocked()
		for t == nil && !p.closed {
			p.cond.Wait()
			t = p.nextLocked()
		}
		if t == nil {
			p.mu.Unlock()
			return
		}
		p.unqueueLocked(t, taskStarted)
		p.running[t.Class]++
		p.mu.Unlock()

		if t.work != nil {
			p.analyse(t)
		} else {
			p.run(t.Job)
		}

		p.mu.Lock()
		p.running[t.Class]--
		// A class's slot is free: a worker waiting may take its next job.
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// nextLocked returns the task a free worker takes, or nil: the oldest live
// turn; else, while the classes below hold fewer than their share of the
// workers, the oldest stateless move, then the oldest analysis, each within
// its class's running bound. Nil once the pool is closed.
func (p *Pool) nextLocked() *task {
	if p.closed {
		return nil
	}
	if e := p.queues[Live].Front(); e != nil {
		return e.Value.(*task)
	}
	if p.running[Stateless]+p.running[Analysis] >= p.background {
		return nil
	}
	for _, c := range []Class{Stateless, Analysis} {
		if e := p.queues[c].Front(); e != nil && p.running[c] < p.limits[c].running {
			return e.Value.(*task)
		}
	}
	return nil
}

// overrunning marks the worker's job as past its deadline and grace until
// the returned function is called.
func (p *Pool) overrunning() (over func()) {
	p.mu.Lock()
	p.overrun++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.overrun--
		p.mu.Unlock()
	}
}

type answer struct {
	move string
	err  error
}

// run plays one bot turn. The bot runs on its own goroutine so that the
// answer can be given at the deadline, but the worker waits for the bot to
// return before taking the next job: the pool never runs more bots than
// workers.
func (p *Pool) run(j Job) {
	timeout := j.Timeout
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
		over := p.overrunning()
		defer func() { <-ch; over() }()
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

// analyse runs an analysis on the worker and hands its error to Analyse.
func (p *Pool) analyse(t *task) {
	start := time.Now()
	var mu sync.Mutex
	finished := false
	var over func()
	overTimer := time.AfterFunc(t.Timeout+grace(t.Timeout), func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			p.log.Warn("analysis overran its deadline", zap.Duration("timeout", t.Timeout))
			over = p.overrunning()
		}
	})
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("analysis panic: %v", r)
			}
		}()
		return t.work(t.ctx, start.Add(t.Timeout))
	}()
	overTimer.Stop()
	mu.Lock()
	finished = true
	if over != nil {
		over()
	}
	mu.Unlock()
	t.workDone <- err
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
