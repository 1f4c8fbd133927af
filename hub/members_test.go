package hub

import (
	"context"
	"slices"
	"testing"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestMembershipIndex: the hub's one index of rooms follows what the rooms
// report (a real room's join and leave) and what the several-nodes layer
// reports of rooms elsewhere; a connection's count, the members of a room
// elsewhere, and what a closing connection tells come from it alone.
func TestMembershipIndex(t *testing.T) {
	st := memstore.New()
	m := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Log: zap.NewNop()})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	h := testHub(t, Config{Rooms: m, Catalog: games.Catalog(), Store: st})
	rr := &recRouter{}
	h.router = rr
	ana := socketless(h, "ana")
	bia := socketless(h, "bia")
	bia.id = 8
	r, err := m.Create(context.Background(), rooms.Spec{Game: "orbito", Variant: "2",
		Seats: []players.Player{{ID: "ana", Name: "ana"}, {}}, Join: []rooms.JoinAs{{M: ana, As: rooms.RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	// The room reports the join on its goroutine, before any command:
	// one answered command after it says it has.
	if _, ok := r.Stats(); !ok {
		t.Fatal("room closed")
	}

	ana.JoinedElsewhere("far", rooms.RoleSpectator)
	bia.JoinedElsewhere("far", rooms.RolePlayer)
	ana.JoinedElsewhere("away", rooms.RolePlayer)
	// A room elsewhere does not replace the same room running here.
	ana.JoinedElsewhere(r.ID(), rooms.RoleSpectator)
	ana.LeftElsewhere(r.ID())

	for _, tc := range []struct {
		c    *conn
		room string
		n    int
		in   bool
	}{
		{ana, r.ID(), 3, true},
		{ana, "far", 3, true},
		{ana, "nowhere", 3, false},
		{bia, "far", 1, true},
		{bia, r.ID(), 1, false},
	} {
		if n, in := tc.c.inRooms(tc.room); n != tc.n || in != tc.in {
			t.Errorf("%s in %s: %d %v, want %d %v", tc.c.playerID, tc.room, n, in, tc.n, tc.in)
		}
	}
	got := []string{}
	for _, mb := range h.MembersElsewhere("far") {
		got = append(got, mb.Client.PlayerID()+" "+mb.As)
	}
	slices.Sort(got)
	if want := []string{"ana spectator", "bia player"}; !slices.Equal(got, want) {
		t.Errorf("elsewhere far %q, want %q", got, want)
	}
	if got := h.MembersElsewhere(r.ID()); len(got) != 0 {
		t.Errorf("elsewhere %s %v, want none (it runs here)", r.ID(), got)
	}

	// Leaving the room here: the room reports it, and closes (nobody is
	// left in a game not started), after.
	if !r.Leave(ana, nil) {
		t.Fatal("room closed")
	}
	<-r.Done()
	if n, in := ana.inRooms(r.ID()); n != 2 || in {
		t.Errorf("ana after leaving %s: %d %v, want 2 false", r.ID(), n, in)
	}

	bia.LeftElsewhere("far")
	if got := h.MembersElsewhere("far"); len(got) != 1 || got[0].Client != ana {
		t.Errorf("elsewhere far after bia left: %v, want ana alone", got)
	}

	// ana closes: the Router is told of each room elsewhere, and the
	// index keeps nothing of it, nor takes it again.
	h.wg.Add(1)
	ana.cleanup()
	slices.Sort(rr.gone)
	if want := []string{"away ana", "far ana"}; !slices.Equal(rr.gone, want) {
		t.Errorf("gone %q, want %q", rr.gone, want)
	}
	if ana.JoinedElsewhere("far", rooms.RolePlayer) {
		t.Error("a closed connection joined a room")
	}
	if n, _ := ana.inRooms(""); n != 0 || len(h.MembersElsewhere("far")) != 0 {
		t.Errorf("closed connection still indexed: %d rooms, far %v", n, h.MembersElsewhere("far"))
	}
}
