package memstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/players/playerstest"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/ratings/ratingstest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, ttl storetest.TTLs) store.Store {
		return memstore.New(memstore.WithRetention(ttl.Retention), memstore.WithIdleRoomTTL(ttl.IdleRoom),
			memstore.WithGuestTTL(ttl.Guest))
	})
}

func TestRatingsConformance(t *testing.T) {
	ratingstest.Run(t, func(t *testing.T) ratings.Store { return memstore.New() })
}

func TestPlayersConformance(t *testing.T) {
	playerstest.Run(t, func(t *testing.T, guestTTL time.Duration) players.Store {
		return memstore.New(memstore.WithIdleRoomTTL(guestTTL), memstore.WithGuestTTL(guestTTL))
	})
}

// TestExpiredRoomsAreSwept checks that finished rooms nobody reads again do
// not stay in memory: a later save sweeps them.
func TestExpiredRoomsAreSwept(t *testing.T) {
	ctx := context.Background()
	s := memstore.New(memstore.WithRetention(20 * time.Millisecond))
	for i, id := range []string{"a", "b", "c"} {
		if err := s.SaveRoom(ctx, store.Room{ID: id, Seq: int64(i + 1), Finished: true}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if err := s.SaveRoom(ctx, store.Room{ID: "d", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if n := memstore.RoomCount(s); n != 1 {
		t.Fatalf("%d rooms in memory after the sweep, want 1", n)
	}
	if _, err := s.LoadRoom(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LoadRoom(a) = %v, want ErrNotFound", err)
	}
}

// TestExpiredGuestsAndIdleRoomsAreSwept: identities and unfinished rooms
// nobody uses again leave memory at a later write, not only when read: a
// client making guests by the thousand does not grow the store for ever.
func TestExpiredGuestsAndIdleRoomsAreSwept(t *testing.T) {
	ctx := context.Background()
	s := memstore.New(memstore.WithIdleRoomTTL(20*time.Millisecond), memstore.WithGuestTTL(20*time.Millisecond))
	for i := range 100 {
		hash := fmt.Sprint("h", i)
		if err := s.SavePlayer(ctx, players.Identity{ID: players.GuestID(hash), TokenHash: hash}, false); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveRoom(ctx, store.Room{ID: hash, Seq: 1, Players: []string{players.GuestID(hash)}, Live: true}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if err := s.SavePlayer(ctx, players.Identity{ID: players.GuestID("new"), TokenHash: "new"}, false); err != nil {
		t.Fatal(err)
	}
	if n, r := memstore.PlayerCount(s), memstore.RoomCount(s); n != 1 || r != 0 {
		t.Fatalf("%d identities and %d rooms in memory after the sweep, want 1 and 0", n, r)
	}
}

func TestDefaultRetention(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	if err := s.SaveRoom(ctx, store.Room{ID: "r", Seq: 1, Finished: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadRoom(ctx, "r"); err != nil {
		t.Fatalf("a finished room under the default retention (%v) is gone: %v", store.DefaultRetention, err)
	}
}

// BenchmarkSaveRoom is the in-memory counterpart of redisstore's benchmark:
// one move (a 2 KiB snapshot, one log entry, two players, live) per op.
func BenchmarkSaveRoom(b *testing.B) {
	s := memstore.New()
	ctx := context.Background()
	snap := make([]byte, 2048)
	seq := int64(0)
	for b.Loop() {
		seq++
		err := s.SaveRoom(ctx, store.Room{ID: "bench", Seq: seq, Snapshot: snap,
			Append: [][]byte{[]byte(`{"seat":0,"move":"a1"}`)}, Players: []string{"a", "b"}, Live: true, UpdatedAt: time.Now()})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func TestRecordsConformance(t *testing.T) {
	storetest.RunRecords(t, func(t *testing.T, retention time.Duration) store.Records {
		return memstore.NewRecords(memstore.WithRecordRetention(retention))
	})
}
