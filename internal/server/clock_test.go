package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// clocksOf decodes room.state's clocks; ok is false when they are null.
func clocksOf(t *testing.T, m testserver.Msg) (c map[string]int64, ok bool) {
	t.Helper()
	var v struct {
		Clocks map[string]int64 `json:"clocks"`
	}
	if err := json.Unmarshal(m.Raw, &v); err != nil {
		t.Fatalf("clocks in %s: %v", m.Raw, err)
	}
	return v.Clocks, v.Clocks != nil
}

// clockedMorris starts a morris room between two new players with the
// given clock and returns them (a is seat 0) and the first playing state.
func clockedMorris(t *testing.T, s *testserver.Server, clock map[string]any) (a, b *testserver.Client, room string, st testserver.Msg) {
	t.Helper()
	a, b = s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "clock": clock})
	room = a.Wait("room.joined", nil).Room
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	st = b.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	return a, b, room, st
}

// firstMorrisMoves plays seat 0's b2 and seat 1's a1, the first move of
// each side, which no clock times, and returns the state after them.
func firstMorrisMoves(t *testing.T, a, b *testserver.Client, room string) testserver.Msg {
	t.Helper()
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "b2" })
	b.Send(map[string]any{"type": "room.move", "room": room, "move": "a1"})
	return a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a1" })
}

// TestClockFlagFallsOverWebSocket: a 1-s clock. Each side's first move
// is free, even a second in (the server's time is injected, so the times
// are exact); then a second passes on seat 0's turn and nobody moves: the
// room's timer ends the game on time and every player sees the result.
func TestClockFlagFallsOverWebSocket(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	a, b, room, st := clockedMorris(t, s, map[string]any{"base": 1, "increment": 0})
	if c, ok := clocksOf(t, st); !ok || c["0"] != 1000 || c["1"] != 1000 {
		t.Fatalf("clocks at the start %v, want 1000 each", c)
	}
	now.Advance(time.Second)
	moved := firstMorrisMoves(t, a, b, room)
	if c, _ := clocksOf(t, moved); c["0"] != 1000 || c["1"] != 1000 || moved.Status != "playing" {
		t.Fatalf("clocks after the first moves %v (%s)", c, moved.Status)
	}
	now.Advance(time.Second)
	for _, who := range []*testserver.Client{a, b} {
		fin := who.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
		if fin.Result == nil || fin.Result.Reason != "timeout" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
			t.Fatalf("result %s", fin.Raw)
		}
		if c, _ := clocksOf(t, fin); c["0"] != 0 || c["1"] != 1000 {
			t.Fatalf("final clocks %v", c)
		}
	}
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "c3"})
	a.WaitError("game_over")
}

// TestClockFlagFallsInRealTime: the same without any injected time: a 1-s
// clock where nobody moves after the first moves ends in a timeout for the
// seat to move.
func TestClockFlagFallsInRealTime(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, room, _ := clockedMorris(t, s, map[string]any{"base": 1})
	firstMorrisMoves(t, a, b, room)
	fin := a.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Reason != "timeout" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("result %s", fin.Raw)
	}
}

// TestClockIncrementOverWebSocket: with the server's time injected, the
// charge and the increment are exact; a rematch keeps the time control.
func TestClockIncrementOverWebSocket(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	a, b, room, _ := clockedMorris(t, s, map[string]any{"base": 60, "increment": 5})
	firstMorrisMoves(t, a, b, room)
	now.Advance(7 * time.Second)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "c3"})
	m := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c3" })
	if c, _ := clocksOf(t, m); c["0"] != 58000 || c["1"] != 60000 {
		t.Fatalf("after 7 s of thought and a 5-s increment: %v, want 0:58000 1:60000", c)
	}
	now.Advance(2 * time.Second)
	sp := s.Hello(t, "spec", "")
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	if c, _ := clocksOf(t, sp.State(room, nil)); c["0"] != 58000 || c["1"] != 58000 {
		t.Fatalf("spectator's view 2 s into seat 1's turn: %v", c)
	}
	b.Send(map[string]any{"type": "room.resign", "room": room})
	fin := a.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if c, _ := clocksOf(t, fin); c["1"] != 58000 {
		t.Fatalf("clocks after the resign %v: seat 1's clock should stop at 58000", c)
	}
	a.Send(map[string]any{"type": "room.rematch", "room": room})
	b.Send(map[string]any{"type": "room.rematch", "room": room})
	next := a.Wait("match.found", nil).Room
	first := a.StateEver(next, nil) // it may have come before match.found
	if c, ok := clocksOf(t, first); !ok || c["0"] != 60000 || c["1"] != 60000 {
		t.Fatalf("rematch clocks %v", c)
	}
}

