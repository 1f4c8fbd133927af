// Seats and members: who sits where, who is connected, joins and leaves.

package rooms

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
)

type member struct {
	m    Member
	role string
	seat int
	// patch: the member takes room.patch frames; at is the seq of the
	// state it holds (-1 before its first room.state from a broadcast).
	patch bool
	at    int64
}

func (r *Room) allSeated() bool {
	for _, s := range r.seats {
		if s.PlayerID == "" && s.Bot == "" {
			return false
		}
	}
	return true
}

func (r *Room) seatOf(playerID string) int {
	for i, s := range r.seats {
		if s.Bot == "" && s.PlayerID != "" && s.PlayerID == playerID {
			return i
		}
	}
	return -1
}

func (r *Room) playerSeat(mem Member) (int, *protocol.Error) {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return -1, protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	}
	switch r.status {
	case StatusFinished:
		return -1, protocol.Errorf(protocol.CodeGameOver, "the game is over")
	case StatusWaiting:
		return -1, protocol.Errorf(protocol.CodeNotYourTurn, "waiting for an opponent")
	}
	return seat, nil
}

func (r *Room) drop(mem Member) {
	if _, ok := r.members[mem.ConnID()]; ok {
		r.removeMember(mem.ConnID())
		mem.Left(r)
		r.notePresence()
	}
}

// addMember makes mb the member of its connection, in place of the one it
// replaces.
func (r *Room) addMember(mb *member) {
	r.removeMember(mb.m.ConnID())
	r.members[mb.m.ConnID()] = mb
	if mb.role == RoleSpectator {
		r.spectating++
	}
	if r.memberOf == nil {
		r.memberOf = map[string]int{}
	}
	r.memberOf[mb.m.PlayerID()]++
}

// removeMember forgets the member of connection id, if any.
func (r *Room) removeMember(id uint64) {
	mb, ok := r.members[id]
	if !ok {
		return
	}
	delete(r.members, id)
	if mb.role == RoleSpectator {
		r.spectating--
	}
	if p := mb.m.PlayerID(); r.memberOf[p] <= 1 {
		delete(r.memberOf, p)
	} else {
		r.memberOf[p]--
	}
}

func (r *Room) connected(seat int) bool {
	s := r.seats[seat]
	if s.Bot != "" {
		return true
	}
	return s.PlayerID != "" && r.memberOf[s.PlayerID] > 0
}

func (r *Room) spectators() int { return r.spectating }

func (r *Room) join(mem Member, as string, id json.RawMessage) {
	if as != RolePlayer && as != RoleSpectator {
		r.replyErr(mem, id, protocol.Errorf(protocol.CodeBadRequest, `"as" must be "player" or "spectator"`))
		return
	}
	seat := r.seatOf(mem.PlayerID())
	old, isMember := r.members[mem.ConnID()]
	changed := false
	seatTaken := false
	switch {
	case seat >= 0:
		// The player's own seat, whatever it asked for.
	case as == RolePlayer:
		if r.status == StatusFinished {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeGameOver, "the game is over"))
			return
		}
		for i, s := range r.seats {
			if s.PlayerID == "" && s.Bot == "" {
				seat = i
				break
			}
		}
		if seat < 0 {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeRoomFull, "room %s has no free seat", r.id))
			return
		}
		seatTaken = true
		changed = true
	}
	if !isMember && !mem.Joined(r) {
		return // the connection closed meanwhile
	}
	if seatTaken {
		r.seats[seat] = Seat{PlayerID: mem.PlayerID(), Name: mem.PlayerName()}
	}
	role := RoleSpectator
	if seat >= 0 {
		role = RolePlayer
	}
	if !isMember || old.role != role {
		wasConnected := seat >= 0 && !seatTaken && r.connected(seat)
		r.addMember(&member{m: mem, role: role, seat: seat, patch: wantsPatch(mem), at: -1})
		if role == RoleSpectator || !wasConnected || (isMember && old.role == RoleSpectator) {
			changed = true
		}
		r.notePresence()
	}
	var seatPtr *int
	if seat >= 0 {
		seatPtr = &seat
	}
	r.send(mem, protocol.MustEncode(protocol.RoomJoined{Type: protocol.TypeRoomJoined, ID: id, Room: r.id, Role: role, Seat: seatPtr}))
	if !changed {
		r.sendState(mem)
		return
	}
	r.nextSeq()
	if seatTaken {
		if r.allSeated() && r.status == StatusWaiting {
			r.setStatus(StatusPlaying)
			r.turnsBegin(r.now())
			r.startClock(r.now())
			r.armAbort()
			r.gameStarted(r.now())
		}
		if err := r.persist.commit(context.Background(), logEntry{Kind: "seat", Seat: &seat, Player: mem.PlayerID()}); err != nil {
			r.log.Warn("save after seat taken failed", zap.String("room", r.id), zap.Error(err))
		}
	}
	r.log.Debug("joined", zap.String("room", r.id), zap.String("player", mem.PlayerID()), zap.String("role", role))
	r.broadcastJoin(mem, role == RoleSpectator)
	r.scheduleBots()
}

func (r *Room) leave(mem Member) {
	mb, ok := r.members[mem.ConnID()]
	if !ok {
		return
	}
	r.removeMember(mem.ConnID())
	mem.Left(r)
	r.notePresence()
	if mb.role == RolePlayer && r.connected(mb.seat) {
		return // another tab of the same player is still here
	}
	r.nextSeq()
	if mb.role == RoleSpectator {
		r.broadcastCoalesced()
	} else {
		r.broadcast()
	}
}
