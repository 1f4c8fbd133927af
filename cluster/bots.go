package cluster

import (
	"context"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// Bot accounts behind a balancer (docs/bots-api.md): a bot's HTTP requests
// may reach any node. Its event stream hears of its games on every node
// (BotEvent, on "nodes"); every node knows it online from the heartbeat of
// the node holding its stream (BotsElsewhere); its game stream follows a
// room another node serves as a hub.Attached client (frames come back on
// the room's link like a WebSocket's); and its moves run on the room's node
// (RunAt).

// maxBotsHeard bounds the bots taken from one node's heartbeat (a node
// holds at most its -bot-streams of them).
const maxBotsHeard = 4096

// heardBots keeps the bots online on node.
func (n *Node) heardBots(node string, bots []protocol.BotInfo) {
	bots = bots[:min(len(bots), maxBotsHeard)]
	n.mu.Lock()
	if len(bots) == 0 {
		delete(n.bots, node)
	} else {
		n.bots[node] = bots
	}
	n.mu.Unlock()
}

// BotsElsewhere lists the bot accounts with an event stream open on other
// nodes, as their last heartbeat said (one entry a bot, its game streams
// of every node added up).
func (n *Node) BotsElsewhere() []protocol.BotInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	byID := map[string]int{}
	var out []protocol.BotInfo
	for _, bots := range n.bots {
		for _, b := range bots {
			if i, ok := byID[b.ID]; ok {
				out[i].Games += b.Games
				continue
			}
			byID[b.ID] = len(out)
			out = append(out, b)
		}
	}
	return out
}

// BotsChanged sends this node's heartbeat now rather than at its next
// tick: a bot came online here, or left, and a challenge on another node
// must find it at once. It never blocks.
func (n *Node) BotsChanged() {
	select {
	case n.beatNow <- struct{}{}:
	default:
	}
}

// botEvents bounds the bot events waiting for the announcer.
const botEvents = 1024

// BotEvent publishes line, an event of the bot accounts' event streams, to
// the other nodes, whose OnBotEvent gives it to the streams of bots they
// hold. It never blocks (the rooms call it): the announcer publishes the
// events in order; past botEvents waiting (the broker stalled) one is
// dropped, and its bot hears of that game when its stream reconnects.
func (n *Node) BotEvent(bots []string, line []byte) {
	select {
	case n.events <- &wire{K: kindBotEvent, Players: slices.Clone(bots), Line: line}:
	default:
		n.log.Warn("bot event dropped: the broker does not keep up", zap.Strings("bots", bots))
	}
}

// announcer publishes the bot events, in order.
func (n *Node) announcer() {
	defer n.wg.Done()
	for {
		select {
		case <-n.quit:
			return
		case w := <-n.events:
			n.publish("", w)
		}
	}
}

// runWait bounds the wait for the room's node to have run a command: the
// message there and back, and the room's save.
const runWait = 2 * rooms.DefaultSaveTimeout

// RunAt runs m, from player (named name), in room m.Room on owner, the node
// that serves it, as hub.Run does there: it returns the room's error, nil
// when the room took the command. The Delivery says what became of it:
// LookAgain when owner does not serve the room (it stopped there, or owner
// is dead and the room's lease was freed), NoAnswer when owner did not
// answer in time. attempt counts the tries from 0, as hub.Elsewhere's.
func (n *Node) RunAt(ctx context.Context, owner, player, name string, m *protocol.ClientMessage, attempt int) (*protocol.ErrorMessage, hub.Delivery) {
	if n.takeOver(m.Room, owner, attempt > 0) {
		return nil, hub.LookAgain
	}
	req, ch, done := n.expect()
	defer done()
	n.publish(owner, &wire{K: kindRun, Room: m.Room, Player: player, Name: name, Msg: m, Req: req})
	t := time.NewTimer(runWait)
	defer t.Stop()
	select {
	case a := <-ch:
		if a.Status != ackOK {
			return nil, hub.LookAgain
		}
		return a.Err, hub.Delivered
	case <-t.C:
	case <-ctx.Done():
	case <-n.quit:
	}
	return nil, hub.NoAnswer
}

// run runs a command another node's RunAt sent, and answers it.
func (n *Node) run(w *wire) {
	a := &wire{K: kindRan, Req: w.Req, Room: w.Room, Status: ackGone}
	// The bot API's commands, and nothing else: the rest of a client's
	// messages come as kindCmd from a member joined through its link.
	if r, ok := n.cfg.Rooms.Running(w.Room); ok && w.Msg != nil && w.Msg.Room == w.Room &&
		(w.Msg.Type == protocol.TypeRoomMove || w.Msg.Type == protocol.TypeRoomResign || w.Msg.Type == hub.TypeResignBotError) {
		if e, posted := hub.Run(r, w.Player, w.Name, w.Msg); posted {
			a.Status, a.Err = ackOK, e
		}
	}
	if w.Req != 0 {
		n.publish(w.Node, a)
	}
}
