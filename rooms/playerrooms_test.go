package rooms

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestRoomBeingMadeAndSavedCountsOnce: a room still being made for a
// player may already be in the store's list of the player's rooms (the
// room saved itself before the reservation was released); the player's
// next room then must count it once, not twice.
func TestRoomBeingMadeAndSavedCountsOnce(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	m := NewManager(Config{Catalog: games.Catalog(), Store: st, MaxPlayerRooms: 2})
	release, err := m.reserve(ctx, "r1", "pana", []string{"pana"}, nil)
	if err != nil {
		t.Fatalf("first room: %v", err)
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
		rel, err := m.reserve(ctx, tc.room, "pana", []string{"pana"}, nil)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: error %v, want error %v", tc.name, err, tc.wantErr)
		}
		if err == nil {
			defer rel()
		}
	}
	if _, err := m.reserve(ctx, "r3", "pana", []string{"pana"}, nil); !errors.Is(err, ErrTooManyRooms) {
		t.Fatalf("a third room past the cap of 2: %v, want ErrTooManyRooms", err)
	}
}

// TestCreateAppliesTheCapToEverySeat: Create refuses a room that would
// give any of its seated players, a bot account too, one room past the
// cap, saying who; a level's seat counts for nobody, and a refused room
// leaves nothing in the store.
func TestCreateAppliesTheCapToEverySeat(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	m := NewManager(Config{Catalog: games.Catalog(), Store: st, MaxPlayerRooms: 1})
	defer m.Shutdown(ctx)
	seat := func(id, name string) players.Player { return players.Of(id, name) }
	if _, err := m.Create(ctx, Spec{Game: "morris", Variant: "3", For: "pana",
		Seats: []players.Player{seat("pana", "ana"), seat("bot.robo", "robo")}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		spec  Spec
		words string // "" for a room made
	}{
		{"the asker at the cap", Spec{For: "pana", Seats: []players.Player{seat("pana", "ana"), seat("pbia", "bia")}}, "you have 1 unfinished games"},
		{"the bot at the cap", Spec{For: "pcai", Seats: []players.Player{seat("pcai", "cai"), seat("bot.robo", "robo")}}, "robo has 1 unfinished games"},
		{"a rematch agreed, the other at the cap", Spec{For: "pbia", Seats: []players.Player{seat("pbia", "bia"), seat("pana", "ana")}}, "ana has 1 unfinished games"},
		{"a tournament's game", Spec{Seats: []players.Player{seat("bot.robo", "robo"), {Bot: "facil", Name: "facil"}}}, "robo has 1 unfinished games"},
		{"bots' levels only", Spec{Watch: true, Seats: []players.Player{{Bot: "facil"}, {Bot: "facil"}}}, ""},
	}
	for _, tc := range tests {
		tc.spec.Game, tc.spec.Variant = "morris", "3"
		r, err := m.Create(ctx, tc.spec)
		switch {
		case tc.words == "" && err != nil:
			t.Errorf("%s: %v, want a room", tc.name, err)
		case tc.words != "" && (!errors.Is(err, ErrTooManyRooms) || !strings.Contains(err.Error(), tc.words)):
			t.Errorf("%s: %v, want ErrTooManyRooms saying %q", tc.name, err, tc.words)
		case tc.words != "" && r != nil:
			t.Errorf("%s: a room was made", tc.name)
		}
	}
	for _, p := range []string{"pbia", "pcai"} {
		if ids, err := st.PlayerRooms(ctx, p); err != nil || len(ids) != 0 {
			t.Errorf("%s's rooms after the refusals: %v %v", p, ids, err)
		}
	}
}
