package botpool

import (
	"context"
	"errors"
	"math/rand/v2"
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
