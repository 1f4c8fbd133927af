package botpool

import (
	"context"
	"errors"
	"math/rand/v2"
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
