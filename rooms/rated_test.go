package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestCreateRated: Create refuses a rated game with a seat that cannot be
// rated or where there is no rating to change, and changes nothing; a rated
// game between bot accounts starts with their ratings in the seats.
func TestCreateRated(t *testing.T) {
	st := memstore.New()
	m, _ := startManager(t, Config{Store: st}, 1)
	ctx := context.Background()
	botA, botB := players.Of(players.BotID("a"), "alfa"), players.Of(players.BotID("b"), "beta")
	guest := players.Of(players.GuestID("g"), "guest")
	if err := st.SavePlayer(ctx, players.Identity{ID: guest.ID, Name: guest.Name, TokenHash: "g"}, false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		spec Spec
	}{
		{"the server's bot", Spec{Seats: []players.Player{botA, players.ServerBot("one", "bot one")}}},
		{"a guest", Spec{Seats: []players.Player{botA, guest}}},
		{"an unknown player", Spec{Seats: []players.Player{botA, players.Of("nobody", "nobody")}}},
		{"only bots watched", Spec{Seats: []players.Player{botA, botB}, Watch: true}},
		{"a set-up position", Spec{Seats: []players.Player{botA, botB}, Setup: json.RawMessage(`{"total":3}`)}},
	} {
		tt.spec.Game, tt.spec.Variant, tt.spec.Rated = "race5", "5", true
		_, err := m.Create(ctx, tt.spec)
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodeBadRequest {
			t.Errorf("%s: Create = %v, want bad_request", tt.name, err)
		}
	}
	if m.Len() != 0 {
		t.Fatalf("%d rooms after refusals", m.Len())
	}
	if _, _, err := st.Apply(ctx, ratings.Game{Room: "before", Pool: "race5/5", Score: 1, Ended: time.Now(),
		Sides: [2]ratings.Side{{ID: botA.ID, Bot: true}, {ID: players.BotID("c"), Bot: true}}},
		func(a, b ratings.Rating) (ratings.Rating, ratings.Rating) { return ratings.Update(a, b, 1, time.Now()) }); err != nil {
		t.Fatal(err)
	}
	a, b := newMember(1, botA.ID), newMember(2, botB.ID)
	r, err := m.Create(ctx, Spec{Game: "race5", Variant: "5", Rated: true, Seats: []players.Player{botA, botB},
		Join: []JoinAs{{M: a, As: RolePlayer}, {M: b, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	got := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	wantA, _ := st.Rating(ctx, "race5/5", botA.ID)
	if !got.Rated || got.Players[0].Rating != wantA.Shown() || got.Players[0].Rating <= 1500 ||
		got.Players[1].Rating != 1500 || !got.Players[1].Provisional {
		t.Fatalf("rated room's state: rated %v, seats %+v; want %d and 1500?", got.Rated, got.Players, wantA.Shown())
	}

	// The rater's changes: the seats' new ratings and ratingChanges.
	before := ratings.New()
	after := before
	after.Rating, after.Deviation = 1600.4, 100
	changes := [2]ratings.Change{{ID: botA.ID, Before: wantA, After: after}, {ID: botB.ID, Before: before, After: before}}
	if !m.PostRatings(r.ID(), changes) {
		t.Fatal("PostRatings: the room is not running")
	}
	shown := a.waitState(t, func(s protocol.RoomState) bool { return len(s.RatingChanges) == 2 })
	if c := shown.RatingChanges[0]; c.Seat != 0 || c.ID != botA.ID || c.After != 1600 || c.Before != wantA.Shown() ||
		c.Diff != 1600-wantA.Shown() || c.Provisional || shown.Players[0].Rating != 1600 || shown.Players[0].Provisional {
		t.Fatalf("after the changes: %+v, seats %+v", shown.RatingChanges, shown.Players)
	}
	if m.PostRatings("no-such-room", changes) {
		t.Fatal("PostRatings to a room that does not run here")
	}
}
