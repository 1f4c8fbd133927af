package redisstore_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/players/playerstest"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/ratings/ratingstest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
	"github.com/tabuleiro/tabuleiro/store/storetest"
)

var prefixes atomic.Int64

// openURL opens a store on one of New's URL forms under a prefix of its own.
func openURL(t *testing.T, url string, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	return open(t, url, fmt.Sprintf("t%d:", prefixes.Add(1)), opts...)
}

// The conformance suite on a three-master Cluster: every save script touches
// the keys of one room only (one slot), and the index commands in the same
// pipeline go to other nodes.
func TestConformanceCluster(t *testing.T) {
	t.Parallel()
	c := redistest.StartCluster(t, 3)
	storetest.Run(t, func(t *testing.T, ttl storetest.TTLs) store.Store {
		return openURL(t, c.URL(), ttlOptions(ttl)...)
	})
}

// The ratings' suite on a Cluster: every key has the {ratings} hash tag, so
// each script runs on one slot.
func TestRatingsConformanceCluster(t *testing.T) {
	t.Parallel()
	c := redistest.StartCluster(t, 3)
	ratingstest.Run(t, func(t *testing.T) ratings.Store { return openURL(t, c.URL()) })
}

// The players' suite on a Cluster: every script touches one key.
func TestPlayersConformanceCluster(t *testing.T) {
	c := redistest.StartCluster(t, 3)
	playerstest.Run(t, func(t *testing.T, guestTTL time.Duration) players.Store {
		return openURL(t, c.URL(), redisstore.WithIdleRoomTTL(guestTTL), redisstore.WithGuestTTL(guestTTL))
	})
}

// Rooms of a Cluster store spread over every node (the hash tag groups one
// room's keys, not all rooms).
func TestClusterSpreadsRooms(t *testing.T) {
	t.Parallel()
	c := redistest.StartCluster(t, 3)
	s := openURL(t, c.URL())
	defer s.Close()
	ctx := context.Background()
	for i := range 60 {
		r := store.Room{ID: fmt.Sprintf("room%d", i), Seq: 1, Snapshot: []byte("s"), Append: [][]byte{[]byte("m")},
			Players: []string{"a"}, Live: true, UpdatedAt: time.Now()}
		if err := s.SaveRoom(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range c.Nodes {
		cl := redis.NewClient(&redis.Options{Addr: n.Addr()})
		keys, err := cl.Keys(ctx, "*room:{*").Result()
		cl.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) == 0 {
			t.Errorf("node %s holds no room keys: the rooms do not spread", n.Addr())
		}
	}
	live, err := s.LiveRooms(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 60 {
		t.Errorf("LiveRooms: got %d rooms, want 60", len(live))
	}
}

// The conformance suite through a Sentinel (the failover client).
func TestConformanceSentinel(t *testing.T) {
	t.Parallel()
	st := redistest.StartSentinel(t)
	storetest.Run(t, func(t *testing.T, ttl storetest.TTLs) store.Store {
		return openURL(t, st.URL(), ttlOptions(ttl)...)
	})
}

// When the master dies, the sentinel promotes the replica and the store goes
// on writing to it; what the replica had received is kept.
func TestSentinelFailover(t *testing.T) {
	t.Parallel()
	st := redistest.StartSentinel(t)
	s := openURL(t, st.URL())
	defer s.Close()
	ctx := context.Background()
	saveMoves(t, s, 1, 3)
	// Wait until the replica has the third move, so the failover keeps it.
	rc := redis.NewClient(&redis.Options{Addr: st.Replica.Addr()})
	defer rc.Close()
	// Generous bounds: they say what must happen, not how fast (machines
	// here are shared and sometimes saturated).
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, _ := rc.LLen(ctx, s.LogKey("game")).Result()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica has %d log entries, want 3", n)
		}
		time.Sleep(20 * time.Millisecond)
	}

	st.Master.Stop()
	// Saves fail until the sentinel has promoted the replica, then succeed.
	deadline = time.Now().Add(120 * time.Second)
	failed := 0
	for {
		err := s.SaveRoom(ctx, gameMove(4))
		if err == nil {
			break
		}
		failed++
		if time.Now().After(deadline) {
			t.Fatalf("no failover within 120s: %d failed saves, last: %v", failed, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%d saves refused during the failover", failed)
	if role, err := rc.Do(ctx, "ROLE").Slice(); err != nil || role[0] != "master" {
		t.Errorf("the old replica's role: %v (%v), want master", role, err)
	}
	r, err := s.LoadRoom(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 4 || !bytes.Equal(r.Snapshot, []byte("after move 4")) {
		t.Errorf("after failover: seq %d snapshot %q, want 4 %q", r.Seq, r.Snapshot, "after move 4")
	}
	log, err := s.RoomLog(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range log {
		got = append(got, string(e))
	}
	if want := "move 1,move 2,move 3,move 4"; strings.Join(got, ",") != want {
		t.Errorf("log after failover: got %q, want %q", strings.Join(got, ","), want)
	}
}

func TestNewRejectsBadURLs(t *testing.T) {
	tests := []struct{ name, url string }{
		{"cluster unknown parameter", "redis+cluster://127.0.0.1:1?bogus=1"},
		{"sentinel unknown parameter", "redis://127.0.0.1:1/0?master_name=m&bogus=1"},
		{"bad scheme", "http://127.0.0.1:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s, err := redisstore.New(ctx, tc.url, "p:")
			if err == nil {
				s.Close()
				t.Fatalf("New(%q): no error", tc.url)
			}
			if !strings.Contains(err.Error(), "redis store") {
				t.Errorf("New(%q): error %q does not say it is the redis store", tc.url, err)
			}
		})
	}
}
