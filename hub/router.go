package hub

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Router reaches the room a client's message is for. The hub's dispatch
// decodes and checks the message, then hands it to the Router; when a
// connection closes, the hub tells the Router of every room the connection
// was in that does not run here. A single node's Router is localRouter: the
// rooms of this node's Manager, and nothing else. With several nodes the
// router plugged by package cluster (Plug) also reaches the rooms other
// nodes serve, through Reach.
type Router interface {
	// Route hands m from c to room m.Room and returns the error to send
	// back, if any; ctx bounds the store calls needed to find the room.
	Route(ctx context.Context, c rooms.Member, m *protocol.ClientMessage) *protocol.Error
	// Gone tells room, when it runs on another node, that c closed.
	Gone(c rooms.Member, room string)
}

// Delivery is what became of a message sent to another node's room.
type Delivery int

const (
	// Delivered: the room took it.
	Delivered Delivery = iota
	// LookAgain: the room is no longer there (it stopped, or its node is
	// dead and its lease was freed): find it again.
	LookAgain
	// NoAnswer: no answer in time.
	NoAnswer
)

// Elsewhere sends m from c to the room when another node, owner, serves it;
// attempt counts the tries of one Reach from 0.
type Elsewhere func(ctx context.Context, owner string, c rooms.Member, m *protocol.ClientMessage, attempt int) Delivery

// localRouter is a single node's Router: the rooms of its Manager.
type localRouter struct {
	rooms *rooms.Manager
	log   *zap.Logger
}

// Route implements Router.
func (r localRouter) Route(ctx context.Context, c rooms.Member, m *protocol.ClientMessage) *protocol.Error {
	return Reach(ctx, r.rooms, r.log, c, m, nil)
}

// Gone implements Router: every room of a single node runs here.
func (localRouter) Gone(rooms.Member, string) {}

// Reach is Route: the room when it runs here (no store call), else the
// Manager's Lookup (which restores it, or takes it over), or, when another
// node serves it, elsewhere (nil on a single node). Lookup is tried up to
// three times: a room that closed as the message came, or that elsewhere
// says to look for again, is found again.
func Reach(ctx context.Context, mgr *rooms.Manager, log *zap.Logger, c rooms.Member, m *protocol.ClientMessage, elsewhere Elsewhere) *protocol.Error {
	var other func(ctx context.Context, owner string, attempt int) Delivery
	if elsewhere != nil {
		other = func(ctx context.Context, owner string, attempt int) Delivery {
			return elsewhere(ctx, owner, c, m, attempt)
		}
	}
	return ReachWith(ctx, mgr, log, m.Room, func(r *rooms.Room) bool { return Post(r, c, m) }, other)
}

// ReachWith is Reach with what to do at the room: here, post the message
// (false: the room had closed); elsewhere (nil on a single node), send it
// to the owner's node. The bot API runs its commands through it.
func ReachWith(ctx context.Context, mgr *rooms.Manager, log *zap.Logger, room string, here func(*rooms.Room) bool,
	elsewhere func(ctx context.Context, owner string, attempt int) Delivery) *protocol.Error {
	// Most messages are for a room that runs here: those need no store,
	// so no deadline for one (a timer per move).
	if r, ok := mgr.Running(room); ok && here(r) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, StoreTimeout)
	defer cancel()
	for attempt := 0; attempt < 3; attempt++ {
		r, err := mgr.Lookup(ctx, room)
		var other *rooms.OwnedElsewhere
		switch {
		case errors.Is(err, rooms.ErrUnknownRoom):
			return protocol.Errorf(protocol.CodeUnknownRoom, "unknown room %q", room)
		case errors.As(err, &other) && elsewhere != nil:
			if elsewhere(ctx, other.Node, attempt) == Delivered {
				return nil
			}
			continue
		case err != nil:
			log.Warn("room lookup failed", zap.String("room", room), zap.Error(err))
			return protocol.Errorf(protocol.CodeInternal, "could not load room %s, try again", room)
		}
		if here(r) {
			return nil
		}
		// The room closed (emptied or adjourned) as the message came: the
		// next Lookup brings it back from the store.
	}
	return protocol.Errorf(protocol.CodeInternal, "room %s is unavailable, try again", room)
}