// TestClockRefusedWhereItMeansNothing: bad values and games where a clock
// does not apply get bad_request, and no room is made.
func TestClockRefusedWhereItMeansNothing(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := s.Hello(t, "ana", "")
	for i, msg := range []map[string]any{
		{"game": "morris", "variant": "3", "opponent": "human", "clock": map[string]any{"base": 0}},
		{"game": "morris", "variant": "3", "opponent": "human", "clock": map[string]any{"base": 10801}},
		{"game": "morris", "variant": "3", "opponent": "human", "clock": map[string]any{"base": 60, "increment": 181}},
		{"game": "morris", "variant": "3", "opponent": "human", "clock": map[string]any{"base": 1.5}},
		{"game": "morris", "variant": "3", "opponent": "human", "clock": "5+3"},
		{"game": "2048", "variant": "solo", "opponent": "none", "clock": map[string]any{"base": 60}},
		{"game": "2048", "variant": "race", "opponent": "human", "clock": map[string]any{"base": 60}},
		{"game": "morris", "variant": "3", "watch": true, "level": "facil", "clock": map[string]any{"base": 60}},
	} {
		msg["type"], msg["id"] = "room.create", i
		a.Send(msg)
		e := a.Wait("", func(m testserver.Msg) bool { return string(m.ID) == string(mustJSON(i)) })
		if e.Type != "error" || e.Code != "bad_request" || e.Message == "" {
			t.Errorf("room.create %v: %s", msg, e.Raw)
		}
	}
	if n := s.Rooms.Len(); n != 0 {
		t.Fatalf("%d rooms made", n)
	}
	// null is no clock.
	a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "bot", "clock": nil})
	if _, ok := clocksOf(t, a.State(a.Wait("room.joined", nil).Room, nil)); ok {
		t.Fatal("clocks in a room without a clock")
	}
}

// redisStores starts a Redis for the test and returns a function that
// opens a new store on it, under one key prefix: each server of a restart
// test opens its own, as a restarted process would.
func redisStores(t *testing.T) func() store.Store {
	t.Helper()
	addr := redistest.Start(t)
	prefix := redistest.Prefix(t, addr)
	return func() store.Store {
		st, err := redisstore.New(context.Background(), addr, prefix)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
}

// restartGame is a clocked morris game (300 s + 3 s) on Redis and a fake
// clock, for the tests of what a restarted server shows.
type restartGame struct {
	t    *testing.T
	open func() store.Store
	now  *fakeclock.Clock
	s1   *testserver.Server
	a, b *testserver.Client
	room string
}

// startRestartGame starts the game on a first server and plays seat 0's b2,
// seat 1's a1, then, ten seconds later, seat 0's c3: seat 1 is to move.
func startRestartGame(t *testing.T) *restartGame {
	t.Helper()
	g := &restartGame{t: t, open: redisStores(t), now: fakeclock.New()}
	g.s1 = testserver.Start(t, func(c *server.Config) { c.Store, c.Now = g.open(), g.now.Now })
	g.a, g.b, g.room, _ = clockedMorris(t, g.s1, map[string]any{"base": 300, "increment": 3})
	firstMorrisMoves(t, g.a, g.b, g.room)
	g.now.Advance(10 * time.Second)
	g.a.Send(map[string]any{"type": "room.move", "room": g.room, "move": "c3"})
	g.b.State(g.room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c3" })
	return g
}

// restart stops the first server, lets an hour pass and starts a second
// one on the same Redis.
func (g *restartGame) restart() *testserver.Server {
	g.t.Helper()
	g.s1.Stop()
	g.now.Advance(time.Hour)
	return testserver.Start(g.t, func(c *server.Config) { c.Store, c.Now = g.open(), g.now.Now })
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestClocksSurviveARestartWithRedis: a clocked game on Redis; the server
// stops during seat 1's turn and stays down for an hour; the new server
// gives seat 1 the time it had when its turn began, and seat 0's time is
// exact.
func TestClocksSurviveARestartWithRedis(t *testing.T) {
	t.Parallel()
	g := startRestartGame(t)
	g.now.Advance(20 * time.Second) // seat 1 thinks; then the server stops
	s2 := g.restart()
	b2, room, now := s2.Hello(t, "", g.b.Token), g.room, g.now
	got := b2.State(room, nil)
	if c, _ := clocksOf(t, got); c["0"] != 293000 || c["1"] != 300000 || got.Turn == nil || *got.Turn != 1 {
		t.Fatalf("after the restart: clocks %v turn %v; want 0:293000 1:300000, seat 1 to move", c, got.Turn)
	}
	now.Advance(4 * time.Second)
	b2.Send(map[string]any{"type": "room.move", "room": room, "move": "a2"})
	after := b2.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a2" })
	if c, _ := clocksOf(t, after); c["1"] != 299000 {
		t.Fatalf("seat 1's clock after its move %v, want 300000-4000+3000", c)
	}
}
