package hub

import (
	"sync"

	"github.com/tabuleiro/tabuleiro/rooms"
)

// membership is the hub's one index of which connection is in which room,
// derived from what the rooms report: a room that runs here reports a
// join and a leave through its member's Joined and Left (rooms.Member); a
// room another node serves, through the several-nodes layer, which hears
// them from the room's node (Client.JoinedElsewhere, LeftElsewhere). From
// it come a connection's count of rooms (Config.MaxRooms), the rooms to
// tell when it closes, and the members of a room served elsewhere, to join
// again when that room moves (Hub.MembersElsewhere). The rooms keep their own
// members; nothing else in the hub does.
//
// Its members are the hub's connections and the clients attached to it
// (Attach): both are indexed alike.
//
// Its mu is taken alone: no other lock is taken while it is held.
type membership struct {
	mu     sync.Mutex
	byConn map[indexed]map[string]place
	byRoom map[string]map[indexed]place
}

// indexed is a client the index holds: a connection or an attached client,
// with the flag that says it closed (guarded by membership.mu).
type indexed interface {
	Client
	droppedFlag() *bool
}

// place is one connection's membership of one room.
type place struct {
	// room is the room when it runs here; nil when another node serves it.
	room *rooms.Room
	// as is the role asked for in a room served elsewhere (to join again).
	as string
}

// RemoteMember is a connection in a room served elsewhere, and the role it
// asked for.
type RemoteMember struct {
	Client Client
	As     string
}

func newMembership() *membership {
	return &membership{byConn: map[indexed]map[string]place{}, byRoom: map[string]map[indexed]place{}}
}

// put records c in room at p, unless c has closed (false). A room served
// elsewhere does not replace the same room running here until that one
// stopped.
func (ms *membership) put(c indexed, room string, p place) bool {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if *c.droppedFlag() {
		return false
	}
	if old, ok := ms.byConn[c][room]; ok && p.room == nil && old.room != nil && !stopped(old.room) {
		return true
	}
	rs := ms.byConn[c]
	if rs == nil {
		rs = map[string]place{}
		ms.byConn[c] = rs
	}
	rs[room] = p
	cs := ms.byRoom[room]
	if cs == nil {
		cs = map[indexed]place{}
		ms.byRoom[room] = cs
	}
	cs[c] = p
	return true
}

func stopped(r *rooms.Room) bool {
	select {
	case <-r.Done():
		return true
	default:
		return false
	}
}

// remove takes c out of room when keep says so of its place there.
func (ms *membership) remove(c indexed, room string, keep func(place) bool) (removed bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	p, ok := ms.byConn[c][room]
	if !ok || keep(p) {
		return false
	}
	ms.deleteLocked(c, room)
	return true
}

func (ms *membership) deleteLocked(c indexed, room string) {
	if rs := ms.byConn[c]; rs != nil {
		delete(rs, room)
		if len(rs) == 0 {
			delete(ms.byConn, c)
		}
	}
	if cs := ms.byRoom[room]; cs != nil {
		delete(cs, c)
		if len(cs) == 0 {
			delete(ms.byRoom, room)
		}
	}
}

// count is how many rooms c is in, here and elsewhere; in reports whether
// room is one of them.
func (ms *membership) count(c indexed, room string) (n int, in bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	rs := ms.byConn[c]
	_, in = rs[room]
	return len(rs), in
}

// drop takes c, which closed, out of every room and returns them: from
// then on put refuses it.
func (ms *membership) drop(c indexed) map[string]place {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	*c.droppedFlag() = true
	rs := ms.byConn[c]
	delete(ms.byConn, c)
	for room := range rs {
		ms.deleteLocked(c, room)
	}
	return rs
}

// elsewhere returns the members of room, served by another node.
func (ms *membership) elsewhere(room string) []RemoteMember {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	var out []RemoteMember
	for c, p := range ms.byRoom[room] {
		if p.room == nil {
			out = append(out, RemoteMember{Client: c, As: p.as})
		}
	}
	return out
}

func (c *conn) droppedFlag() *bool { return &c.dropped }

// Joined implements rooms.Member: the room r, running here, took c.
func (c *conn) Joined(r *rooms.Room) bool {
	return c.h.members.put(c, r.ID(), place{room: r})
}

// Left implements rooms.Member: c is no longer in room r.
func (c *conn) Left(r *rooms.Room) {
	c.h.members.remove(c, r.ID(), func(p place) bool { return p.room != r })
}

// JoinedElsewhere implements Client.
func (c *conn) JoinedElsewhere(room, as string) bool {
	return c.h.members.put(c, room, place{as: as})
}

// LeftElsewhere implements Client.
func (c *conn) LeftElsewhere(room string) {
	c.h.members.remove(c, room, func(p place) bool { return p.room != nil })
}

// inRooms is how many rooms c is in, here and on other nodes; in reports
// whether room is one of them.
func (c *conn) inRooms(room string) (n int, in bool) { return c.h.members.count(c, room) }

// MembersElsewhere returns this node's connections in room, which another
// node serves, with the role each asked for: those to join again when the
// room moves.
func (h *Hub) MembersElsewhere(room string) []RemoteMember { return h.members.elsewhere(room) }
