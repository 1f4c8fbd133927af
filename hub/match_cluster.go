package hub

import (
	"context"
	"math/rand/v2"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Quick match across nodes: the queues live in the store (store.Matcher,
// one atomic step per request), so two players on different nodes are
// paired. The node of the second player creates the room; the first
// player's node is told on its channel ("match"), sends match.found and
// joins its connection, through the broker, as a player.

func (k queueKey) String() string { return k.game + "/" + k.variant }

func (cl *cluster) entry(c *conn) store.MatchEntry {
	return store.MatchEntry{Player: c.playerID, Name: c.PlayerName(), Node: cl.cfg.Node, Conn: c.id}
}

// isAlive says whether node was heard from within a lease's lifetime (a
// node this one has not heard of yet is given the benefit of the doubt for
// that long after this one started).
func (cl *cluster) isAlive(node string) bool {
	if node == cl.cfg.Node {
		return true
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	seen, ok := cl.seen[node]
	if !ok {
		seen = cl.started
	}
	return now().Sub(seen) <= cl.cfg.TTL
}

// unqueueShared takes c out of the shared queues keys.
func (h *Hub) unqueueShared(c *conn, keys []queueKey) {
	if h.cl == nil || h.cl.matcher == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	for _, k := range keys {
		if err := h.cl.matcher.Unqueue(ctx, k.String(), h.cl.entry(c)); err != nil {
			h.log.Warn("unqueue", zap.String("queue", k.String()), zap.Error(err))
		}
	}
}

func (cl *cluster) matchFind(c *conn, m *protocol.ClientMessage, key queueKey) *protocol.Error {
	h := cl.h
	h.mu.Lock()
	keys := h.unqueueLocked(c)
	h.mu.Unlock()
	h.unqueueShared(c, keys)
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	var (
		other store.MatchEntry
		local *conn
	)
	for {
		o, ok, err := cl.matcher.Match(ctx, key.String(), cl.entry(c))
		if err != nil {
			h.log.Error("quick match", zap.Error(err))
			return protocol.Errorf(protocol.CodeInternal, "could not queue you, try again")
		}
		if !ok {
			h.mu.Lock()
			h.queues[key] = append(h.queues[key], c)
			h.mu.Unlock()
			h.LobbyChanged()
			c.Send(protocol.MustEncode(protocol.MatchQueued{Type: protocol.TypeMatchQueued, ID: m.ID,
				Game: m.Game, Variant: m.Variant, Queued: true}))
			return nil
		}
		if o.Node == cl.cfg.Node {
			if local = h.connByID(o.Conn); local == nil || local.isClosed() {
				continue // it left: try the next one
			}
			h.mu.Lock()
			h.unqueueLocked(local)
			h.mu.Unlock()
		} else if !cl.isAlive(o.Node) {
			continue // a request left behind by a node that died
		}
		other = o
		break
	}
	h.LobbyChanged()
	seats := []rooms.Seat{{PlayerID: other.Player, Name: other.Name}, {PlayerID: c.playerID, Name: c.PlayerName()}}
	mine := 1
	if rand.IntN(2) == 1 {
		seats[0], seats[1], mine = seats[1], seats[0], 0
	}
	id := rooms.NewID()
	join := []rooms.JoinAs{{M: c, As: rooms.RolePlayer}}
	if local != nil {
		join = append(join, rooms.JoinAs{M: local, As: rooms.RolePlayer})
	}
	// match.found comes before room.joined, as on a single node.
	c.Send(protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: id, Seat: mine}))
	if local != nil {
		local.Send(protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: id, Seat: 1 - mine}))
	}
	if _, err := h.cfg.Rooms.Create(ctx, rooms.Spec{ID: id, Game: m.Game, Variant: m.Variant, Seats: seats, Join: join}); err != nil {
		perr := protocol.AsError(err)
		if local != nil {
			local.errorTo(nil, "", perr)
		}
		return perr
	}
	if local == nil {
		cl.publish(other.Node, &wire{K: kindMatch, Room: id, Conn: other.Conn, Seat: 1 - mine})
	}
	h.log.Info("match found", zap.String("room", id), zap.String("game", m.Game), zap.String("variant", m.Variant),
		zap.String("with", other.Node))
	return nil
}

// matched tells a connection queued here that another node paired it.
func (cl *cluster) matched(w *wire) {
	h := cl.h
	c := h.connByID(w.Conn)
	if c == nil {
		return // gone: its seat waits, and its opponent may claim the win
	}
	h.mu.Lock()
	h.unqueueLocked(c)
	h.mu.Unlock()
	h.LobbyChanged()
	c.Send(protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: w.Room, Seat: w.Seat}))
	h.cwg.Add(1)
	go func() {
		defer h.cwg.Done()
		h.rejoin(c, w.Room, rooms.RolePlayer)
	}()
}
