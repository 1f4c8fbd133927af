package cluster

import (
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// heartbeat says this node is alive, with its public rooms, every third of
// a lease, and then sweeps.
func (n *Node) heartbeat() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.TTL / 3)
	defer t.Stop()
	for {
		n.publish("", &wire{K: kindHeartbeat, Rooms: n.cfg.Rooms.Summaries()})
		select {
		case <-n.quit:
			return
		case <-t.C:
		}
		n.sweep()
	}
}

// heard reads the other nodes' heartbeats: who is alive, and the public
// rooms each serves.
func (n *Node) heard() {
	defer n.wg.Done()
	for data := range n.nodes.C() {
		var w wire
		if json.Unmarshal(data, &w) != nil || w.Node == n.cfg.Node {
			continue
		}
		n.alive(w.Node)
		n.mu.Lock()
		changed := len(w.Rooms) != 0 || len(n.lobbies[w.Node]) != 0
		n.lobbies[w.Node] = w.Rooms
		n.mu.Unlock()
		if changed {
			n.h.LobbyChanged()
		}
	}
}

// sweep forgets the lobbies and liveness answers of nodes silent for a
// whole lease, drops the links of rooms that stopped, and takes the members
// of silent nodes out of the rooms served here.
func (n *Node) sweep() {
	t := now()
	var dead []*link
	n.mu.Lock()
	for node := range n.lobbies {
		if t.Sub(n.seen[node]) > n.cfg.TTL {
			delete(n.lobbies, node)
		}
	}
	for node, c := range n.live {
		if t.Sub(c.at) > n.cfg.TTL {
			delete(n.live, node)
		}
	}
	for k, l := range n.links {
		select {
		case <-l.room.Done():
			delete(n.links, k)
			continue
		default:
		}
		if seen, ok := n.seen[k.node]; k.node != n.cfg.Node && (!ok || t.Sub(seen) > n.cfg.TTL) {
			delete(n.links, k)
			dead = append(dead, l)
		}
	}
	n.mu.Unlock()
	for _, l := range dead {
		n.log.Warn("node silent: its connections leave the room", zap.String("room", l.room.ID()), zap.String("silent", l.node))
		for _, p := range l.close() {
			l.room.Gone(p)
		}
	}
}

// summaries is the public rooms the other nodes serve, as they last said
// (at most a third of a lease ago): hub.Hooks.Lobby.
func (n *Node) summaries() []protocol.RoomSummary {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []protocol.RoomSummary
	for _, rs := range n.lobbies {
		out = append(out, rs...)
	}
	return out
}
