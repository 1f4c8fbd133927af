package hub

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// StoreTimeout bounds the store calls made for one client message.
const StoreTimeout = 5 * time.Second

// dispatch handles one client message on the connection's reader goroutine:
// it decodes it, checks it against its type's entry in protocol.Messages
// and runs the type's handler (handlers.go); a room message goes to its
// room through the Router.
func (h *Hub) dispatch(c *conn, data []byte) {
	if h.draining.Load() {
		return // shutting down: the socket closes with 1012 next
	}
	m, err := protocol.DecodeClientMessage(data)
	if err != nil {
		c.errorTo(nil, "", protocol.Errorf(protocol.CodeBadRequest, "malformed JSON message"))
		return
	}
	if m.Type == "" {
		c.errorTo(m.ID, "", protocol.MissingField("type"))
		return
	}
	spec, known := protocol.Message(m.Type)
	if !known {
		c.errorTo(m.ID, "", protocol.Errorf(protocol.CodeBadRequest, "unknown message type %q", m.Type))
		return
	}
	if !spec.Anonymous && c.playerID == "" {
		c.errorTo(m.ID, m.Room, protocol.Errorf(protocol.CodeBadRequest, "say hello first"))
		return
	}
	if perr := h.handle(c, spec, &m); perr != nil {
		c.errorTo(m.ID, m.Room, perr)
	}
}

// handle checks m and runs its handler; a room message is admitted by the
// hub (its handler's admit), then routed to its room.
func (h *Hub) handle(c *conn, spec *protocol.MessageSpec, m *protocol.ClientMessage) *protocol.Error {
	if perr := spec.Validate(m); perr != nil {
		return perr
	}
	do := handlers[m.Type]
	if !spec.Room {
		return do.hub(h, c, m)
	}
	if do.admit != nil {
		if perr := do.admit(h, c, m); perr != nil {
			return perr
		}
	}
	return h.router.Route(context.Background(), c, m)
}

func (h *Hub) hello(c *conn, m *protocol.ClientMessage) *protocol.Error {
	// Said in time: the hello deadline is met as the hello arrives,
	// however long the store takes to answer it (welcome, or internal
	// and the client says it again) and to seat the player again.
	c.greet()
	if c.playerID != "" {
		return protocol.Errorf(protocol.CodeBadRequest, "hello was already said")
	}
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	p, token, found, perr := h.identify(ctx, c, m)
	if perr != nil {
		return perr
	}
	roomIDs := []string{}
	if found {
		// A resuming player whose rooms cannot be read must not be welcomed
		// with none: it would never be seated again. The hello is refused,
		// changes nothing, and the client says it again.
		ids, err := h.cfg.Store.PlayerRooms(ctx, p.ID)
		if err != nil {
			h.log.Warn("player rooms", zap.String("player", p.ID), zap.Error(err))
			return protocol.Errorf(protocol.CodeInternal, "could not load your rooms, try again")
		}
		if ids != nil {
			roomIDs = ids
		}
	}
	c.playerID, c.ident = p.ID, p
	c.account.Store(p.Account())
	c.setName(p.Name)
	var features []string
	if slices.Contains(m.Features, protocol.FeaturePatch) {
		c.patch = true
		features = []string{protocol.FeaturePatch}
	}
	h.mu.Lock()
	set := h.byPlayer[p.ID]
	if set == nil {
		set = map[*conn]struct{}{}
		h.byPlayer[p.ID] = set
	}
	set[c] = struct{}{}
	h.mu.Unlock()
	h.log.Info("hello", zap.Uint64("conn", c.id), zap.String("player", p.ID), zap.Bool("resumed", found),
		zap.Bool("session", c.sessionHash != ""))
	c.Send(protocol.MustEncode(protocol.Welcome{Type: protocol.TypeWelcome, ID: m.ID,
		Player: p.Public(), Token: token, Rooms: roomIDs, Features: features}))
	if found {
		// Seated again: the connection joins its unfinished rooms.
		for _, id := range roomIDs {
			if perr := h.router.Route(ctx, c, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: id, As: rooms.RolePlayer}); perr != nil {
				h.log.Info("seated again failed", zap.String("room", id), zap.String("error", perr.Msg))
			}
		}
	}
	return nil
}

// checkGame checks that a message names a game and a variant the catalog
// has, and returns the game and the variant's seats; Rooms.Create checks
// the rest of the room's spec (bot levels, seats, clock).
func (h *Hub) checkGame(game, variant string) (g engine.Game, seats int, perr *protocol.Error) {
	g, v, perr := rooms.GameVariant(h.cfg.Catalog, game, variant)
	if perr != nil {
		return nil, 0, perr
	}
	return g, v.Seats, nil
}

// roomQuota refuses a request that would put c in a room it is not in when
// it is in Config.MaxRooms rooms already.
func (h *Hub) roomQuota(c *conn, room string) *protocol.Error {
	if n, in := c.inRooms(room); !in && n >= h.cfg.MaxRooms {
		return protocol.Errorf(protocol.CodeBadRequest, "you are in %d rooms, the most one connection may be in: leave one first", n)
	}
	return nil
}

