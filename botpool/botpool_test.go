package botpool

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/tabuleiro/tabuleiro/engine"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// stub is a state whose legal moves are fixed.
type stub struct{ engine.State }

func (stub) Legal(int) []string    { return []string{"x", "y"} }
func (s stub) Clone() engine.State { return s }

func bot(move string, err error, sleep time.Duration, running *atomic.Int32, peak *atomic.Int32) engine.Bot {
	return func(engine.State, int, *rand.Rand, time.Time) (string, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(sleep)
		running.Add(-1)
		return move, err
	}
}

func TestPoolAnswersFallsBackAndStaysBounded(t *testing.T) {
	p := New(2, 64, 100*time.Millisecond, nil, nil)
	defer p.Close()
	var running, peak atomic.Int32
	ctx := context.Background()
	r, err := p.Move(ctx, Job{Bot: bot("m", nil, 0, &running, &peak), State: stub{}})
	if err != nil || r.Move != "m" || r.Fallback {
		t.Fatalf("plain move: %+v %v", r, err)
	}
	r, _ = p.Move(ctx, Job{Bot: bot("", errors.New("lost"), 0, &running, &peak), State: stub{}})
	if !r.Fallback || (r.Move != "x" && r.Move != "y") {
		t.Fatalf("failing bot: %+v", r)
	}
	// The answer comes at the deadline (plus grace), before the bot's own:
	// a fallback move rather than "late".
	r, _ = p.Move(ctx, Job{Bot: bot("late", nil, 1500*time.Millisecond, &running, &peak), State: stub{}, Timeout: 50 * time.Millisecond})
	if !r.Fallback || (r.Move != "x" && r.Move != "y") {
		t.Fatalf("slow bot: %+v", r)
	}
	done := make(chan Result, 20)
	for range 20 {
		if err := p.Submit(ctx, Job{Bot: bot("m", nil, 5*time.Millisecond, &running, &peak), State: stub{}, Done: func(r Result) { done <- r }}); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		<-done
	}
	if peak.Load() > 2 {
		t.Fatalf("%d bots ran at once with 2 workers", peak.Load())
	}
}

func TestTrySubmitBusy(t *testing.T) {
	p := New(1, 1, time.Second, nil, nil)
	block := make(chan struct{})
	slow := func(engine.State, int, *rand.Rand, time.Time) (string, error) { <-block; return "x", nil }
	_ = p.TrySubmit(Job{Bot: slow, State: stub{}})
	busy := false
	for range 3 {
		if p.TrySubmit(Job{Bot: slow, State: stub{}}) == ErrBusy {
			busy = true
		}
	}
	close(block)
	p.Close()
	if !busy {
		t.Fatal("a full queue took more jobs")
	}
	if err := p.TrySubmit(Job{}); err != ErrClosed {
		t.Fatalf("closed pool: %v", err)
	}
}

// TestQueuedJobFallsBackWhenWorkersAreHeld: every worker is held by a bot
// that does not return (a table being built, say); a job waiting in the
// queue is still answered, with a random legal move, at its deadline and
// grace, and never again when a worker frees up.
func TestQueuedJobFallsBackWhenWorkersAreHeld(t *testing.T) {
	p := New(1, 4, time.Second, nil, nil)
	defer p.Close()
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before Close, even when the test fails
	held := make(chan struct{})
	stuck := func(engine.State, int, *rand.Rand, time.Time) (string, error) {
		close(held)
		<-release
		return "stuck", nil
	}
	first := make(chan Result, 1)
	if err := p.TrySubmit(Job{Bot: stuck, State: stub{}, Timeout: 20 * time.Millisecond, Done: func(r Result) { first <- r }}); err != nil {
		t.Fatal(err)
	}
	<-held
	var ran atomic.Bool
	never := func(engine.State, int, *rand.Rand, time.Time) (string, error) { ran.Store(true); return "late", nil }
	second := make(chan Result, 2)
	if err := p.TrySubmit(Job{Bot: never, State: stub{}, Timeout: 20 * time.Millisecond, Done: func(r Result) { second <- r }}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-second:
		if !r.Fallback || (r.Move != "x" && r.Move != "y") {
			t.Fatalf("queued job answered %+v, want a fallback legal move", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a job queued behind a held worker was never answered")
	}
	if r := <-first; !r.Fallback {
		t.Fatalf("the held bot's own turn: %+v, want a fallback at its deadline", r)
	}
	free()
	// The worker frees up and takes the expired job off the queue: it must
	// neither run its bot nor answer it a second time.
	if err := p.Submit(context.Background(), Job{Bot: bot("m", nil, 0, new(atomic.Int32), new(atomic.Int32)), State: stub{}, Timeout: time.Second, Done: func(Result) {}}); err != nil {
		t.Fatal(err)
	}
	r, err := p.Move(context.Background(), Job{Bot: bot("m", nil, 0, new(atomic.Int32), new(atomic.Int32)), State: stub{}})
	if err != nil || r.Move != "m" {
		t.Fatalf("after the worker freed up: %+v %v", r, err)
	}
	if ran.Load() {
		t.Error("the expired job's bot ran after it had been answered")
	}
	if n := len(second); n != 0 {
		t.Errorf("the expired job was answered %d more times", n)
	}
}

// waitFor waits until cond holds, failing the test after 10 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); runtime.Gosched() {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the pool never reached the state waited for")
		}
	}
}

