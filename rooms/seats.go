// Seats and members: who sits where, who is connected, joins and leaves.

package rooms

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
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
		if s.Free() {
			return false
		}
	}
	return true
}

func (r *Room) seatOf(playerID string) int {
	for i, s := range r.seats {
		if s.Bot == "" && s.ID != "" && s.ID == playerID {
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
		r.presenceChanged()
	}
}

// addMember makes mb the member of its connection, in place of the one it
// replaces.
func (r *Room) addMember(mb *member) {
	r.removeMember(mb.m.ConnID())
	r.members[mb.m.ConnID()] = mb
	switch mb.role {
	case RoleSpectator:
		r.spectating++
	case RoleWatcher:
		return // a watcher connects no seat
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
	switch mb.role {
	case RoleSpectator:
		r.spectating--
	case RoleWatcher:
		return
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
	return s.ID != "" && r.memberOf[s.ID] > 0
}

func (r *Room) spectators() int { return r.spectating }

func (r *Room) join(mem Member, as string, id json.RawMessage) {
	if as != RolePlayer && as != RoleSpectator && as != RoleWatcher {
		r.replyErr(mem, id, protocol.Errorf(protocol.CodeBadRequest, `"as" must be "player", "spectator" or "watcher"`))
		return
	}
	seat := -1
	if as != RoleWatcher {
		seat = r.seatOf(mem.PlayerID())
	}
	old, isMember := r.members[mem.ConnID()]
	seatTaken := false
	switch {
	case seat >= 0 || as == RoleWatcher:
		// The player's own seat, whatever it asked for; or a watcher,
		// who never sits.
	case as == RolePlayer:
		if r.status == StatusFinished {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeGameOver, "the game is over"))
			return
		}
		for i, s := range r.seats {
			if s.Free() {
				seat = i
				break
			}
		}
		if seat < 0 {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeRoomFull, "room %s has no free seat", r.id))
			return
		}
		if perr := r.canSit(mem); perr != nil {
			r.replyErr(mem, id, perr)
			return
		}
		seatTaken = true
	}
	if !isMember && !mem.Joined(r) {
		return // the connection closed meanwhile
	}
	if seatTaken {
		r.seats[seat] = players.Of(mem.PlayerID(), mem.PlayerName())
	}
	role := RoleSpectator
	switch {
	case seat >= 0:
		role = RolePlayer
	case as == RoleWatcher:
		role = RoleWatcher
	}
	moved := !isMember || old.role != role
	if moved {
		r.addMember(&member{m: mem, role: role, seat: seat, patch: wantsPatch(mem), at: -1})
		r.notePresence()
	}
	var seatPtr *int
	if seat >= 0 {
		seatPtr = &seat
	}
	r.send(mem, protocol.MustEncode(protocol.RoomJoined{Type: protocol.TypeRoomJoined, ID: id, Room: r.id, Role: role, Seat: seatPtr}))
	if !seatTaken {
		// A spectator, a watcher or a seat's player connecting: presence,
		// not a change of the room's state.
		r.sendState(mem)
		switch {
		case moved && len(r.members) == 1:
			r.presenceTold() // the joiner alone, and it has it
			r.m.setSummary(r)
		case moved:
			r.presenceChanged()
		}
		return
	}
	r.nextSeq()
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
	r.log.Debug("joined", zap.String("room", r.id), zap.String("player", mem.PlayerID()), zap.String("role", role))
	r.broadcastJoin(mem)
	r.fetchRating(seat, mem)
	r.scheduleBots()
}

func (r *Room) leave(mem Member) {
	if _, ok := r.members[mem.ConnID()]; !ok {
		return
	}
	r.removeMember(mem.ConnID())
	mem.Left(r)
	r.notePresence()
	r.presenceChanged()
}
