package memstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// TestTorneiosBounded: the store keeps at most store.MaxTorneios
// tournaments, the newest; an unfinished one expires after the idle-room
// TTL, a finished one after the retention.
func TestTorneiosBounded(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0)
	s := New(WithRetention(time.Hour), WithIdleRoomTTL(2*time.Hour))
	s.now = func() time.Time { return now }
	for i := range store.MaxTorneios + 10 {
		if err := s.SaveTorneio(ctx, store.Torneio{ID: fmt.Sprint("t", i), Data: []byte("{}"), Created: now.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	ids, _ := s.TorneioIDs(ctx, 2*store.MaxTorneios)
	if len(ids) != store.MaxTorneios || ids[0] != fmt.Sprint("t", store.MaxTorneios+9) {
		t.Fatalf("%d ids, first %s", len(ids), ids[0])
	}
	if _, err := s.LoadTorneio(ctx, "t0"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the oldest is still there: %v", err)
	}
	if err := s.SaveTorneio(ctx, store.Torneio{ID: "done", Data: []byte("{}"), Finished: true, Created: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(90 * time.Minute)
	if _, err := s.LoadTorneio(ctx, "done"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a finished tournament outlived the retention: %v", err)
	}
	if _, err := s.LoadTorneio(ctx, "t500"); err != nil {
		t.Errorf("an unfinished one expired before the idle-room TTL: %v", err)
	}
	now = now.Add(time.Hour)
	if ids, _ := s.TorneioIDs(ctx, 10); len(ids) != 0 {
		t.Errorf("after the idle-room TTL: %v", ids)
	}
}
