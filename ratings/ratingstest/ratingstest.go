// Package ratingstest is the conformance suite of ratings.Store: both
// stores (memstore, redisstore) run it, so that they keep the same rules.
//
//	func TestRatings(t *testing.T) {
//		ratingstest.Run(t, func(t *testing.T) ratings.Store { return memstore.New() })
//	}
package ratingstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/ratings"
)

// Factory returns a new, empty store for one subtest. Run closes it when it
// has a Close method.
type Factory func(t *testing.T) ratings.Store

// Run runs every conformance subtest, each on a new store, in parallel.
func Run(t *testing.T, newStore Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s ratings.Store)
	}{
		{"NewRating", testNewRating},
		{"Apply", testApply},
		{"ApplyOnceByRoom", testApplyOnce},
		{"ApplyInvalid", testApplyInvalid},
		{"ApplyConcurrentSamePlayer", testApplyConcurrent},
		{"ApplyConcurrentSameRoom", testApplyConcurrentRoom},
		{"History", testHistory},
		{"HistoryLimit", testHistoryLimit},
		{"Leaderboard", testLeaderboard},
		{"LeaderboardIdle", testLeaderboardIdle},
		{"LeaderboardLeaves", testLeaderboardLeaves},
		{"Owed", testOwed},
		{"Tally", testTally},
		{"Best", testBest},
		{"Ladder", testLadder},
		{"ContextCancelled", testContextCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			if c, ok := s.(interface{ Close() error }); ok {
				t.Cleanup(func() {
					if err := c.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
			}
			tc.fn(t, s)
		})
	}
}

// t0 is when the suite's games end, to the millisecond.
var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

const pool = "go/9"

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func game(room, a, b string, score float64, ended time.Time) ratings.Game {
	return ratings.Game{Room: room, Pool: pool, Score: score, Ended: ended,
		Sides: [2]ratings.Side{{ID: a, Name: "name of " + a}, {ID: b, Name: "name of " + b}}}
}

// glicko rates as the rater does.
func glicko(g ratings.Game) func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) {
	return func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) {
		return ratings.Update(a, b, g.Score, g.Ended)
	}
}

// fixed rates any game as the given ratings, whatever came before: the
// leaderboards' tests choose the ratings and deviations they need.
func fixed(a, b ratings.Rating) func(ratings.Rating, ratings.Rating) (ratings.Rating, ratings.Rating) {
	return func(ratings.Rating, ratings.Rating) (ratings.Rating, ratings.Rating) { return a, b }
}

func mustApply(t *testing.T, s ratings.Store, g ratings.Game, rate func(a, b ratings.Rating) (ratings.Rating, ratings.Rating)) [2]ratings.Change {
	t.Helper()
	ch, ok, err := s.Apply(ctxT(t), g, rate)
	if err != nil || !ok {
		t.Fatalf("Apply(%s) = %v, %v; want applied", g.Room, ok, err)
	}
	return ch
}

func rating(t *testing.T, s ratings.Store, p, id string) ratings.Rating {
	t.Helper()
	r, err := s.Rating(ctxT(t), p, id)
	if err != nil {
		t.Fatalf("Rating(%s, %s): %v", p, id, err)
	}
	return r
}

func history(t *testing.T, s ratings.Store, p, id string, n int) []ratings.Point {
	t.Helper()
	h, err := s.History(ctxT(t), p, id, n)
	if err != nil {
		t.Fatalf("History(%s, %s, %d): %v", p, id, n, err)
	}
	return h
}

func testNewRating(t *testing.T, s ratings.Store) {
	if got := rating(t, s, pool, "nobody"); got != ratings.New() {
		t.Fatalf("Rating of a player without games = %+v, want %+v", got, ratings.New())
	}
	if got, err := s.Ratings(ctxT(t), "nobody"); err != nil || len(got) != 0 {
		t.Fatalf("Ratings(nobody) = %v, %v; want none", got, err)
	}
	if _, err := s.Changes(ctxT(t), "no-room"); !errors.Is(err, ratings.ErrNotFound) {
		t.Fatalf("Changes(no-room) error = %v, want ErrNotFound", err)
	}
	if h := history(t, s, pool, "nobody", 10); len(h) != 0 {
		t.Fatalf("History(nobody) = %v, want none", h)
	}
}

