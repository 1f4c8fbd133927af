package hub

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Clients of the hub that are not WebSockets: a bot's HTTP game stream
// (internal/server) following a room that another node serves. Attached to
// the hub, such a client is in its membership index like a connection: the
// several-nodes layer finds it by id to hand it the room's frames
// (Hub.Client), and joins it again when the room moves (MembersElsewhere).

// Sink is what an attached client is made of: a room member's identity
// and its non-blocking Send, and Left, called once the client is out of
// its room for good (the room left it, or it could not be joined again).
type Sink interface {
	ConnID() uint64
	PlayerID() string
	PlayerName() string
	Send(f *protocol.Frame) bool
	Left(r *rooms.Room)
}

// Attached is a client attached to the hub (Attach): a Client for the
// rooms, the Router and the several-nodes layer.
type Attached struct {
	h      *Hub
	s      Sink
	closed atomic.Bool
	// dropped is the index's flag (guarded by membership.mu).
	dropped bool
}

// Attach makes s a client of the hub until Detach.
func (h *Hub) Attach(s Sink) *Attached {
	a := &Attached{h: h, s: s}
	h.mu.Lock()
	h.attached[s.ConnID()] = a
	h.mu.Unlock()
	return a
}

// Detach takes a out of every room it is in (telling the Router of the
// rooms served elsewhere) and forgets it.
func (a *Attached) Detach() {
	a.closed.Store(true)
	for id, p := range a.h.members.drop(a) {
		if p.room != nil {
			p.room.Gone(a)
		} else {
			a.h.router.Gone(a, id)
		}
	}
	a.h.mu.Lock()
	if a.h.attached[a.s.ConnID()] == a {
		delete(a.h.attached, a.s.ConnID())
	}
	a.h.mu.Unlock()
}

// Route hands m from a to its room through the hub's Router, here or on
// another node, and returns the error to answer, if any.
func (a *Attached) Route(ctx context.Context, m *protocol.ClientMessage) *protocol.Error {
	return a.h.router.Route(ctx, a, m)
}

func (a *Attached) droppedFlag() *bool { return &a.dropped }

// ConnID implements rooms.Member.
func (a *Attached) ConnID() uint64 { return a.s.ConnID() }

// PlayerID implements rooms.Member.
func (a *Attached) PlayerID() string { return a.s.PlayerID() }

// PlayerName implements rooms.Member.
func (a *Attached) PlayerName() string { return a.s.PlayerName() }

// Send implements rooms.Member.
func (a *Attached) Send(f *protocol.Frame) bool { return a.s.Send(f) }

// WantsPatch implements Client: an attached client takes whole states.
func (a *Attached) WantsPatch() bool { return false }

// Closed implements Client.
func (a *Attached) Closed() bool { return a.closed.Load() }

// Fail implements Client.
func (a *Attached) Fail(e *protocol.Error) { a.s.Send(protocol.ErrorFrame(nil, "", e)) }

// Joined implements rooms.Member: the room r, running here, took a.
func (a *Attached) Joined(r *rooms.Room) bool { return a.h.members.put(a, r.ID(), place{room: r}) }

// Left implements rooms.Member: a is out of room r, which runs here. A
// room that stops keeps a in the index (it is joined again wherever the
// room goes next, as a connection is); any other leave ends a's stay.
func (a *Attached) Left(r *rooms.Room) {
	if stopped(r) {
		return
	}
	if a.h.members.remove(a, r.ID(), func(p place) bool { return p.room != r }) {
		a.s.Left(r)
	}
}

// JoinedElsewhere implements Client.
func (a *Attached) JoinedElsewhere(room, as string) bool {
	return a.h.members.put(a, room, place{as: as})
}

// LeftElsewhere implements Client: the room served elsewhere left a, or a
// could not be joined to it again.
func (a *Attached) LeftElsewhere(room string) {
	if a.h.members.remove(a, room, func(p place) bool { return p.room != nil }) {
		a.s.Left(nil)
	}
}

// Run posts m, from player (named name), to room r and waits until the room
// has run it: it returns the error the room answered, nil when the room
// took the command (a move saved and broadcast, say). posted is false when
// the room had closed before it took it. The member that sends m is a
// one-shot: it never joins the room and hears only the error.
func Run(r *rooms.Room, player, name string, m *protocol.ClientMessage) (e *protocol.ErrorMessage, posted bool) {
	one := &oneShot{id: 1<<62 | oneShotIDs.Add(1), player: player, name: name}
	if m.Type == TypeResignBotError {
		posted = r.ResignBotError(one, m.Info, nil)
	} else {
		posted = Post(r, one, m)
	}
	if !posted {
		return nil, false
	}
	// The room runs its commands in order, so once Stats answers the
	// command has run. A command the room took (its mailbox is
	// unbuffered) runs whole: if the room closes after it (a resignation
	// that ends the game as the last member leaves), Stats is refused and
	// the room's Done says the command is over.
	if _, ok := r.Stats(); !ok {
		<-r.Done()
	}
	one.mu.Lock()
	defer one.mu.Unlock()
	return one.err, true
}

// TypeResignBotError is, for Run, a bot account's resignation because its
// program failed (docs/bots-api.md), Info saying what failed. No client
// sends it: the bot API does, to a room here or on another node.
const TypeResignBotError = "x.resign.bot_error"

// oneShotIDs numbers Run's members apart from connections (counted up
// from 1), bot streams and proxies (their ids have the top bit).
var oneShotIDs atomic.Uint64

// oneShot is Run's member: the room answers an error to it, and only an
// error.
type oneShot struct {
	id           uint64
	player, name string

	mu  sync.Mutex
	err *protocol.ErrorMessage
}

func (m *oneShot) ConnID() uint64          { return m.id }
func (m *oneShot) PlayerID() string        { return m.player }
func (m *oneShot) PlayerName() string      { return m.name }
func (m *oneShot) Joined(*rooms.Room) bool { return false }
func (m *oneShot) Left(*rooms.Room)        {}
func (m *oneShot) Send(f *protocol.Frame) bool {
	var e protocol.ErrorMessage
	if json.Unmarshal(f.Data, &e) == nil && e.Type == protocol.TypeError {
		m.mu.Lock()
		m.err = &e
		m.mu.Unlock()
	}
	return true
}
