package records

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestRedisMemoryOfRecords writes the record TestEncodedSize measures
// (a finished 19x19 game of 360 moves with a clock and ten chat lines) for
// many games on a real Redis, and reads what Redis says they hold
// (MEMORY USAGE): the record keys and each player's index. docs/records.md
// quotes these figures for what a million games cost.
func TestRedisMemoryOfRecords(t *testing.T) {
	const games = 500
	data, err := Encode(longGoGame(t))
	if err != nil {
		t.Fatal(err)
	}
	addr := redistest.Start(t)
	ctx := context.Background()
	st, err := redisstore.New(ctx, "redis://"+addr, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs := st.Records().(*redisstore.Records)
	players := []string{"pQ3xk2Jd9LmN", "pZ8wq1Rt7YbV"}
	end := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	rooms := make([]string, games)
	for i := range rooms {
		rooms[i] = fmt.Sprintf("LMzKK%05d", i) // a 10-character room id, as NewID's
		e := store.RecordEntry{Room: rooms[i], Data: data, Players: players, Ended: end.Add(time.Duration(i) * time.Minute)}
		if err := recs.PutRecord(ctx, e); err != nil {
			t.Fatalf("PutRecord %d: %v", i, err)
		}
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	usage := func(key string) int64 {
		t.Helper()
		n, err := c.MemoryUsage(ctx, key, 0).Result() // SAMPLES 0: every element
		if err != nil {
			t.Fatalf("MEMORY USAGE %s: %v", key, err)
		}
		return n
	}
	var records int64
	for _, room := range rooms {
		records += usage(recs.RecordKey(room))
	}
	perRecord := float64(records) / games
	perEntry := float64(usage(recs.PlayerRecordsKey(players[0]))) / games
	perPublic := float64(usage(recs.PublicRecordsKey(players[0]))) / games
	t.Logf("a %d-byte record holds %.0f bytes of Redis (%.0f over its bytes); a player's index %.1f bytes a game, and %.1f more in the public index for a game that is not private",
		len(data), perRecord, perRecord-float64(len(data)), perEntry, perPublic)
	// What docs/records.md's estimate relies on: a record costs its bytes
	// and a bounded overhead (key, dictionary entry, expiry, allocator
	// rounding), not a multiple of them.
	if perRecord < float64(len(data)) || perRecord > float64(len(data))*1.5 {
		t.Errorf("a record holds %.0f bytes of Redis for %d bytes of data, want between 1 and 1.5 times", perRecord, len(data))
	}
	if perEntry > 128 || perPublic > 128 {
		t.Errorf("a player's indexes hold %.1f and %.1f bytes a game, want at most 128 each", perEntry, perPublic)
	}
}