func testApply(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	g := game("r1", "a", "b", 1, t0)
	wantA, wantB := ratings.Update(ratings.New(), ratings.New(), 1, t0)
	ch := mustApply(t, s, g, glicko(g))
	want := [2]ratings.Change{{ID: "a", Before: ratings.New(), After: wantA}, {ID: "b", Before: ratings.New(), After: wantB}}
	if ch != want {
		t.Fatalf("Apply changes = %+v, want %+v", ch, want)
	}
	if got := rating(t, s, pool, "a"); got != wantA {
		t.Fatalf("Rating(a) = %+v, want %+v", got, wantA)
	}
	if got := rating(t, s, pool, "b"); got != wantB {
		t.Fatalf("Rating(b) = %+v, want %+v", got, wantB)
	}
	if wantA.Games != 1 || wantA.Last != t0.UnixMilli() || wantA.Rating <= 1500 || wantB.Rating >= 1500 {
		t.Fatalf("Update gave %+v and %+v: the winner should rise, the loser fall", wantA, wantB)
	}
	if got, err := s.Changes(ctx, "r1"); err != nil || got != want {
		t.Fatalf("Changes(r1) = %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.Ratings(ctx, "a"); err != nil || len(got) != 1 || got[pool] != wantA {
		t.Fatalf("Ratings(a) = %v, %v; want {%s: %+v}", got, err, pool, wantA)
	}
	// Another pool is apart.
	if got := rating(t, s, "orbito/2", "a"); got != ratings.New() {
		t.Fatalf("Rating(orbito/2, a) = %+v, want New()", got)
	}
	for id, r := range map[string]ratings.Rating{"a": wantA, "b": wantB} {
		wantP := []ratings.Point{{Room: "r1", At: t0.UnixMilli(), Rating: r.Rating, Deviation: r.Deviation}}
		if got := history(t, s, pool, id, 10); !slices.Equal(got, wantP) {
			t.Fatalf("History(%s) = %+v, want %+v", id, got, wantP)
		}
	}
	// The next game starts from the stored ratings.
	g2 := game("r2", "b", "a", 0.5, t0.Add(time.Hour))
	var seen [2]ratings.Rating
	mustApply(t, s, g2, func(x, y ratings.Rating) (ratings.Rating, ratings.Rating) {
		seen = [2]ratings.Rating{x, y}
		return ratings.Update(x, y, 0.5, g2.Ended)
	})
	if seen != [2]ratings.Rating{wantB, wantA} {
		t.Fatalf("rate of the second game got %+v, want the stored ratings of b and a", seen)
	}
	if got, _ := s.Ratings(ctx, "a"); got[pool].Games != 2 {
		t.Fatalf("Ratings(a)[%s].Games = %d after two games, want 2", pool, got[pool].Games)
	}
}

func testApplyOnce(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	g := game("once", "a", "b", 0, t0)
	first := mustApply(t, s, g, glicko(g))
	a := rating(t, s, pool, "a")
	calls := 0
	again := game("once", "a", "b", 1, t0.Add(time.Minute)) // same room, another result
	ch, ok, err := s.Apply(ctx, again, func(x, y ratings.Rating) (ratings.Rating, ratings.Rating) {
		calls++
		return ratings.Update(x, y, 1, again.Ended)
	})
	if err != nil || ok || ch != first {
		t.Fatalf("second Apply(once) = %+v, %v, %v; want the stored changes %+v, false", ch, ok, err, first)
	}
	if got := rating(t, s, pool, "a"); got != a {
		t.Fatalf("Rating(a) after a repeated Apply = %+v, want %+v unchanged", got, a)
	}
	if h := history(t, s, pool, "a", 10); len(h) != 1 {
		t.Fatalf("History(a) after a repeated Apply has %d points, want 1", len(h))
	}
	if calls > 1 {
		t.Fatalf("a repeated Apply called rate %d times", calls)
	}
}

func testApplyInvalid(t *testing.T, s ratings.Store) {
	ok := game("ok", "a", "b", 1, t0)
	tests := []struct {
		name string
		edit func(g *ratings.Game)
	}{
		{"no room", func(g *ratings.Game) { g.Room = "" }},
		{"no pool", func(g *ratings.Game) { g.Pool = "" }},
		{"not a pool", func(g *ratings.Game) { g.Pool = "go" }},
		{"a field's name", func(g *ratings.Game) { g.Pool = ":name/x" }},
		{"no id", func(g *ratings.Game) { g.Sides[1].ID = "" }},
		{"against themselves", func(g *ratings.Game) { g.Sides[1].ID = "a" }},
		{"score 0.3", func(g *ratings.Game) { g.Score = 0.3 }},
		{"score 2", func(g *ratings.Game) { g.Score = 2 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ok
			tc.edit(&g)
			if _, applied, err := s.Apply(ctxT(t), g, glicko(g)); err == nil || applied {
				t.Fatalf("Apply(%+v) = %v, %v; want an error", g, applied, err)
			}
		})
	}
	if got := rating(t, s, pool, "a"); got != ratings.New() {
		t.Fatalf("Rating(a) after refused games = %+v, want New()", got)
	}
	if _, err := s.Changes(ctxT(t), "ok"); !errors.Is(err, ratings.ErrNotFound) {
		t.Fatalf("Changes(ok) after refused games: %v, want ErrNotFound", err)
	}
}

// testApplyConcurrent: games of one player applied at once, on one store
// (as by several nodes), are all counted: no update is lost.
func testApplyConcurrent(t *testing.T, s ratings.Store) {
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := game(fmt.Sprint("c", i), "p", fmt.Sprint("o", i), float64(i%2), t0.Add(time.Duration(i)*time.Second))
			if _, ok, err := s.Apply(context.Background(), g, glicko(g)); err != nil || !ok {
				errs <- fmt.Errorf("Apply(%s) = %v, %v", g.Room, ok, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := rating(t, s, pool, "p"); got.Games != n {
		t.Fatalf("Rating(p).Games = %d after %d concurrent games, want %d", got.Games, n, n)
	}
	h := history(t, s, pool, "p", 100)
	if len(h) != n {
		t.Fatalf("History(p) has %d points after %d games, want %d", len(h), n, n)
	}
	// Each point is the rating after its game, and each game started from
	// the one before it: the last point is the stored rating.
	if last, r := h[n-1], rating(t, s, pool, "p"); last.Rating != r.Rating || last.Deviation != r.Deviation {
		t.Fatalf("last point %+v is not the stored rating %+v", last, r)
	}
	for i := 1; i < n; i++ {
		ch, err := s.Changes(context.Background(), h[i].Room)
		if err != nil {
			t.Fatal(err)
		}
		if ch[0].Before.Rating != h[i-1].Rating || ch[0].Before.Games != i {
			t.Fatalf("game %s started from %+v, want the rating after %s (%v, %d games)", h[i].Room, ch[0].Before, h[i-1].Room, h[i-1].Rating, i)
		}
	}
}

// testApplyConcurrentRoom: one room applied at once by several callers is
// applied once.
func testApplyConcurrentRoom(t *testing.T, s ratings.Store) {
	const n = 10
	var applied atomic.Int32
	var wg sync.WaitGroup
	g := game("same", "a", "b", 1, t0)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.Apply(context.Background(), g, glicko(g))
			if err != nil {
				t.Errorf("Apply: %v", err)
			}
			if ok {
				applied.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := applied.Load(); got != 1 {
		t.Fatalf("%d of %d concurrent Applies of one room applied it, want 1", got, n)
	}
	if r := rating(t, s, pool, "a"); r.Games != 1 {
		t.Fatalf("Rating(a).Games = %d, want 1", r.Games)
	}
}

func testHistory(t *testing.T, s ratings.Store) {
	var rooms []string
	for i := range 5 {
		g := game(fmt.Sprint("h", i), "a", "b", 1, t0.Add(time.Duration(i)*time.Hour))
		mustApply(t, s, g, glicko(g))
		rooms = append(rooms, g.Room)
	}
	tests := []struct {
		n    int
		want []string
	}{
		{0, nil},
		{-1, nil},
		{1, rooms[4:]},
		{3, rooms[2:]},
		{5, rooms},
		{100, rooms},
	}
	for _, tc := range tests {
		h := history(t, s, pool, "a", tc.n)
		var got []string
		for _, p := range h {
			got = append(got, p.Room)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("History(a, %d) = %v, want %v (oldest first)", tc.n, got, tc.want)
		}
	}
	h := history(t, s, pool, "a", 5)
	for i := 1; i < len(h); i++ {
		if h[i].At <= h[i-1].At || h[i].Rating <= h[i-1].Rating {
			t.Fatalf("History(a) = %+v: a winner's curve should rise, oldest first", h)
		}
	}
}

func testHistoryLimit(t *testing.T, s ratings.Store) {
	const extra = 5
	r := ratings.Rating{Rating: 1500, Deviation: 60, Volatility: 0.06}
	for i := range ratings.HistoryLimit + extra {
		r.Games, r.Last = i+1, t0.Add(time.Duration(i)*time.Minute).UnixMilli()
		g := game(fmt.Sprint("l", i), "a", "b", 1, time.UnixMilli(r.Last))
		mustApply(t, s, g, fixed(r, r))
	}
	h := history(t, s, pool, "a", ratings.HistoryLimit+extra)
	if len(h) != ratings.HistoryLimit || h[0].Room != fmt.Sprint("l", extra) || h[len(h)-1].Room != fmt.Sprint("l", ratings.HistoryLimit+extra-1) {
		t.Fatalf("History(a) after %d games has %d points from %s to %s; want the last %d",
			ratings.HistoryLimit+extra, len(h), h[0].Room, h[len(h)-1].Room, ratings.HistoryLimit)
	}
}

func settled(r float64, rd float64, at time.Time) ratings.Rating {
	return ratings.Rating{Rating: r, Deviation: rd, Volatility: 0.06, Games: 30, Last: at.UnixMilli()}
}

func boardIDs(t *testing.T, s ratings.Store, bots bool, n int, now time.Time) []string {
	t.Helper()
	es, err := s.Leaderboard(ctxT(t), pool, bots, n, now)
	if err != nil {
		t.Fatalf("Leaderboard(bots %v, %d): %v", bots, n, err)
	}
	var ids []string
	for _, e := range es {
		if e.Bot != bots {
			t.Fatalf("Leaderboard(bots %v) has %+v", bots, e)
		}
		ids = append(ids, e.ID)
	}
	return ids
}

func rank(t *testing.T, s ratings.Store, bots bool, id string, now time.Time) int {
	t.Helper()
	r, err := s.Rank(ctxT(t), pool, bots, id, now)
	if err != nil {
		t.Fatalf("Rank(%s): %v", id, err)
	}
	return r
}

func testLeaderboard(t *testing.T, s ratings.Store) {
	bot := func(g ratings.Game, i int) ratings.Game { g.Sides[i].Bot = true; return g }
	// Each game's two sides get the ratings the table says.
	games := []struct {
		g    ratings.Game
		a, b ratings.Rating
	}{
		{game("g1", "ana", "bia", 1, t0), settled(1800, 50, t0), settled(1700, 75, t0)},
		{game("g2", "caio", "dora", 1, t0), settled(1750, 75.5, t0), settled(1650, 40, t0)}, // caio is too uncertain
		{bot(bot(game("g3", "bot.x", "bot.y", 1, t0), 0), 1), settled(2100, 50, t0), settled(1600, 60, t0)},
		{bot(game("g4", "bot.z", "eva", 1, t0), 0), settled(1900, 45, t0), settled(1500, 300, t0)},
	}
	for _, tc := range games {
		mustApply(t, s, tc.g, fixed(tc.a, tc.b))
	}
	tests := []struct {
		bots bool
		n    int
		want []string
	}{
		{false, 10, []string{"ana", "bia", "dora"}},
		{false, 2, []string{"ana", "bia"}},
		{false, 0, nil},
		{true, 10, []string{"bot.x", "bot.z", "bot.y"}},
		{true, 1, []string{"bot.x"}},
	}
	for _, tc := range tests {
		if got := boardIDs(t, s, tc.bots, tc.n, t0); !slices.Equal(got, tc.want) {
			t.Errorf("Leaderboard(bots %v, %d) = %v, want %v", tc.bots, tc.n, got, tc.want)
		}
	}
	es, err := s.Leaderboard(ctxT(t), pool, false, 1, t0)
	if err != nil || len(es) != 1 {
		t.Fatalf("Leaderboard = %v, %v", es, err)
	}
	if want := (ratings.Entry{ID: "ana", Name: "name of ana", Rating: settled(1800, 50, t0)}); es[0] != want {
		t.Fatalf("board line %+v, want %+v", es[0], want)
	}
	if es, _ := s.Leaderboard(ctxT(t), "orbito/2", false, 10, t0); len(es) != 0 {
		t.Fatalf("Leaderboard of another pool = %v, want none", es)
	}
	ranks := []struct {
		bots bool
		id   string
		want int
	}{
		{false, "ana", 1}, {false, "bia", 2}, {false, "dora", 3}, {false, "caio", 0}, {false, "eva", 0},
		{false, "nobody", 0}, {false, "bot.x", 0}, {true, "bot.x", 1}, {true, "bot.y", 3}, {true, "ana", 0},
	}
	for _, tc := range ranks {
		if got := rank(t, s, tc.bots, tc.id, t0); got != tc.want {
			t.Errorf("Rank(bots %v, %s) = %d, want %d", tc.bots, tc.id, got, tc.want)
		}
	}
}

// testLeaderboardIdle: a player leaves the board BoardIdle after their last
// game, read at now, and comes back with a game; the ranks below move up.
func testLeaderboardIdle(t *testing.T, s ratings.Store) {
	early := t0.Add(-20 * 24 * time.Hour)
	mustApply(t, s, game("i1", "old", "mid", 1, early), fixed(settled(2000, 50, early), settled(1800, 50, early)))
	mustApply(t, s, game("i2", "new", "low", 1, t0), fixed(settled(1900, 50, t0), settled(1700, 50, t0)))
	// A game that ended more than BoardIdle before now (a late Apply)
	// puts nobody on the board at now.
	stale := t0.Add(-40 * 24 * time.Hour)
	mustApply(t, s, game("i3", "gone", "gone2", 1, stale), fixed(settled(2500, 50, stale), settled(2400, 50, stale)))
	if got, want := boardIDs(t, s, false, 10, t0), []string{"old", "new", "mid", "low"}; !slices.Equal(got, want) {
		t.Fatalf("Leaderboard at t0 = %v, want %v", got, want)
	}
	later := early.Add(ratings.BoardIdle + time.Millisecond)
	if got, want := boardIDs(t, s, false, 10, later), []string{"new", "low"}; !slices.Equal(got, want) {
		t.Fatalf("Leaderboard past old's and mid's idle time = %v, want %v", got, want)
	}
	if got := boardIDs(t, s, false, 1, later); !slices.Equal(got, []string{"new"}) {
		t.Fatalf("Leaderboard(1) past old's idle time = %v, want [new]", got)
	}
	for id, want := range map[string]int{"new": 1, "low": 2, "old": 0, "mid": 0} {
		if got := rank(t, s, false, id, later); got != want {
			t.Errorf("Rank(%s) past old's idle time = %d, want %d", id, got, want)
		}
	}
	if got := boardIDs(t, s, false, 10, t0.Add(ratings.BoardIdle+time.Millisecond)); len(got) != 0 {
		t.Fatalf("Leaderboard once everyone is idle = %v, want none", got)
	}
	// old plays again and is back.
	mustApply(t, s, game("i4", "old", "x", 1, later), fixed(settled(2010, 48, later), settled(1500, 200, later)))
	if got, want := boardIDs(t, s, false, 10, later), []string{"old", "new", "low"}; !slices.Equal(got, want) {
		t.Fatalf("Leaderboard after old's next game = %v, want %v", got, want)
	}
}

// testLeaderboardLeaves: a player whose deviation rises past BoardDeviation
// leaves the board, and their rating moves their line.
func testLeaderboardLeaves(t *testing.T, s ratings.Store) {
	mustApply(t, s, game("v1", "a", "b", 1, t0), fixed(settled(1800, 50, t0), settled(1700, 50, t0)))
	at := t0.Add(time.Hour)
	mustApply(t, s, game("v2", "b", "c", 1, at), fixed(settled(1900, 50, at), settled(1600, 50, at)))
	if got, want := boardIDs(t, s, false, 10, at), []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Fatalf("Leaderboard = %v, want %v", got, want)
	}
	at = at.Add(time.Hour)
	mustApply(t, s, game("v3", "b", "a", 0, at), fixed(settled(1850, 80, at), settled(1820, 50, at)))
	if got, want := boardIDs(t, s, false, 10, at), []string{"a", "c"}; !slices.Equal(got, want) {
		t.Fatalf("Leaderboard after b's deviation rose = %v, want %v", got, want)
	}
	if got := rank(t, s, false, "b", at); got != 0 {
		t.Fatalf("Rank(b) off the board = %d, want 0", got)
	}
}

func owed(t *testing.T, s ratings.Store, n int) []string {
	t.Helper()
	ids, err := s.Owed(ctxT(t), n)
	if err != nil {
		t.Fatalf("Owed(%d): %v", n, err)
	}
	slices.Sort(ids)
	return ids
}

func testOwed(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	if got := owed(t, s, 10); len(got) != 0 {
		t.Fatalf("Owed on a new store = %v", got)
	}
	for _, room := range []string{"o1", "o2", "o1"} {
		if err := s.Owe(ctx, room); err != nil {
			t.Fatalf("Owe(%s): %v", room, err)
		}
	}
	if err := s.Owe(ctx, ""); err == nil {
		t.Fatal("Owe(\"\") = nil, want an error")
	}
	if got := owed(t, s, 10); !slices.Equal(got, []string{"o1", "o2"}) {
		t.Fatalf("Owed(10) = %v, want [o1 o2]", got)
	}
	if got := owed(t, s, 1); len(got) != 1 {
		t.Fatalf("Owed(1) = %v, want one room", got)
	}
	if got := owed(t, s, 0); len(got) != 0 {
		t.Fatalf("Owed(0) = %v, want none", got)
	}
	g := game("o1", "a", "b", 1, t0)
	mustApply(t, s, g, glicko(g))
	if got := owed(t, s, 10); !slices.Equal(got, []string{"o2"}) {
		t.Fatalf("Owed after Apply(o1) = %v, want [o2]", got)
	}
	// A room owed again after it was applied (a later save of the
	// finished room) is cleared by the Apply that finds it applied.
	if err := s.Owe(ctx, "o1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Apply(ctx, g, glicko(g)); err != nil || ok {
		t.Fatalf("Apply(o1) again = %v, %v; want false", ok, err)
	}
	if got := owed(t, s, 10); !slices.Equal(got, []string{"o2"}) {
		t.Fatalf("Owed after a repeated Apply(o1) = %v, want [o2]", got)
	}
}

func results(t *testing.T, s ratings.Store, id string) ratings.Results {
	t.Helper()
	r, err := s.Results(ctxT(t), id)
	if err != nil {
		t.Fatalf("Results(%s): %v", id, err)
	}
	return r
}

func testTally(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	tallies := []struct {
		room     string
		outcomes map[string]ratings.Outcome
	}{
		{"t1", map[string]ratings.Outcome{"a": ratings.Won, "b": ratings.Lost}},
		{"t1", map[string]ratings.Outcome{"a": ratings.Won, "b": ratings.Lost}}, // once by room
		{"t2", map[string]ratings.Outcome{"a": ratings.Drawn, "b": ratings.Drawn}},
		{"t3", map[string]ratings.Outcome{"a": ratings.Lost, "c": ratings.Won}},
		{"t4", map[string]ratings.Outcome{"a": ratings.Won, "c": ratings.Lost}},
	}
	for _, tc := range tallies {
		if err := s.Tally(ctx, tc.room, tc.outcomes); err != nil {
			t.Fatalf("Tally(%s): %v", tc.room, err)
		}
	}
	want := map[string]ratings.Results{
		"a": {Won: 2, Drawn: 1, Lost: 1}, "b": {Drawn: 1, Lost: 1}, "c": {Won: 1, Lost: 1}, "nobody": {},
	}
	for id, w := range want {
		if got := results(t, s, id); got != w {
			t.Errorf("Results(%s) = %+v, want %+v", id, got, w)
		}
	}
	for _, bad := range []struct {
		room     string
		outcomes map[string]ratings.Outcome
	}{
		{"", map[string]ratings.Outcome{"a": ratings.Won}},
		{"t5", map[string]ratings.Outcome{"": ratings.Won}},
		{"t6", map[string]ratings.Outcome{"a": ratings.Won + 1}},
		{"t7", map[string]ratings.Outcome{"a": ratings.Won, "b": -1}},
	} {
		if err := s.Tally(ctx, bad.room, bad.outcomes); err == nil {
			t.Errorf("Tally(%q, %v) = nil, want an error", bad.room, bad.outcomes)
		}
	}
	if got := results(t, s, "a"); got != want["a"] {
		t.Fatalf("Results(a) after refused tallies = %+v, want %+v", got, want["a"])
	}
	// A refused tally did not mark its room: the right one counts.
	if err := s.Tally(ctx, "t7", map[string]ratings.Outcome{"a": ratings.Won}); err != nil {
		t.Fatal(err)
	}
	if got := results(t, s, "a"); got.Won != 3 {
		t.Fatalf("Results(a).Won = %d after a tally of a room once refused, want 3", got.Won)
	}
}

func testBest(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	scores := []struct {
		id, name string
		score    int64
	}{
		{"a", "Ana", 1200}, {"b", "Bia", 3000}, {"a", "Ana", 800}, {"c", "Caio", 2000}, {"c", "Caio", 2500},
	}
	for _, sc := range scores {
		if err := s.Best(ctx, sc.id, sc.name, sc.score); err != nil {
			t.Fatalf("Best(%s, %d): %v", sc.id, sc.score, err)
		}
	}
	if err := s.Best(ctx, "d", "Dora", -1); err == nil {
		t.Fatal("Best with a negative score = nil, want an error")
	}
	if err := s.Best(ctx, "", "Nobody", 10); err == nil {
		t.Fatal("Best without an id = nil, want an error")
	}
	for id, want := range map[string]int64{"a": 1200, "b": 3000, "c": 2500, "d": 0, "nobody": 0} {
		if got, err := s.BestScore(ctx, id); err != nil || got != want {
			t.Errorf("BestScore(%s) = %d, %v; want %d", id, got, err, want)
		}
	}
	tests := []struct {
		n    int
		want []ratings.Score
	}{
		{10, []ratings.Score{{ID: "b", Name: "Bia", Score: 3000}, {ID: "c", Name: "Caio", Score: 2500}, {ID: "a", Name: "Ana", Score: 1200}}},
		{2, []ratings.Score{{ID: "b", Name: "Bia", Score: 3000}, {ID: "c", Name: "Caio", Score: 2500}}},
		{0, nil},
	}
	for _, tc := range tests {
		got, err := s.BestScores(ctx, tc.n)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("BestScores(%d) = %+v, %v; want %+v", tc.n, got, err, tc.want)
		}
	}
}

func testLadder(t *testing.T, s ratings.Store) {
	ctx := ctxT(t)
	list := func(f func(context.Context, string) ([]string, error), key string) []string {
		t.Helper()
		ids, err := f(ctx, key)
		if err != nil {
			t.Fatalf("ladder list of %s: %v", key, err)
		}
		slices.Sort(ids)
		return ids
	}
	steps := []struct {
		join       bool
		pool, id   string
		ladder     []string // pool's entrants after the step
		ladders    []string // id's pools after the step
		otherEmpty bool
	}{
		{true, "go/9", "bot.x", []string{"bot.x"}, []string{"go/9"}, false},
		{true, "go/9", "bot.x", []string{"bot.x"}, []string{"go/9"}, false}, // idempotent
		{true, "go/9", "bot.y", []string{"bot.x", "bot.y"}, []string{"go/9"}, false},
		{true, "orbito/2", "bot.x", []string{"bot.x"}, []string{"go/9", "orbito/2"}, false},
		{false, "go/9", "bot.x", []string{"bot.y"}, []string{"orbito/2"}, false},
		{false, "go/9", "bot.x", []string{"bot.y"}, []string{"orbito/2"}, false}, // idempotent
		{false, "orbito/2", "bot.x", nil, nil, false},
	}
	for i, st := range steps {
		var err error
		if st.join {
			err = s.JoinLadder(ctx, st.pool, st.id)
		} else {
			err = s.LeaveLadder(ctx, st.pool, st.id)
		}
		if err != nil {
			t.Fatalf("step %d (join %v %s %s): %v", i, st.join, st.pool, st.id, err)
		}
		if got := list(s.Ladder, st.pool); !slices.Equal(got, st.ladder) {
			t.Fatalf("step %d: Ladder(%s) = %v, want %v", i, st.pool, got, st.ladder)
		}
		if got := list(s.Ladders, st.id); !slices.Equal(got, st.ladders) {
			t.Fatalf("step %d: Ladders(%s) = %v, want %v", i, st.id, got, st.ladders)
		}
	}
	if err := s.JoinLadder(ctx, "", "bot.x"); err == nil {
		t.Fatal("JoinLadder with no pool = nil, want an error")
	}
	if err := s.JoinLadder(ctx, "go/9", ""); err == nil {
		t.Fatal("JoinLadder with no id = nil, want an error")
	}
	// A bot is in at most MaxLadders ladders.
	for i := range ratings.MaxLadders {
		if err := s.JoinLadder(ctx, fmt.Sprint("g/", i), "bot.many"); err != nil {
			t.Fatalf("JoinLadder %d: %v", i, err)
		}
	}
	if err := s.JoinLadder(ctx, "g/again", "bot.many"); err == nil {
		t.Fatalf("JoinLadder past MaxLadders (%d) = nil, want an error", ratings.MaxLadders)
	}
	if err := s.JoinLadder(ctx, "g/0", "bot.many"); err != nil {
		t.Fatalf("JoinLadder of a pool the bot is in, at MaxLadders: %v", err)
	}
	if got := list(s.Ladders, "bot.many"); len(got) != ratings.MaxLadders {
		t.Fatalf("Ladders(bot.many) has %d pools, want %d", len(got), ratings.MaxLadders)
	}
}

func testContextCancelled(t *testing.T, s ratings.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := game("x", "a", "b", 1, t0)
	if _, _, err := s.Apply(ctx, g, glicko(g)); err == nil {
		t.Error("Apply with a cancelled context = nil error")
	}
	if err := s.Owe(ctx, "x"); err == nil {
		t.Error("Owe with a cancelled context = nil error")
	}
	if err := s.Tally(ctx, "x", map[string]ratings.Outcome{"a": ratings.Won}); err == nil {
		t.Error("Tally with a cancelled context = nil error")
	}
	if _, err := s.Rating(ctx, pool, "a"); err == nil {
		t.Error("Rating with a cancelled context = nil error")
	}
	if _, err := s.Changes(context.Background(), "x"); !errors.Is(err, ratings.ErrNotFound) {
		t.Errorf("Changes(x) after cancelled calls: %v, want ErrNotFound", err)
	}
}
