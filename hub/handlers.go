package hub

import (
	"encoding/json"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// handler is what the hub does with one client message type, once the
// message passed its entry in protocol.Messages. A message the hub answers
// itself has hub; a room message (MessageSpec.Room) has post, and admit
// when the hub has limits of its own to check before routing it.
type handler struct {
	// hub handles the message on the connection's dispatch.
	hub func(h *Hub, c *conn, m *protocol.ClientMessage) *protocol.Error
	// admit checks a room message against the hub's limits (the rooms a
	// connection, or a player, is in) before it is routed.
	admit func(h *Hub, c *conn, m *protocol.ClientMessage) *protocol.Error
	// post hands a room message to its room, on the node that runs the
	// room (Post); false when the room had closed.
	post func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool
}

// handlers has one handler for every entry of protocol.Messages and for
// nothing else (TestEveryMessageHasOneHandler).
var handlers = map[string]handler{
	protocol.TypeHello:        {hub: (*Hub).hello},
	protocol.TypeLobbyWatch:   {hub: (*Hub).lobbyWatch},
	protocol.TypeLobbyUnwatch: {hub: (*Hub).lobbyUnwatch},
	protocol.TypeMatchFind:    {hub: (*Hub).matchFind},
	protocol.TypeMatchCancel:  {hub: (*Hub).matchCancel},
	protocol.TypeRoomCreate:   {hub: (*Hub).create},
	protocol.TypePlayerRename: {hub: (*Hub).rename},

	protocol.TypeRoomJoin: {admit: (*Hub).admitJoin, post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.Join(c, m.As, m.ID)
	}},
	protocol.TypeRoomMove: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.MoveInfo(c, m.Move, m.Info, m.ID)
	}},
	protocol.TypeRoomChat: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.Chat(c, *m.Text, m.ID)
	}},
	protocol.TypeRoomChatMute: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.MuteChat(c, m.Player, true, m.ID)
	}},
	protocol.TypeRoomChatUnmute: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.MuteChat(c, m.Player, false, m.ID)
	}},
	protocol.TypeRoomChatSpectators: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.SpectatorChat(c, *m.On, m.ID)
	}},
	protocol.TypeRoomRematch:         {admit: (*Hub).admitRematch, post: command((*rooms.Room).Rematch)},
	protocol.TypeRoomResign:          {post: command((*rooms.Room).Resign)},
	protocol.TypeRoomLeave:           {post: command((*rooms.Room).Leave)},
	protocol.TypeRoomClaim:           {post: command((*rooms.Room).Claim)},
	protocol.TypeRoomAbort:           {post: command((*rooms.Room).Abort)},
	protocol.TypeRoomDrawOffer:       {post: command((*rooms.Room).OfferDraw)},
	protocol.TypeRoomDrawAccept:      {post: command((*rooms.Room).AcceptDraw)},
	protocol.TypeRoomDrawDecline:     {post: command((*rooms.Room).DeclineDraw)},
	protocol.TypeRoomTakebackAsk:     {post: command((*rooms.Room).AskTakeback)},
	protocol.TypeRoomTakebackAccept:  {post: command((*rooms.Room).AcceptTakeback)},
	protocol.TypeRoomTakebackDecline: {post: command((*rooms.Room).DeclineTakeback)},
	protocol.TypeRoomScoreToggle: {post: func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
		return r.ToggleScore(c, m.Point, m.ID)
	}},
	protocol.TypeRoomScoreAccept: {post: command((*rooms.Room).AcceptScore)},
}

// command is the post of a room message that carries nothing but its
// room and the request's id: the room's method.
func command(do func(*rooms.Room, rooms.Member, json.RawMessage) bool) func(*rooms.Room, rooms.Member, *protocol.ClientMessage) bool {
	return func(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool { return do(r, c, m.ID) }
}

// Post hands room message m from c to room r, on the node that runs r;
// false when the room had closed, or m is no room message.
func Post(r *rooms.Room, c rooms.Member, m *protocol.ClientMessage) bool {
	if do := handlers[m.Type].post; do != nil {
		return do(r, c, m)
	}
	return false
}

func (h *Hub) lobbyWatch(c *conn, m *protocol.ClientMessage) *protocol.Error {
	h.watch(c, m.ID)
	return nil
}

func (h *Hub) lobbyUnwatch(c *conn, _ *protocol.ClientMessage) *protocol.Error {
	h.mu.Lock()
	delete(h.watchers, c)
	h.mu.Unlock()
	return nil
}

func (h *Hub) matchCancel(c *conn, m *protocol.ClientMessage) *protocol.Error {
	h.cancelShared(c, h.Dequeue(c))
	c.Send(protocol.MustEncode(protocol.MatchQueued{Type: protocol.TypeMatchQueued, ID: m.ID, Queued: false}))
	return nil
}

// admitJoin keeps a connection within Config.MaxRooms and a player within
// its rooms; joining a room the connection is in already (a resync) is
// never refused.
func (h *Hub) admitJoin(c *conn, m *protocol.ClientMessage) *protocol.Error {
	if perr := h.roomQuota(c, m.Room); perr != nil {
		return perr
	}
	if _, in := c.inRooms(m.Room); m.As == rooms.RolePlayer && !in {
		return h.playerQuota(c, m.Room)
	}
	return nil
}

// admitRematch counts the rematch as the room more it will be.
func (h *Hub) admitRematch(c *conn, _ *protocol.ClientMessage) *protocol.Error {
	if perr := h.roomQuota(c, ""); perr != nil {
		return perr
	}
	return h.playerQuota(c, "")
}
