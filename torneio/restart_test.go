package torneio

import (
	"context"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// slowHarness is start with a pause before every bot move, so that a
// tournament is still running when the test stops its "process".
func slowHarness(t *testing.T, st store.Store) *harness {
	t.Helper()
	pool := botpool.New(2, 64, 2*time.Second, zap.NewNop(), nil)
	rm := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Pool: pool, Log: zap.NewNop(), WatchDelay: 15 * time.Millisecond})
	tm, err := New(Config{Rooms: rm, Store: st, Catalog: games.Catalog(), Poll: 20 * time.Millisecond, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{rooms: rm, t: tm, pool: pool}
}

// TestRestart stops a running tournament's server (rooms and tournaments
// shut down as on SIGTERM, a game in the middle), starts a new one on a new
// connection to the same store, and checks that the tournament resumes and
// finishes with every game played once and standings equal to the rooms'
// results.
func TestRestart(t *testing.T) {
	addr := redistest.Start(t)
	prefix := redistest.Prefix(t, addr)
	open := func() store.Store {
		st, err := redisstore.New(context.Background(), addr, prefix)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	for _, tc := range []struct {
		name string
		open func() store.Store
	}{{"redis", open}, {"memory", func() store.Store { return memstore.New() }}} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.open()
			h1 := slowHarness(t, st)
			spec := Spec{Game: "queens", Entrants: []Entrant{{Level: "apressado"}, {Level: "gulosa"}, {Level: "roleta"}},
				Partidas: []Partida{{"tradicional", 1}}}
			id, err := h1.t.Start(context.Background(), "p1", spec)
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(time.Minute)
			for {
				v, err := h1.t.Get(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				if v.Status == StatusFinished {
					t.Fatal("the tournament finished before the restart: slow the bots down")
				}
				if v.Standings[0].Played+v.Standings[1].Played+v.Standings[2].Played >= 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no game finished")
				}
				time.Sleep(5 * time.Millisecond)
			}
			h1.stop()
			st2 := st
			if tc.name == "redis" {
				st2 = tc.open()
			}
			saved, err := st2.(store.Torneios).LoadTorneio(context.Background(), id)
			if err != nil || saved.Finished {
				t.Fatalf("saved torneio: finished %v, %v", saved.Finished, err)
			}
			h2 := slowHarness(t, st2)
			t.Cleanup(h2.stop)
			if n, err := h2.t.Resume(context.Background()); n != 1 || err != nil {
				t.Fatalf("Resume = %d, %v", n, err)
			}
			v := waitFinished(t, h2.t, id)
			checkAgainstRooms(t, st2, v)
			rooms := map[string]bool{}
			for _, g := range v.Games {
				if rooms[g.Room] {
					t.Errorf("room %s played two games", g.Room)
				}
				rooms[g.Room] = true
			}
		})
	}
}
