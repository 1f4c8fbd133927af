package cluster

import (
	"context"
	"testing"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// TestClusterRouterTakesOverDeadNode: through the cluster's Router, a node
// reaches a room another node serves (forwarded, acknowledged); once that
// node's liveness key is gone, the next message takes the room over (a new
// lease epoch: at once, or after one unanswered forward while this node's
// last answer about the key, at most LiveEvery old, still said alive),
// although the lease has most of its 10 s to run. Two nodes in one process
// on the memory store and broker; no sockets.
func TestClusterRouterTakesOverDeadNode(t *testing.T) {
	st, b, ns := memNodes(t, "a", "b")
	ha, ma := ns[0].h, ns[0].m
	mb, nb := ns[1].m, ns[1].n
	ctx := context.Background()

	r, err := ma.Create(ctx, rooms.Spec{Game: "orbito", Variant: "2", Seats: []players.Player{{ID: "p-ana", Name: "ana"}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	room := r.ID()
	if holder, epoch, err := st.LeaseHolder(ctx, room); err != nil || holder != "a" || epoch != 1 {
		t.Fatalf("lease %q %d %v; want a's, epoch 1", holder, epoch, err)
	}
	// bia, on b, joins the room a serves: forwarded, taken there.
	bia := newClient(7, "p-bia")
	if perr := (router{nb}).Route(ctx, bia, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: rooms.RoleSpectator}); perr != nil {
		t.Fatalf("join through b: %v", perr)
	}
	if _, ok := mb.Running(room); ok {
		t.Fatal("b serves the room while a is alive")
	}

	// a dies: its liveness key goes (its rooms' leases stay).
	if err := ha.Shutdown(ctx, protocol.CloseRestart, ""); err != nil {
		t.Fatal(err)
	}
	if alive, _ := b.Alive(ctx, "a"); alive {
		t.Fatal("a's liveness key outlived its hub")
	}
	if holder, _, err := st.LeaseHolder(ctx, room); err != nil || holder != "a" {
		t.Fatalf("lease %q %v; want still a's", holder, err)
	}
	cai := newClient(8, "p-cai")
	if perr := (router{nb}).Route(ctx, cai, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: rooms.RoleSpectator}); perr != nil {
		t.Fatalf("join through b after a died: %v", perr)
	}
	if _, ok := mb.Running(room); !ok {
		t.Fatal("b did not take the room over")
	}
	if holder, epoch, err := st.LeaseHolder(ctx, room); err != nil || holder != "b" || epoch != 2 {
		t.Fatalf("lease %q %d %v; want b's, epoch 2", holder, epoch, err)
	}
}
