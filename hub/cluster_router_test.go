package hub

import (
	"context"
	"testing"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// memNode is one node of an in-process cluster: its rooms' Manager and its
// hub, on a store and a broker shared with the other nodes.
func memNode(t *testing.T, st *memstore.Store, b *broker.Memory, node string) (*Hub, *rooms.Manager) {
	t.Helper()
	var h *Hub
	m := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Log: zap.NewNop(),
		Cluster: &rooms.Cluster{Leases: st, Node: node,
			OnFenced: func(room string, ms []rooms.JoinAs) { h.OnFenced()(room, ms) }}})
	h = New(Config{Rooms: m, Catalog: games.Catalog(), Store: st, Log: zap.NewNop(),
		Cluster: &Cluster{Broker: b, Leases: st, Node: node, Liveness: b}})
	if err := h.StartCluster(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = h.Shutdown(context.Background(), protocol.CloseRestart, "")
		_ = m.Shutdown(context.Background())
	})
	return h, m
}

// TestClusterRouterTakesOverDeadNode: through the cluster's Router, a node
// reaches a room another node serves (forwarded, acknowledged); once that
// node's liveness key is gone, the next message takes the room over (a new
// lease epoch: at once, or after one unanswered forward while this node's
// last answer about the key, at most LiveEvery old, still said alive),
// although the lease has most of its 10 s to run. Two nodes in one process
// on the memory store and broker; no sockets.
func TestClusterRouterTakesOverDeadNode(t *testing.T) {
	st := memstore.New()
	b := broker.NewMemory(0)
	defer b.Close()
	ha, ma := memNode(t, st, b, "a")
	hb, mb := memNode(t, st, b, "b")
	ctx := context.Background()

	r, err := ma.Create(ctx, rooms.Spec{Game: "orbito", Variant: "2", Seats: []rooms.Seat{{PlayerID: "p-ana", Name: "ana"}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	room := r.ID()
	if holder, epoch, err := st.LeaseHolder(ctx, room); err != nil || holder != "a" || epoch != 1 {
		t.Fatalf("lease %q %d %v; want a's, epoch 1", holder, epoch, err)
	}
	// bia, on b, joins the room a serves: forwarded, taken there.
	bia := socketless(hb, "p-bia")
	if perr := hb.router.Route(ctx, bia, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: rooms.RoleSpectator}); perr != nil {
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
	cai := socketless(hb, "p-cai")
	cai.id = 8
	if perr := hb.router.Route(ctx, cai, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: room, As: rooms.RoleSpectator}); perr != nil {
		t.Fatalf("join through b after a died: %v", perr)
	}
	if _, ok := mb.Running(room); !ok {
		t.Fatal("b did not take the room over")
	}
	if holder, epoch, err := st.LeaseHolder(ctx, room); err != nil || holder != "b" || epoch != 2 {
		t.Fatalf("lease %q %d %v; want b's, epoch 2", holder, epoch, err)
	}
}
