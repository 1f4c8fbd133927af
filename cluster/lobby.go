package cluster

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// heartbeat says this node is alive, with the digest of its public rooms
// (a page of them and their counts: its size does not grow with the number
// of rooms), every third of a lease, and then sweeps.
func (n *Node) heartbeat() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.TTL / 3)
	defer t.Stop()
	for {
		d := hub.DigestOf(n.cfg.Rooms.Summaries(), hub.LobbyPage)
		w := &wire{K: kindHeartbeat, Lobby: &d}
		if n.cfg.Bots != nil {
			w.Bots = n.cfg.Bots()
		}
		n.publish("", w)
		select {
		case <-n.quit:
			return
		case <-n.beatNow:
			continue // the bots online changed: tell the others now
		case <-t.C:
		}
		n.sweep()
	}
}

// heard reads the other nodes' messages to all: heartbeats (who is alive,
// the digest of the public rooms each serves) and the pages of GET
// /api/rooms they ask for.
func (n *Node) heard() {
	defer n.wg.Done()
	for data := range n.nodes.C() {
		var w wire
		if json.Unmarshal(data, &w) != nil || w.Node == n.cfg.Node {
			continue
		}
		n.alive(w.Node)
		switch w.K {
		case kindHeartbeat:
			n.heardLobby(w.Node, w.Lobby)
			n.heardBots(w.Node, w.Bots)
		case kindBotEvent:
			if n.cfg.OnBotEvent != nil && len(w.Line) > 0 {
				n.cfg.OnBotEvent(w.Players, w.Line)
			}
		case kindRooms:
			if w.Query == nil || w.Query.Check() != nil {
				continue
			}
			n.wg.Add(1)
			go func() { // the answer's publish may wait: not on this loop
				defer n.wg.Done()
				n.publish(w.Node, &wire{K: kindRoomsPage, Req: w.Req, Rooms: hub.PageOf(n.cfg.Rooms.Summaries(), *w.Query)})
			}()
		}
	}
}

// heardLobby keeps node's digest, and tells the hub when it changed.
func (n *Node) heardLobby(node string, d *hub.Digest) {
	var got hub.Digest
	if d != nil {
		got = *d
		got.Rooms = got.Rooms[:min(len(got.Rooms), hub.LobbyPage)]
	}
	n.mu.Lock()
	old, had := n.lobbies[node]
	n.lobbies[node] = got
	n.mu.Unlock()
	if !had || !reflect.DeepEqual(old, got) {
		n.h.LobbyChanged()
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
			delete(n.bots, node)
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

// digests is the other nodes' digests of their public rooms, as they last
// sent them (at most a third of a lease ago): hub.Hooks.Lobby.
func (n *Node) digests() []hub.Digest {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]hub.Digest, 0, len(n.lobbies))
	for _, d := range n.lobbies {
		out = append(out, d)
	}
	return out
}

// roomsElsewhere asks every other node heard from for its page of q and
// returns their answers together, after all of them answered or
// AckTimeout/2, whichever comes first: hub.Hooks.Rooms. A node that does
// not answer in time is left out of this page.
func (n *Node) roomsElsewhere(ctx context.Context, q hub.Query) []protocol.RoomSummary {
	n.mu.Lock()
	nodes := len(n.lobbies)
	n.mu.Unlock()
	if nodes == 0 {
		return nil
	}
	req := n.nextReq.Add(1)
	ch := make(chan []protocol.RoomSummary, nodes)
	n.mu.Lock()
	n.pages[req] = ch
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.pages, req)
		n.mu.Unlock()
	}()
	n.publish("", &wire{K: kindRooms, Req: req, Query: &q})
	t := time.NewTimer(n.cfg.AckTimeout / 2)
	defer t.Stop()
	var out []protocol.RoomSummary
	for range nodes {
		select {
		case rs := <-ch:
			out = append(out, rs...)
		case <-t.C:
			return out
		case <-ctx.Done():
			return out
		case <-n.quit:
			return out
		}
	}
	return out
}
