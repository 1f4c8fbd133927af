package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/players"
)

// TestIndexSkeletonsOfOlderAccounts: accounts made (and names held) before
// the store kept the skeletons of their names get them at the first
// IndexSkeletons, once; a guest's look-alike name is then found as for a
// new account.
func TestIndexSkeletonsOfOlderAccounts(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	s := newStore(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw := redis.NewClient(&redis.Options{Addr: addr})
	defer raw.Close()
	made := func(name, hash string) players.Identity {
		g := players.Identity{ID: players.GuestID(hash), Name: name, TokenHash: hash}
		if err := s.SavePlayer(ctx, g, false); err != nil {
			t.Fatal(err)
		}
		a := players.Identity{ID: g.ID, Name: name, PasswordHash: "$argon2id$" + hash, Joined: 1}
		if err := s.CreateAccount(ctx, a, hash); err != nil {
			t.Fatal(err)
		}
		return a
	}
	made("Kate", "hash-kate")
	closed := made("mia", "hash-mia")
	if err := s.CloseAccount(ctx, closed.ID, time.Hour); err != nil {
		t.Fatal(err)
	}
	// As a store before the skeletons: none of them.
	for _, name := range []string{"Kate", "mia"} {
		for _, k := range players.Skeletons(name) {
			if err := raw.Del(ctx, s.SkeletonKey(k)).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if held, err := s.SkeletonHeld(ctx, players.Skeletons("k\u0430te"), ""); err != nil || held {
		t.Fatalf("before the index: held %v, %v", held, err)
	}
	if n, err := s.IndexSkeletons(ctx); err != nil || n != 1 {
		t.Fatalf("IndexSkeletons = %d, %v; want the one live account", n, err)
	}
	for _, name := range []string{"k\u0430te", "KATE", "rnia"} {
		if held, err := s.SkeletonHeld(ctx, players.Skeletons(name), ""); err != nil || !held {
			t.Fatalf("after the index, %q: held %v, %v; want held", name, held, err)
		}
	}
	if ttl, err := raw.PTTL(ctx, s.SkeletonKey("rnia")).Result(); err != nil || ttl <= 0 || ttl > time.Hour {
		t.Fatalf("the held name's skeleton: TTL %v, %v; want what is left of its hold", ttl, err)
	}
	if n, err := s.IndexSkeletons(ctx); err != nil || n != 0 {
		t.Fatalf("IndexSkeletons again = %d, %v; want 0 (done once)", n, err)
	}
}
