package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// gateHook holds the first pipeline until release is closed, and counts
// pipelines and the commands they carry.
type gateHook struct {
	release   chan struct{}
	pipelines atomic.Int64
	first     atomic.Bool
	// before, when set, runs before pipeline k (1, 2, ...) is sent.
	before func(k int64)
}

func (h *gateHook) DialHook(next redis.DialHook) redis.DialHook          { return next }
func (h *gateHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }
func (h *gateHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		k := h.pipelines.Add(1)
		if h.first.CompareAndSwap(false, true) {
			<-h.release
		}
		if h.before != nil {
			h.before(k)
		}
		return next(ctx, cmds)
	}
}

// TestConcurrentSavesShareARoundTrip: saves that arrive while a pipeline is
// in flight go together in the next one, and each gets its own answer (a
// stale seq and a fenced save among them fail alone), even when Redis has
// lost the save script.
func TestConcurrentSavesShareARoundTrip(t *testing.T) {
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	s, err := redisstore.NewFromClient(c, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	room := func(id string, seq, epoch int64) store.Room {
		return store.Room{ID: id, Seq: seq, Snapshot: []byte(fmt.Sprintf("%s@%d", id, seq)), Append: [][]byte{[]byte("m")},
			Players: []string{"p-" + id}, Live: true, UpdatedAt: time.Now(), Epoch: epoch}
	}
	// Set up: "stale" is at seq 5; "fenced" was saved at epoch 1, then
	// another node took it over (epoch 2).
	if err := c.Set(ctx, s.EpochKey("fenced"), 1, 0).Err(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []store.Room{room("stale", 5, 0), room("fenced", 1, 1)} {
		if err := s.SaveRoom(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Incr(ctx, s.EpochKey("fenced")).Err(); err != nil {
		t.Fatal(err)
	}
	// Redis loses its scripts just before the grouped saves go: they all
	// come back NOSCRIPT and go again with EVAL, together.
	plain := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { plain.Close() })
	h := &gateHook{release: make(chan struct{}), before: func(k int64) {
		if k == 2 {
			if err := plain.ScriptFlush(ctx).Err(); err != nil {
				t.Error(err)
			}
		}
	}}
	c.AddHook(h)

	const n = 40
	errs := make([]error, n+3)
	var wg sync.WaitGroup
	save := func(i int, r store.Room) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.SaveRoom(ctx, r)
		}()
	}
	save(0, room("first", 1, 0)) // its pipeline waits at the gate
	for h.pipelines.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for i := 1; i <= n; i++ {
		save(i, room(fmt.Sprintf("r%d", i), 1, 0))
	}
	save(n+1, room("stale", 3, 0))
	save(n+2, room("fenced", 2, 1))
	for s.PendingSaves() < n+2 {
		time.Sleep(time.Millisecond)
	}
	close(h.release)
	wg.Wait()

	for i, err := range errs {
		switch i {
		case n + 1:
			if !errors.Is(err, store.ErrStaleSeq) {
				t.Errorf("stale save: %v, want ErrStaleSeq", err)
			}
		case n + 2:
			if !errors.Is(err, store.ErrFenced) {
				t.Errorf("fenced save: %v, want ErrFenced", err)
			}
		default:
			if err != nil {
				t.Errorf("save %d: %v", i, err)
			}
		}
	}
	// The first save alone, then the other 42 together (EVALSHA, NOSCRIPT,
	// then EVAL): 3 round trips for 43 saves.
	if got := h.pipelines.Load(); got != 3 {
		t.Errorf("%d saves took %d round trips, want 3", n+3, got)
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("r%d", i)
		got, err := s.LoadRoom(ctx, id)
		if err != nil || got.Seq != 1 || string(got.Snapshot) != id+"@1" {
			t.Fatalf("room %s: %+v, %v", id, got, err)
		}
		if l, err := s.RoomLog(ctx, id); err != nil || len(l) != 1 {
			t.Fatalf("room %s log: %d entries (%v), want 1", id, len(l), err)
		}
	}
	if got, err := s.LoadRoom(ctx, "stale"); err != nil || got.Seq != 5 {
		t.Fatalf("stale room: seq %d (%v), want 5 kept", got.Seq, err)
	}
}

// TestSaveWhoseCallerGaveUpIsNotSent: a save queued behind a pipeline in
// flight whose context ends before its turn returns the context's error and
// is not written.
func TestSaveWhoseCallerGaveUpIsNotSent(t *testing.T) {
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	h := &gateHook{release: make(chan struct{})}
	c.AddHook(h)
	s, err := redisstore.NewFromClient(c, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.SaveRoom(context.Background(), store.Room{ID: "a", Seq: 1, Snapshot: []byte("a"), UpdatedAt: time.Now()})
	}()
	for h.pipelines.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	late := make(chan error, 1)
	go func() {
		late <- s.SaveRoom(ctx, store.Room{ID: "b", Seq: 1, Snapshot: []byte("b"), UpdatedAt: time.Now()})
	}()
	for s.PendingSaves() < 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-late; !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned save: %v, want context.Canceled", err)
	}
	close(h.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The flusher has taken "b" after "a"'s round trip; wait until it has
	// gone through the queue.
	for s.PendingSaves() > 0 {
		time.Sleep(time.Millisecond)
	}
	if err := s.SaveRoom(context.Background(), store.Room{ID: "c", Seq: 1, Snapshot: []byte("c"), UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadRoom(context.Background(), "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("abandoned save was written: %v", err)
	}
}
