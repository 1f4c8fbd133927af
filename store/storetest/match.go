package storetest

import (
	"fmt"
	"sync"
	"testing"

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
	if err := m.Unqueue(ctx, "orbito/2", c); err != nil {
		t.Fatal(err)
	}
	if err := m.Unqueue(ctx, "orbito/2", c); err != nil {
		t.Fatalf("Unqueue of an entry not there: %v", err)
	}
	if _, ok, err := m.Match(ctx, "orbito/2", b); err != nil || ok {
		t.Fatalf("Match(b) after c left: matched %v, err %v", ok, err)
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
