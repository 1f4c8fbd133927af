package redisstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestRatingsKeys: every key of the ratings is in one slot (so that Apply's
// script runs on a Cluster), the marks of applied and tallied rooms and a
// player's results expire with the records' retention, and the curve keeps
// the last HistoryLimit points.
func TestRatingsKeys(t *testing.T) {
	addr := redistest.Start(t)
	const retention = time.Hour
	s := newStore(t, addr, redisstore.WithRecordRetention(retention))
	defer s.Close()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	ctx := context.Background()

	now := time.Now()
	g := ratings.Game{Room: "r1", Pool: "go/9", Score: 1, Ended: now,
		Sides: [2]ratings.Side{{ID: "a", Name: "Ana"}, {ID: "bot.b", Name: "B", Bot: true}}}
	settled := ratings.Rating{Rating: 1700, Deviation: 50, Volatility: 0.06, Games: 40, Last: now.UnixMilli()}
	if _, ok, err := s.Apply(ctx, g, func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) { return settled, settled }); err != nil || !ok {
		t.Fatalf("Apply = %v, %v", ok, err)
	}
	if err := s.Tally(ctx, "r1", map[string]ratings.Outcome{"a": ratings.Won, "bot.b": ratings.Lost}); err != nil {
		t.Fatal(err)
	}
	if err := s.Owe(ctx, "r2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Best(ctx, "a", "Ana", 2048); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinLadder(ctx, "go/9", "bot.b"); err != nil {
		t.Fatal(err)
	}

	want := []string{s.RatingsKey("a"), s.RatingsKey("bot.b"), s.HistoryKey("go/9", "a"), s.HistoryKey("go/9", "bot.b"),
		s.BoardKey("go/9", false), s.BoardKey("go/9", true), s.AppliedKey("r1"), s.TalliedKey("r1"),
		s.ResultsKey("a"), s.ResultsKey("bot.b"), s.OwedKey(), s.BestKey(), s.BestNamesKey(),
		s.LadderKey("go/9"), s.LaddersKey("bot.b")}
	slot := keySlot(s.OwedKey())
	for _, k := range want {
		if n := c.Exists(ctx, k).Val(); n != 1 {
			t.Errorf("key %s not written", k)
		}
		if keySlot(k) != slot {
			t.Errorf("key %s in slot %d, the owed set in %d", k, keySlot(k), slot)
		}
	}
	for _, k := range []string{s.AppliedKey("r1"), s.TalliedKey("r1"), s.ResultsKey("a"), s.ResultsKey("bot.b")} {
		if ttl := c.PTTL(ctx, k).Val(); ttl <= retention-time.Minute || ttl > retention {
			t.Errorf("PTTL %s = %v, want about %v", k, ttl, retention)
		}
	}
	// The boards hold each player in their own: a person's and a bot's.
	if ids := c.ZRange(ctx, s.BoardKey("go/9", true), 0, -1).Val(); len(ids) != 1 || ids[0] != "bot.b" {
		t.Errorf("bots' board = %v, want [bot.b]", ids)
	}
	if name := c.HGet(ctx, s.RatingsKey("a"), ":name").Val(); name != "Ana" {
		t.Errorf("name kept for the board lines = %q, want Ana", name)
	}
}

// TestRatedSaveOneRoundTrip: the owed mark of a rated game's end goes in
// its save's round trip.
func TestRatedSaveOneRoundTrip(t *testing.T) {
	addr := redistest.Start(t)
	s, h, _ := countingStore(t, addr)
	ctx := context.Background()
	save := func(id string) {
		t.Helper()
		err := s.SaveRoom(ctx, store.Room{ID: id, Seq: 1, Snapshot: []byte("over"), Append: [][]byte{[]byte("m")},
			Players: []string{"a", "b"}, Finished: true, UpdatedAt: time.Now(),
			Record: &store.RecordEntry{Room: id, Data: []byte("rec"), Players: []string{"a", "b"}, Ended: time.Now(), Rated: true}})
		if err != nil {
			t.Fatal(err)
		}
	}
	save("warm") // may load the script
	h.n.Store(0)
	save("r")
	if n := h.n.Load(); n != 1 {
		t.Fatalf("a rated finishing save took %d round trips, want 1", n)
	}
	owed, err := s.Owed(ctx, 10)
	slices.Sort(owed)
	if err != nil || !slices.Equal(owed, []string{"r", "warm"}) {
		t.Fatalf("Owed = %v, %v; want r and warm", owed, err)
	}
}
