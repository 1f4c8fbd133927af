// Presence: the spectator count and the seats' connection flags. They are
// not a change of the room's state (no seq, no save, no room.state): a
// spectator or a player's connection coming or going only marks them, and
// every member gets one small room.presence at most every presenceDelay
// (docs/protocol.md, "Presence"). A crowd of N arriving thus costs each
// member a frame a second, not N full states.

package rooms

import (
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// presenceDelay is the least time between two room.presence frames of a
// room. The first change after a quiet second goes at once; those that
// follow within the second wait for its end, together.
const presenceDelay = time.Second

// RoleWatcher is the role of a member that follows a room without being
// counted among its spectators and without sitting (as "watcher" in
// room.join): the lobby's live boards.
const RoleWatcher = protocol.RoleWatcher

// presence is what the room's members were last told of its presence and
// when; it belongs to the room's goroutine.
type presence struct {
	// pending is set while a flush waits for the end of presenceDelay.
	pending bool
	last    time.Time
	// told is the presence every member holds: the last one broadcast in
	// a room.state, a room.patch or a room.presence.
	told  protocol.RoomPresence
	valid bool
}

// presenceView fills p with the room's presence, reusing p's player list.
func (r *Room) presenceView(p *protocol.RoomPresence) {
	p.Type, p.Room, p.Spectators = protocol.TypeRoomPresence, r.id, r.spectators()
	p.Players = p.Players[:0]
	for i := range r.seats {
		h := protocol.SeatHere{Seat: i, Connected: r.connected(i)}
		if r.status == StatusPlaying && i < len(r.goneSince) && !r.goneSince[i].IsZero() {
			h.GoneSince = r.goneSince[i].UnixMilli()
			if at := r.claimableAt(i); !at.IsZero() {
				h.ClaimableAt = at.UnixMilli()
			}
		}
		p.Players = append(p.Players, h)
	}
}

// presenceTold records that every member was just sent the room's whole
// state, presence included.
func (r *Room) presenceTold() {
	r.presenceView(&r.pres.told)
	r.pres.valid = true
}

// presenceChanged is called after a change of the members: the presence
// goes out now if the last went out presenceDelay ago or more, or else at
// the end of that delay.
func (r *Room) presenceChanged() {
	if r.pres.pending {
		return
	}
	wait := presenceDelay - time.Since(r.pres.last)
	if wait <= 0 {
		r.flushPresence()
		return
	}
	r.pres.pending = true
	r.later(wait, func() {
		r.pres.pending = false
		r.flushPresence()
	})
}

// flushPresence sends every member the room's presence, unless it is what
// they hold already.
func (r *Room) flushPresence() {
	var cur protocol.RoomPresence
	r.presenceView(&cur)
	if r.pres.valid && cur.Spectators == r.pres.told.Spectators && slices.Equal(cur.Players, r.pres.told.Players) {
		return
	}
	r.pres.last = time.Now()
	r.pres.told, r.pres.valid = cur, true
	if len(r.members) > 0 {
		r.fanout(protocol.MustEncode(cur), nil)
	}
	r.m.setSummary(r)
}
