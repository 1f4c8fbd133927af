package cluster

import (
	"context"
	"sync"
	"testing"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// testNode is one node of an in-process cluster.
type testNode struct {
	h *hub.Hub
	m *rooms.Manager
	n *Node
}

// memNodes starts a node for each id on one memory store and broker,
// which end with the test.
func memNodes(t testing.TB, ids ...string) (*memstore.Store, *broker.Memory, []testNode) {
	t.Helper()
	st := memstore.New()
	b := broker.NewMemory(0)
	t.Cleanup(func() { _ = b.Close() })
	ns := make([]testNode, len(ids))
	for i, id := range ids {
		ns[i].h, ns[i].m, ns[i].n = memNode(t, st, b, id)
	}
	return st, b, ns
}

// memNode is one node of an in-process cluster: its rooms' Manager, its hub
// and its Node, on a store and a broker shared with the other nodes.
func memNode(t testing.TB, st *memstore.Store, b *broker.Memory, id string) (*hub.Hub, *rooms.Manager, *Node) {
	t.Helper()
	var n *Node
	m := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Log: zap.NewNop(),
		Cluster: &rooms.Cluster{Leases: st, Node: id,
			OnFenced: func(room string, ms []rooms.JoinAs) { n.OnFenced(room, ms) }}})
	h := hub.New(hub.Config{Rooms: m, Catalog: games.Catalog(), Store: st, Log: zap.NewNop()})
	var err error
	n, err = Start(context.Background(), Config{Hub: h, Rooms: m, Matcher: st, Broker: b, Leases: st, Node: id, Liveness: b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = h.Shutdown(context.Background(), protocol.CloseRestart, "")
		_ = m.Shutdown(context.Background())
	})
	return h, m, n
}

// client is a hub.Client without a socket: it records what it is sent and
// the rooms elsewhere it is told it is in.
type client struct {
	id     uint64
	player string

	mu        sync.Mutex
	frames    [][]byte
	elsewhere map[string]bool
	closed    bool
}

func newClient(id uint64, player string) *client {
	return &client{id: id, player: player, elsewhere: map[string]bool{}}
}

func (c *client) ConnID() uint64          { return c.id }
func (c *client) PlayerID() string        { return c.player }
func (c *client) PlayerName() string      { return c.player }
func (c *client) WantsPatch() bool        { return false }
func (c *client) Joined(*rooms.Room) bool { return true }
func (c *client) Left(*rooms.Room)        {}
func (c *client) Fail(e *protocol.Error) {
	c.Send(protocol.ErrorFrame(nil, "", e))
}

func (c *client) Send(f *protocol.Frame) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frames = append(c.frames, f.Data)
	return !c.closed
}

func (c *client) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func (c *client) JoinedElsewhere(room, _ string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.elsewhere[room] = true
	return !c.closed
}

func (c *client) LeftElsewhere(room string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.elsewhere, room)
}

func (c *client) inElsewhere(room string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.elsewhere[room]
}
