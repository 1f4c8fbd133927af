package cluster

import (
	"context"
	"encoding/json"
	"math/rand/v2"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Quick match across nodes: the queues live in the store (store.Matcher,
// one atomic step per request), so two players on different nodes are
// paired. The node of the second player creates the room; the first
// player's node is told on its channel ("match"), sends match.found and
// joins its connection, through the broker, as a player. Casual and rated
// requests wait in queues apart (hub.QueueKey); a rated one pairs by
// rating (store.Pick), and the hub's sweep offers this node's waiting
// rated seekers to the shared queue again every step (Offer), as their
// ranges widen.

// matchmaker is the node's hub.Matchmaker.
type matchmaker struct{ n *Node }

func (n *Node) entry(c hub.Client) store.MatchEntry {
	e := store.MatchEntry{Player: c.PlayerID(), Name: c.PlayerName(), Node: n.cfg.Node, Conn: c.ConnID()}
	if r, ok := c.(interface{ MatchRated() bool }); ok {
		e.Rated = r.MatchRated()
	}
	if s, ok := c.(interface{ MatchSeek() ratings.Seeker }); ok && e.Rated {
		seek := s.MatchSeek()
		e.Rating, e.Since, e.Step = seek.Rating, seek.Since.UnixMilli(), seek.Step.Milliseconds()
	}
	return e
}

// Cancel implements hub.Matchmaker.
func (mm matchmaker) Cancel(c hub.Client, keys []hub.QueueKey) {
	n := mm.n
	ctx, cancel := context.WithTimeout(context.Background(), hub.StoreTimeout)
	defer cancel()
	for _, k := range keys {
		if _, err := n.cfg.Matcher.Unqueue(ctx, k.String(), n.entry(c)); err != nil {
			n.log.Warn("unqueue", zap.String("queue", k.String()), zap.Error(err))
		}
	}
}

// Find implements hub.Matchmaker.
func (mm matchmaker) Find(c hub.Client, m *protocol.ClientMessage, key hub.QueueKey) *protocol.Error {
	return mm.find(c, m.ID, key, false)
}

// Offer implements hub.Matchmaker: c's entry taken out of the shared
// queue, then offered again (its range widened). An entry no longer there
// was taken by another node's request, whose match is on its way here.
func (mm matchmaker) Offer(c hub.Client, key hub.QueueKey) *protocol.Error {
	n := mm.n
	ctx, cancel := context.WithTimeout(context.Background(), hub.StoreTimeout)
	was, err := n.cfg.Matcher.Unqueue(ctx, key.String(), n.entry(c))
	cancel()
	if err != nil {
		n.log.Warn("quick match: offer again", zap.Error(err))
		return nil // it waits as it was
	}
	if !was {
		return nil
	}
	return mm.find(c, nil, key, true)
}

// find pairs c in the shared queue key, or queues it (answering
// match.queued to reqID, unless again: an offer of a waiting seeker).
func (mm matchmaker) find(c hub.Client, reqID json.RawMessage, key hub.QueueKey, again bool) *protocol.Error {
	n, h := mm.n, mm.n.h
	ctx, cancel := context.WithTimeout(context.Background(), hub.StoreTimeout)
	defer cancel()
	var (
		other store.MatchEntry
		local hub.Client
	)
	for {
		o, ok, err := n.cfg.Matcher.Match(ctx, key.String(), n.entry(c))
		if err != nil {
			n.log.Error("quick match", zap.Error(err))
			return protocol.Errorf(protocol.CodeInternal, "could not queue you, try again")
		}
		if !ok {
			if again {
				return nil // waits on, in this node's queue already
			}
			h.Enqueue(c, key)
			c.Send(protocol.MustEncode(protocol.MatchQueued{Type: protocol.TypeMatchQueued, ID: reqID,
				Game: key.Game, Variant: key.Variant, Queued: true}))
			return nil
		}
		if o.Node == n.cfg.Node {
			if local = h.Client(o.Conn); local == nil || local.Closed() {
				continue // it left: try the next one
			}
			h.Dequeue(local)
		} else if !n.isAlive(o.Node) {
			continue // a request left behind by a node that died
		}
		other = o
		break
	}
	if again {
		h.Dequeue(c)
	}
	seats := []players.Player{players.Of(other.Player, other.Name), players.Of(c.PlayerID(), c.PlayerName())}
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
	if _, err := n.cfg.Rooms.Create(ctx, rooms.Spec{ID: id, Game: key.Game, Variant: key.Variant, Seats: seats, Join: join, For: c.PlayerID(),
		Rated: key.Rated && other.Rated}); err != nil {
		perr := protocol.AsError(err)
		if local != nil {
			local.Fail(perr)
		}
		return perr
	}
	if local == nil {
		n.publish(other.Node, &wire{K: kindMatch, Room: id, Conn: other.Conn, Seat: 1 - mine})
	}
	n.log.Info("match found", zap.String("room", id), zap.String("game", key.Game), zap.String("variant", key.Variant),
		zap.String("with", other.Node))
	return nil
}

// matched tells a connection queued here that another node paired it.
func (n *Node) matched(w *wire) {
	c := n.h.Client(w.Conn)
	if c == nil {
		return // gone: its seat waits, and its opponent may claim the win
	}
	n.h.Dequeue(c)
	c.Send(protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: w.Room, Seat: w.Seat}))
	n.rejoinLater(c, w.Room, rooms.RolePlayer)
}