func (h *Hub) matchFind(c *conn, m *protocol.ClientMessage) *protocol.Error {
	if perr := h.roomQuota(c, ""); perr != nil {
		return perr
	}
	if perr := h.playerQuota(c, ""); perr != nil {
		return perr
	}
	_, seats, perr := h.checkGame(m.Game, m.Variant)
	if perr != nil {
		return perr
	}
	if seats != 2 {
		return protocol.Errorf(protocol.CodeBadRequest, "quick match is for two-player games; create a room instead")
	}
	wantRated, perr := rated(c, m, true)
	if perr != nil {
		return perr
	}
	key := QueueKey{Game: m.Game, Variant: m.Variant, Rated: wantRated}
	if shared := h.hooks().Match; shared != nil {
		h.cancelShared(c, h.Dequeue(c)) // the entries as queued: before the new wish
		if perr := h.seeking(c, key); perr != nil {
			return perr
		}
		c.matchRated.Store(wantRated)
		return shared.Find(c, m, key)
	}
	if perr := h.seeking(c, key); perr != nil {
		return perr
	}
	c.matchRated.Store(wantRated)
	h.mu.Lock()
	h.unqueueLocked(c)
	other := h.pairLocked(c, key)
	h.mu.Unlock()
	h.LobbyChanged()
	if other == nil {
		c.Send(protocol.MustEncode(protocol.MatchQueued{Type: protocol.TypeMatchQueued, ID: m.ID,
			Game: m.Game, Variant: m.Variant, Queued: true}))
		return nil
	}
	return h.startMatch(key, other, c, c)
}

func (h *Hub) create(c *conn, m *protocol.ClientMessage) *protocol.Error {
	if perr := h.roomQuota(c, ""); perr != nil {
		return perr
	}
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	g, seats, perr := h.checkGame(m.Game, m.Variant)
	if perr != nil {
		return perr
	}
	info := g.Info()
	level := m.Level
	needBot := m.Watch || m.Opponent == "bot"
	if needBot {
		if level == "" {
			if len(info.Levels) == 0 {
				return protocol.Errorf(protocol.CodeUnknownGame, "game %s has no bots", m.Game)
			}
			level = info.Levels[0].ID
		}
	}
	seat := 0
	switch s := string(bytes.TrimSpace(m.Seat)); s {
	case "", "null", "0":
	case "1":
		seat = 1
	case `"random"`:
		seat = rand.IntN(seats)
	default:
		return protocol.Errorf(protocol.CodeBadRequest, `"seat" must be 0, 1 or "random"`)
	}
	if seat >= seats {
		return protocol.Errorf(protocol.CodeBadRequest, "%s %s has %d seat(s)", m.Game, m.Variant, seats)
	}
	tc, perr := protocol.ParseClock(m.Clock)
	if perr != nil {
		return perr
	}
	opts, perr := protocol.ParseOptions(m.Komi, m.Handicap, m.Removal)
	if perr != nil {
		return perr
	}
	_, hasPool := ratings.Pool(m.Game, m.Variant, seats)
	isRated, perr := rated(c, m, hasPool && !m.Watch && m.Opponent == "human" && rooms.RatedSetup(m.Setup))
	if perr != nil {
		return perr
	}
	spec := rooms.Spec{Game: m.Game, Variant: m.Variant, Setup: m.Setup, Private: m.Private, Rated: isRated,
		Accounts: map[string]bool{c.playerID: c.Account()},
		Watch:    m.Watch, Clock: tc, Options: opts, ReqID: m.ID, Seats: make([]players.Player, seats), For: c.playerID}
	me := players.Of(c.playerID, c.PlayerName())
	switch {
	case m.Watch:
		for i := range spec.Seats {
			spec.Seats[i] = players.ServerBot(level, "bot "+level)
		}
		spec.Join = []rooms.JoinAs{{M: c, As: rooms.RoleSpectator}}
	case m.Opponent == "none":
		if seats != 1 {
			return protocol.Errorf(protocol.CodeBadRequest, `opponent "none" is for one-seat games`)
		}
		spec.Seats[0] = me
	default: // "human" or "bot" (protocol.Messages checked it)
		if seats != 2 {
			return protocol.Errorf(protocol.CodeBadRequest, `%s %s is a one-seat game: use opponent "none"`, m.Game, m.Variant)
		}
		spec.Seats[seat] = me
		if m.Opponent == "bot" {
			spec.Seats[1-seat] = players.ServerBot(level, "bot "+level)
		}
	}
	if !m.Watch {
		spec.Join = []rooms.JoinAs{{M: c, As: rooms.RolePlayer}}
	}
	if _, err := h.cfg.Rooms.Create(ctx, spec); err != nil {
		return protocol.AsError(err)
	}
	return nil
}

// rated is whether c's room.create or match.find asks for a rated game:
// its "rated" when sent, else rated when c's player is an account (or a bot
// account) and the game may be rated (may: a pool, another player to
// face). Asking for a rated game where it cannot be is refused.
func rated(c *conn, m *protocol.ClientMessage, may bool) (bool, *protocol.Error) {
	account := c.Account() || players.IsBotID(c.playerID)
	switch {
	case m.Rated == nil:
		return account && may, nil
	case !*m.Rated:
		return false, nil
	case !may:
		return false, protocol.Errorf(protocol.CodeBadRequest, "only a game between two players, from the initial position, in a variant with a rating pool can be rated (opponent \"human\", no setup)")
	case !account:
		return false, protocol.Errorf(protocol.CodeBadRequest, rooms.NotRatedMsg)
	}
	return true, nil
}
