package hub

import (
	"context"
	"slices"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// What the hub offers a layer that makes it one of several nodes (package
// cluster, wired by internal/server). A single node plugs nothing: its
// Router is localRouter, its quick match pairs in its own queues, its lobby
// lists its own rooms, and no code of that layer runs.

// Client is a client connection as another package sees it: a room member
// that can also be told of rooms it is in on other nodes.
type Client interface {
	rooms.Member
	// WantsPatch reports whether the client asked for room.patch frames.
	WantsPatch() bool
	// Closed reports whether the connection has closed.
	Closed() bool
	// Fail sends the client an error that answers no request of its own.
	Fail(e *protocol.Error)
	// JoinedElsewhere records that the client is a member of room, served
	// by another node, as as (the role it asked for): it counts in
	// Config.MaxRooms, Hub.MembersElsewhere lists it, and the Router is
	// told (Gone) when the connection closes. False when it has closed.
	JoinedElsewhere(room, as string) bool
	// LeftElsewhere records that the client is no longer a member of room
	// served by another node.
	LeftElsewhere(room string)
}

// Matchmaker pairs quick-match requests across nodes. Find is called once
// the hub has checked the request (the client's quotas, a two-seat game)
// and has taken the client out of this node's queues; it answers the client
// (match.queued, or match.found and the room) itself. Cancel takes a client
// out of the shared queues keys (it left this node's queues already: it
// cancelled, or closed). Offer gives the shared queue again a rated
// seeker waiting in this node's queue key, whose range widened (the
// hub's sweep, match.go): it pairs it, or leaves it waiting and tells the
// client nothing.
type Matchmaker interface {
	Find(c Client, m *protocol.ClientMessage, key QueueKey) *protocol.Error
	Cancel(c Client, keys []QueueKey)
	Offer(c Client, key QueueKey) *protocol.Error
}

// Hooks are what a several-nodes layer plugs into a hub (Plug). A nil
// member keeps the single node's behaviour.
type Hooks struct {
	// Router reaches the rooms, here and on the other nodes.
	Router Router
	// Match pairs quick-match requests across nodes.
	Match Matchmaker
	// Lobby returns the other nodes' digests of their rooms, for this
	// node's lobby.
	Lobby func() []Digest
	// Rooms returns the other nodes' pages of q, for GET /api/rooms.
	Rooms func(ctx context.Context, q Query) []protocol.RoomSummary
	// Stop is called by Shutdown once the connections have closed.
	Stop func()
}

// QueueKey names a quick-match queue: casual and rated seekers wait apart.
type QueueKey struct {
	Game, Variant string
	Rated         bool
}

// String is the queue's name in the store ("game/variant", and
// "game/variant/rated" for the rated one).
func (k QueueKey) String() string {
	if k.Rated {
		return k.Game + "/" + k.Variant + "/rated"
	}
	return k.Game + "/" + k.Variant
}

// Plug makes the hub one of several nodes. Call it once, before serving.
func (h *Hub) Plug(hk Hooks) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hk.Router != nil {
		h.router = hk.Router
	}
	h.nodes = hk
}

// hooks returns what was plugged.
func (h *Hub) hooks() Hooks {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.nodes
}

// Client returns the open connection, or the attached client (Attach),
// with that id, or nil.
func (h *Hub) Client(id uint64) Client {
	if c := h.connByID(id); c != nil {
		return c
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.attached[id]; a != nil {
		return a
	}
	return nil
}

// Enqueue puts c in this node's queue key (as the lobby counts it).
func (h *Hub) Enqueue(c Client, key QueueKey) {
	cc, ok := c.(*conn)
	if !ok {
		return
	}
	h.mu.Lock()
	if !slices.Contains(h.queues[key], cc) {
		h.queues[key] = append(h.queues[key], cc)
	}
	if key.Rated {
		h.armSweepLocked()
	}
	h.mu.Unlock()
	h.LobbyChanged()
}

// Dequeue takes c out of this node's queues and returns their keys.
func (h *Hub) Dequeue(c Client) []QueueKey {
	cc, ok := c.(*conn)
	if !ok {
		return nil
	}
	h.mu.Lock()
	keys := h.unqueueLocked(cc)
	h.mu.Unlock()
	if len(keys) > 0 {
		h.LobbyChanged()
	}
	return keys
}

// Closed implements Client.
func (c *conn) Closed() bool { return c.isClosed() }

// Fail implements Client.
func (c *conn) Fail(e *protocol.Error) { c.errorTo(nil, "", e) }
