package cluster

import (
	"encoding/json"
	"testing"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// TestMatchmakerPairsAcrossNodes: through the hub's Matchmaker seam, a
// player looking for a game on node a is queued in the shared queue; one
// looking on node b is paired with it: b makes the room, seats both, and
// answers its own client match.found before the room's frames. Two nodes
// in one process on the memory store and broker; no sockets.
func TestMatchmakerPairsAcrossNodes(t *testing.T) {
	_, _, ns := memNodes(t, "a", "b")
	na, mb, nb := ns[0].n, ns[1].m, ns[1].n
	key := hub.QueueKey{Game: "orbito", Variant: "2"}
	find := &protocol.ClientMessage{Type: protocol.TypeMatchFind, Game: key.Game, Variant: key.Variant}

	ana, bia := newClient(7, "p-ana"), newClient(7, "p-bia")
	if perr := (matchmaker{na}).Find(ana, find, key); perr != nil {
		t.Fatalf("ana's find: %v", perr)
	}
	if got := types(t, ana); len(got) != 1 || got[0].Type != protocol.TypeMatchQueued {
		t.Fatalf("ana got %+v, want match.queued", got)
	}
	if perr := (matchmaker{nb}).Find(bia, find, key); perr != nil {
		t.Fatalf("bia's find: %v", perr)
	}
	// The room joins its members before any command: once it has
	// answered one, bia has had all it will be sent for now.
	var room string
	bia.mu.Lock()
	if len(bia.frames) > 0 {
		var first sent
		_ = json.Unmarshal(bia.frames[0], &first)
		room = first.Room
	}
	bia.mu.Unlock()
	r, ok := mb.Running(room)
	if !ok {
		t.Fatalf("room %q does not run on b", room)
	}
	snap, ok := r.Stats()
	if !ok || snap.Members != 1 || snap.Status != rooms.StatusPlaying {
		t.Fatalf("room %+v %v; want playing, bia its one member here", snap, ok)
	}
	got := types(t, bia)
	if len(got) < 2 || got[0].Type != protocol.TypeMatchFound || got[1].Type != protocol.TypeRoomJoined {
		t.Fatalf("bia got %+v, want match.found, then room.joined", got)
	}

	// Cancelled: a find on b after ana cancels on a queues instead.
	if perr := (matchmaker{na}).Find(ana, find, key); perr != nil {
		t.Fatal(perr)
	}
	(matchmaker{na}).Cancel(ana, []hub.QueueKey{key})
	cai := newClient(8, "p-cai")
	if perr := (matchmaker{nb}).Find(cai, find, key); perr != nil {
		t.Fatal(perr)
	}
	if got := types(t, cai); len(got) != 1 || got[0].Type != protocol.TypeMatchQueued {
		t.Fatalf("cai got %+v after ana cancelled, want match.queued", got)
	}
}

type sent struct {
	Type string `json:"type"`
	Room string `json:"room"`
}

// types returns what c was sent, in order.
func types(t *testing.T, c *client) []sent {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []sent
	for _, f := range c.frames {
		var s sent
		if err := json.Unmarshal(f, &s); err != nil {
			t.Fatalf("frame %s: %v", f, err)
		}
		out = append(out, s)
	}
	c.frames = nil
	return out
}
