package hub

import (
	"context"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestRoomBeingMadeAndSavedCountsOnce: a room the hub is still creating
// for a player may already be in the store's list of the player's rooms
// (the room saved itself and answered room.joined before the creator's
// reservation was released); the player's other connection asking for one
// more room then must count it once, not twice.
func TestRoomBeingMadeAndSavedCountsOnce(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	h := testHub(t, Config{Catalog: games.Catalog(), Store: st, MaxPlayerRooms: 2})
	c := &conn{h: h, playerID: "pana"}
	release, perr := h.reserveRoom(ctx, c, "r1")
	if perr != nil {
		t.Fatalf("first room: %v", perr)
	}
	defer release()
	if err := st.SaveRoom(ctx, store.Room{ID: "r1", Seq: 1, Snapshot: []byte(`{}`), Players: []string{"pana"},
		UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		room    string
		wantErr bool
	}{
		{"a second room, while the first is still being made", "r2", false},
		{"the first room joined again: held already", "r1", false},
	}
	for _, tc := range tests {
		rel, perr := h.reserveRoom(ctx, c, tc.room)
		if (perr != nil) != tc.wantErr {
			t.Fatalf("%s: error %v, want error %v", tc.name, perr, tc.wantErr)
		}
		if perr == nil {
			defer rel()
		}
	}
	if _, perr := h.reserveRoom(ctx, c, "r3"); perr == nil {
		t.Fatal("a third room past the cap of 2 was let through")
	}
}
