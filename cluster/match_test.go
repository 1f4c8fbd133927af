package cluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store/memstore"
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

// ratedClient is a client asking a rated quick match, with its request as
// the hub's connection carries it.
type ratedClient struct {
	*client
	seek ratings.Seeker
}

func (c *ratedClient) MatchRated() bool          { return true }
func (c *ratedClient) MatchSeek() ratings.Seeker { return c.seek }

// TestMatchmakerRatedAcrossNodes: rated requests wait in a queue apart
// from casual ones; two 300 apart on two nodes wait, and once their ranges
// widened (the store's match clock moved four steps) an Offer of the
// waiting one pairs them into a rated room. An Offer of an entry another
// request took does nothing.
func TestMatchmakerRatedAcrossNodes(t *testing.T) {
	clock := fakeclock.New()
	st := memstore.New(memstore.WithMatchClock(clock.Now))
	b := broker.NewMemory(0)
	t.Cleanup(func() { _ = b.Close() })
	_, _, na := memNode(t, st, b, "a")
	_, mb, nb := memNode(t, st, b, "b")
	rated := hub.QueueKey{Game: "orbito", Variant: "2", Rated: true}
	casual := hub.QueueKey{Game: "orbito", Variant: "2"}
	find := &protocol.ClientMessage{Type: protocol.TypeMatchFind, Game: "orbito", Variant: "2"}
	seek := func(id uint64, p string, r float64) *ratedClient {
		return &ratedClient{client: newClient(id, p), seek: ratings.Seeker{Player: p, Rating: r, Since: clock.Now(), Step: 5 * time.Second}}
	}
	queued := func(c *client) {
		t.Helper()
		if got := types(t, c); len(got) != 1 || got[0].Type != protocol.TypeMatchQueued {
			t.Fatalf("%s got %+v, want match.queued", c.player, got)
		}
	}
	ana, caio := seek(7, "bot.ana", 1500), seek(8, "bot.caio", 1800) // bot accounts: rated seats
	if perr := (matchmaker{na}).Find(ana, find, rated); perr != nil {
		t.Fatal(perr)
	}
	queued(ana.client)
	// A casual request never meets a rated one.
	bia := newClient(9, "p-bia")
	if perr := (matchmaker{nb}).Find(bia, find, casual); perr != nil {
		t.Fatal(perr)
	}
	queued(bia)
	if perr := (matchmaker{nb}).Find(caio, find, rated); perr != nil {
		t.Fatal(perr)
	}
	queued(caio.client)
	// Three steps: ranges 250, still apart; an offer changes nothing.
	clock.Advance(15 * time.Second)
	if perr := (matchmaker{nb}).Offer(caio, rated); perr != nil {
		t.Fatal(perr)
	}
	if got := types(t, caio.client); len(got) != 0 {
		t.Fatalf("an offer that pairs nobody sent caio %+v", got)
	}
	// Four: 300 each, they pair.
	clock.Advance(5 * time.Second)
	if perr := (matchmaker{nb}).Offer(caio, rated); perr != nil {
		t.Fatal(perr)
	}
	// The room joins its members before any command: once it has answered
	// one, caio has had all it will be sent for now.
	var room string
	caio.mu.Lock()
	if len(caio.frames) > 0 {
		var first sent
		_ = json.Unmarshal(caio.frames[0], &first)
		room = first.Room
	}
	caio.mu.Unlock()
	r, ok := mb.Running(room)
	if !ok {
		t.Fatalf("room %q does not run on b", room)
	}
	snap, ok := r.Stats()
	if !ok || snap.Status != rooms.StatusPlaying {
		t.Fatalf("room %+v %v", snap, ok)
	}
	caio.mu.Lock()
	isRated := false
	for _, f := range caio.frames {
		var st struct {
			Type  string `json:"type"`
			Rated bool   `json:"rated"`
		}
		_ = json.Unmarshal(f, &st)
		isRated = isRated || (st.Type == protocol.TypeRoomState && st.Rated)
	}
	caio.mu.Unlock()
	if !isRated {
		t.Fatal("caio's room.state is not rated")
	}
	got := types(t, caio.client)
	if len(got) < 2 || got[0].Type != protocol.TypeMatchFound || got[1].Type != protocol.TypeRoomJoined {
		t.Fatalf("caio got %+v, want match.found and room.joined after the offer", got)
	}
	// ana's entry is gone: offering it again does nothing.
	if perr := (matchmaker{na}).Offer(ana, rated); perr != nil {
		t.Fatal(perr)
	}
	if was, err := st.Unqueue(context.Background(), rated.String(), na.entry(ana)); err != nil || was {
		t.Fatalf("ana's entry after she was paired: there %v, err %v", was, err)
	}
}