// holder is a bot that signals when it starts and returns when released.
type holder struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newHolder() *holder {
	return &holder{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (h *holder) bot(engine.State, int, *rand.Rand, time.Time) (string, error) {
	h.started <- struct{}{}
	<-h.release
	return "held", nil
}

func (h *holder) free() { h.once.Do(func() { close(h.release) }) }

// holdOnlyWorker starts a pool of one worker and holds that worker with a
// live turn (of an hour's deadline) until the returned holder is freed;
// the test frees it at its end at the latest.
func holdOnlyWorker(t *testing.T) (*Pool, *holder) {
	t.Helper()
	p := New(1, 16, time.Minute, nil, nil)
	h := newHolder()
	t.Cleanup(p.Close)
	t.Cleanup(h.free) // before Close
	if err := p.TrySubmit(Job{Bot: h.bot, State: stub{}, Timeout: time.Hour, Done: func(Result) {}}); err != nil {
		t.Fatal(err)
	}
	<-h.started
	return p, h
}

// recorder is a bot that records the order in which jobs ran.
type recorder struct {
	mu    sync.Mutex
	order []string
}

func (r *recorder) bot(name string) engine.Bot {
	return func(engine.State, int, *rand.Rand, time.Time) (string, error) {
		r.mu.Lock()
		r.order = append(r.order, name)
		r.mu.Unlock()
		return name, nil
	}
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.order)
}

// TestLiveTurnsGoFirst: with the only worker busy, stateless moves and
// analyses queued first and live turns queued after them; once the worker
// frees up, the live turns run first, then the stateless moves, then the
// analyses, each class in its own order.
func TestLiveTurnsGoFirst(t *testing.T) {
	p, h := holdOnlyWorker(t)
	var rec recorder
	var wg sync.WaitGroup
	submit := func(c Class, name string) {
		wg.Add(1)
		if err := p.Submit(context.Background(), Job{Class: c, Bot: rec.bot(name), State: stub{}, Done: func(Result) { wg.Done() }}); err != nil {
			t.Fatal(err)
		}
	}
	analyse := func(name string) {
		wg.Go(func() {
			if err := p.Analyse(context.Background(), 0, func(context.Context, time.Time) error {
				_, err := rec.bot(name)(nil, 0, nil, time.Time{})
				return err
			}); err != nil {
				t.Error(err)
			}
		})
	}
	analyse("a1")
	waitFor(t, func() bool { return p.Queued(Analysis) == 1 }) // Analyse queues on its own goroutine
	submit(Stateless, "s1")
	submit(Stateless, "s2")
	analyse("a2")
	waitFor(t, func() bool { return p.Queued(Analysis) == 2 })
	submit(Live, "l1")
	submit(Stateless, "s3")
	submit(Live, "l2")
	if got := [3]int{p.Queued(Live), p.Queued(Stateless), p.Queued(Analysis)}; got != [3]int{2, 3, 2} {
		t.Fatalf("queued (live, stateless, analysis) = %v, want [2 3 2]", got)
	}
	h.free()
	wg.Wait()
	if got, want := rec.got(), []string{"l1", "l2", "s1", "s2", "s3", "a1", "a2"}; !slices.Equal(got, want) {
		t.Fatalf("jobs ran in the order %v, want %v", got, want)
	}
}

// TestLiveTurnsHaveAWorkerOfTheirOwn: with two workers, stateless moves and
// analyses never hold both: a live turn submitted while they queue runs at
// once on the worker kept for live turns, not after them.
func TestLiveTurnsHaveAWorkerOfTheirOwn(t *testing.T) {
	p := New(2, 16, time.Minute, nil, nil, WithStateless(16, 8), WithAnalyses(16, 8))
	defer p.Close()
	h := newHolder()
	defer h.free()
	for range 3 {
		if err := p.Submit(context.Background(), Job{Class: Stateless, Bot: h.bot, State: stub{}, Done: func(Result) {}}); err != nil {
			t.Fatal(err)
		}
	}
	analysed := make(chan error, 1)
	go func() {
		analysed <- p.Analyse(context.Background(), time.Minute, func(context.Context, time.Time) error {
			_, err := h.bot(nil, 0, nil, time.Time{})
			return err
		})
	}()
	<-h.started
	waitFor(t, func() bool { return p.Queued(Stateless)+p.Queued(Analysis) == 3 })
	r, err := p.Move(context.Background(), Job{Bot: bot("live", nil, 0, new(atomic.Int32), new(atomic.Int32)), State: stub{}})
	if err != nil || r.Move != "live" || r.Fallback {
		t.Fatalf("a live turn beside busy stateless moves: %+v, %v", r, err)
	}
	if n := len(h.started); n != 0 {
		t.Errorf("%d more stateless moves or analyses started on the worker kept for live turns", n)
	}
	if got := p.Queued(Stateless) + p.Queued(Analysis); got != 3 {
		t.Errorf("%d stateless moves and analyses queued after the live turn, want 3", got)
	}
	h.free()
	if err := <-analysed; err != nil {
		t.Fatal(err)
	}
}

// TestAnalysesAreBounded: however many wait, at most the analysis class's
// running bound run at once, even with workers to spare.
func TestAnalysesAreBounded(t *testing.T) {
	p := New(4, 16, time.Minute, nil, nil, WithAnalyses(16, 2))
	defer p.Close()
	var running, peak atomic.Int32
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			err := p.Analyse(context.Background(), 0, func(context.Context, time.Time) error {
				n := running.Add(1)
				for {
					if m := peak.Load(); n <= m || peak.CompareAndSwap(m, n) {
						break
					}
				}
				<-gate
				running.Add(-1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, func() bool { return p.Queued(Analysis) == 4 }) // two run, four wait
	close(gate)
	wg.Wait()
	if got := peak.Load(); got != 2 {
		t.Fatalf("%d analyses ran at once, want 2", got)
	}
	if err := p.Analyse(context.Background(), 0, func(context.Context, time.Time) error { return errors.New("no") }); err == nil || err.Error() != "no" {
		t.Fatalf("Analyse returned %v, want the function's error", err)
	}
}

// TestQueuedJobDroppedWhenRequesterLeaves: a stateless move and an analysis
// whose requesters give up while they wait leave the queue at once and never
// run; the worker, once free, goes on with the next job.
func TestQueuedJobDroppedWhenRequesterLeaves(t *testing.T) {
	p, h := holdOnlyWorker(t)
	var ran atomic.Int32
	never := func(engine.State, int, *rand.Rand, time.Time) (string, error) { ran.Add(1); return "x", nil }
	ctx, cancel := context.WithCancel(context.Background())
	moved := make(chan error, 1)
	go func() {
		_, err := p.Move(ctx, Job{Class: Stateless, Bot: never, State: stub{}})
		moved <- err
	}()
	analysed := make(chan error, 1)
	go func() {
		analysed <- p.Analyse(ctx, 0, func(context.Context, time.Time) error { ran.Add(1); return nil })
	}()
	waitFor(t, func() bool { return p.Queued(Stateless) == 1 && p.Queued(Analysis) == 1 })
	cancel()
	if err := <-moved; !errors.Is(err, context.Canceled) {
		t.Fatalf("Move after its requester left: %v, want context.Canceled", err)
	}
	if err := <-analysed; !errors.Is(err, context.Canceled) {
		t.Fatalf("Analyse after its requester left: %v, want context.Canceled", err)
	}
	waitFor(t, func() bool { return p.Queued(Stateless)+p.Queued(Analysis) == 0 })
	h.free()
	r, err := p.Move(context.Background(), Job{Class: Stateless, Bot: bot("next", nil, 0, new(atomic.Int32), new(atomic.Int32)), State: stub{}})
	if err != nil || r.Move != "next" {
		t.Fatalf("the next move: %+v, %v", r, err)
	}
	if n := ran.Load(); n != 0 {
		t.Fatalf("%d jobs whose requesters had left ran", n)
	}
	// A context that has ended already drops the job at once.
	if _, err := p.Move(ctx, Job{Class: Stateless, Bot: never, State: stub{}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Move with an ended context: %v", err)
	}
}

// TestLiveDeadlineCountsFromStart: a live turn that waits for a worker far
// longer than its own deadline (behind a long turn of another room) is not
// answered at random: its bot runs once a worker is free, with the whole
// deadline, and its move is the bot's.
func TestLiveDeadlineCountsFromStart(t *testing.T) {
	p, h := holdOnlyWorker(t)
	const timeout = time.Millisecond
	var started time.Time
	var deadline time.Time
	got := make(chan Result, 2)
	if err := p.TrySubmit(Job{Bot: func(_ engine.State, _ int, _ *rand.Rand, d time.Time) (string, error) {
		started, deadline = time.Now(), d
		return "mine", nil
	}, State: stub{}, Timeout: timeout, Done: func(r Result) { got <- r }}); err != nil {
		t.Fatal(err)
	}
	// Many times the turn's deadline and grace go by while it waits.
	time.Sleep(4 * (timeout + grace(timeout)))
	if n := len(got); n != 0 {
		t.Fatalf("a turn waiting behind another was answered while it waited: %+v", <-got)
	}
	h.free()
	r := <-got
	if r.Fallback || r.Move != "mine" {
		t.Fatalf("the turn that waited: %+v, want the bot's own move", r)
	}
	if d := deadline.Sub(started); d <= 0 || d > timeout {
		t.Fatalf("the bot started with %v left, want its deadline to count from its start (%v)", d, timeout)
	}
	if n := len(got); n != 0 {
		t.Fatalf("the turn was answered twice")
	}
}
