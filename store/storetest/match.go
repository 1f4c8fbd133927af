package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

func testMatchPairs(t *testing.T, s store.Store) {
	m, ctx := as[store.Matcher](t, s), ctxT(t)
	a := store.MatchEntry{Player: "pa", Name: "ana", Node: "n1", Conn: 1}
	a2 := store.MatchEntry{Player: "pa", Name: "ana", Node: "n2", Conn: 9}
	b := store.MatchEntry{Player: "pb", Name: "bia", Node: "n2", Conn: 2}
	c := store.MatchEntry{Player: "pc", Name: "caio", Node: "n3", Conn: 3}
	for _, e := range []store.MatchEntry{a, a, a2} { // the same entry twice is queued once
		if _, ok, err := m.Match(ctx, "orbito/2", e); err != nil || ok {
			t.Fatalf("Match(%+v) alone: matched %v, err %v", e, ok, err)
		}
	}
	// Another queue is another queue.
	if _, ok, err := m.Match(ctx, "go/9", b); err != nil || ok {
		t.Fatalf("Match in another queue: matched %v, err %v", ok, err)
	}
	got, ok, err := m.Match(ctx, "orbito/2", b)
	if err != nil || !ok || got != a {
		t.Fatalf("Match(b) = %+v %v %v; want a", got, ok, err)
	}
	got, ok, err = m.Match(ctx, "orbito/2", c)
	if err != nil || !ok || got != a2 {
		t.Fatalf("Match(c) = %+v %v %v; want a2 (a was queued once)", got, ok, err)
	}
	if _, ok, err := m.Match(ctx, "orbito/2", c); err != nil || ok {
		t.Fatalf("Match(c) on an empty queue: matched %v, err %v", ok, err)
	}
	if was, err := m.Unqueue(ctx, "orbito/2", c); err != nil || !was {
		t.Fatalf("Unqueue of a queued entry: %v %v", was, err)
	}
	if was, err := m.Unqueue(ctx, "orbito/2", c); err != nil || was {
		t.Fatalf("Unqueue of an entry not there: %v %v", was, err)
	}
	if _, ok, err := m.Match(ctx, "orbito/2", b); err != nil || ok {
		t.Fatalf("Match(b) after c left: matched %v, err %v", ok, err)
	}
}

// testMatchRated: a rated request pairs with the nearest waiting rating
// that its range and the other's hold (ratings.Accepts, at the store's
// time): ±100 at once, wider the longer one waited.
func testMatchRated(t *testing.T, s store.Store) {
	m, ctx := as[store.Matcher](t, s), ctxT(t)
	now := time.Now()
	step := int64(time.Hour / time.Millisecond) // no widening during the test
	at := func(p string, r float64, waited time.Duration) store.MatchEntry {
		return store.MatchEntry{Player: p, Name: p, Node: "n", Conn: uint64(len(p)), Rated: true, Rating: r,
			Since: now.Add(-waited).UnixMilli(), Step: step}
	}
	const q = "orbito/2/rated"
	far, near := at("far", 1800, 0), at("near", 1590, 0)
	for _, e := range []store.MatchEntry{far, near} {
		if _, ok, err := m.Match(ctx, q, e); err != nil || ok {
			t.Fatalf("Match(%+v): matched %v, err %v; want queued (210 apart)", e, ok, err)
		}
	}
	// 1500 asks: near (90) is within 100, far (300) is not.
	got, ok, err := m.Match(ctx, q, at("me", 1500, 0))
	if err != nil || !ok || got != near {
		t.Fatalf("Match(1500) = %+v %v %v; want near (1590)", got, ok, err)
	}
	if _, ok, err := m.Match(ctx, q, at("me2", 1500, 0)); err != nil || ok {
		t.Fatalf("Match(1500) again: matched %v, err %v; want queued (far is 300 away)", ok, err)
	}
	// far again, having waited four steps (range 300): me2 waited none
	// (range 100), so they do not pair. Two more who waited four steps:
	// 1510 takes me2 (the nearest), 1550 takes far (250 apart, both
	// ranges 300).
	if was, err := m.Unqueue(ctx, q, far); err != nil || !was {
		t.Fatalf("Unqueue(far): %v %v", was, err)
	}
	farOld := at("far", 1800, 4*time.Hour+time.Minute)
	if _, ok, err := m.Match(ctx, q, farOld); err != nil || ok {
		t.Fatalf("Match(far, waited) with me2 (1500, range 100): matched %v, err %v", ok, err)
	}
	got, ok, err = m.Match(ctx, q, at("late", 1510, 4*time.Hour+time.Minute))
	if err != nil || !ok || got.Player != "me2" {
		t.Fatalf("Match(1510) = %+v %v %v; want me2, the nearest", got, ok, err)
	}
	got, ok, err = m.Match(ctx, q, at("old", 1550, 4*time.Hour+time.Minute))
	if err != nil || !ok || got != farOld {
		t.Fatalf("Match(1550, waited 4 steps) = %+v %v %v; want far", got, ok, err)
	}
	// A casual queue is another queue.
	if _, ok, err := m.Match(ctx, "orbito/2", store.MatchEntry{Player: "casual", Node: "n", Conn: 77}); err != nil || ok {
		t.Fatalf("a casual request met a rated one: %v %v", ok, err)
	}
}

// testMatchConcurrent: many players at once; every one is paired exactly
// once or still waiting, never taken twice.
func testMatchConcurrent(t *testing.T, s store.Store) {
	m, ctx := as[store.Matcher](t, s), ctxT(t)
	const n = 40
	var (
		mu    sync.Mutex
		seen  = map[string]int{}
		wg    sync.WaitGroup
		pairs int
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := store.MatchEntry{Player: fmt.Sprintf("p%d", i), Node: "n", Conn: uint64(i)}
			got, ok, err := m.Match(ctx, "q", e)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				seen[got.Player]++
				seen[e.Player]++
				pairs++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if pairs != n/2 {
		t.Fatalf("%d pairs of %d players; want %d", pairs, n, n/2)
	}
	for p, k := range seen {
		if k != 1 {
			t.Fatalf("player %s paired %d times", p, k)
		}
	}
}
