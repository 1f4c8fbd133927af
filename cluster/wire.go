package cluster

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// kind is the kind of a message between nodes.
type kind string

// The kinds of message between nodes.
const (
	// kindCmd: a client's message for a room served by the receiver,
	// acknowledged with kindAck when Req is not 0.
	kindCmd kind = "cmd"
	// kindAck: the owner took (ackOK) or does not serve (ackGone) a command.
	kindAck kind = "ack"
	// kindFrames: frames and membership changes of one link (room to node).
	kindFrames kind = "frames"
	// kindMatch: the receiver's queued connection was paired in a room.
	kindMatch kind = "match"
	// kindHeartbeat: on "nodes", the sender is alive, and the digest of
	// the public rooms it serves.
	kindHeartbeat kind = "hb"
	// kindRooms: on "nodes", a page of GET /api/rooms asked of every node,
	// answered with kindRoomsPage on the asker's channel.
	kindRooms     kind = "rooms"
	kindRoomsPage kind = "page"
	// kindRun: a bot API command (a move, a resignation) for a room served
	// by the receiver, answered with kindRan once the room has run it.
	kindRun kind = "run"
	kindRan kind = "ran"
	// kindBotEvent: on "nodes", an event line for the event streams of
	// the bot accounts in Players.
	kindBotEvent kind = "bot"
)

// wire is one message between nodes.
type wire struct {
	// K is the kind.
	K    kind   `json:"k"`
	Node string `json:"n"`
	Room string `json:"r,omitempty"`
	// Req names a command and its ack (0: no ack wanted).
	Req uint64 `json:"q,omitempty"`
	// cmd: the sending connection and the client's message.
	Conn   uint64 `json:"c,omitempty"`
	Player string `json:"p,omitempty"`
	Name   string `json:"nm,omitempty"`
	Patch  bool   `json:"pt,omitempty"`
	// Account (kindCmd): the connection's player is an account.
	Account bool                    `json:"ac,omitempty"`
	Msg     *protocol.ClientMessage `json:"m,omitempty"`
	// ack: ok or gone (the room does not run here).
	Status string `json:"s,omitempty"`
	// frames: the link (one owner room to one node) and its sequence.
	Link  uint64 `json:"l,omitempty"`
	Seq   uint64 `json:"sq,omitempty"`
	Items []item `json:"i,omitempty"`
	// match: the seat of the connection paired by another node.
	Seat int `json:"st,omitempty"`
	// hb: the digest of the node's public rooms, for the other nodes'
	// lobbies.
	Lobby *hub.Digest `json:"lb,omitempty"`
	// rooms: the page asked for; page: the answer (Req is the request's).
	Query *hub.Query             `json:"qy,omitempty"`
	Rooms []protocol.RoomSummary `json:"rs,omitempty"`
	// hb: the bot accounts online on the node.
	Bots []protocol.BotInfo `json:"bt,omitempty"`
	// ran: the room's error (none when it took the command).
	Err *protocol.ErrorMessage `json:"er,omitempty"`
	// bot: the bots an event is for, and its line.
	Players []string        `json:"ps,omitempty"`
	Line    json.RawMessage `json:"ln,omitempty"`
}

// item is one frame for some connections of a node, or a change of one
// connection's membership (J: "player", "spectator", or "-" for left).
type item struct {
	Conns []uint64        `json:"c"`
	Frame json.RawMessage `json:"f,omitempty"`
	J     string          `json:"j,omitempty"`
}

// typeGone is the pseudo message a node forwards when a connection closes.
const typeGone = "x.gone"

const (
	ackOK   = "ok"
	ackGone = "gone"
)

// publish sends w to node's channel, or to every node's ("nodes") when node
// is "".
func (n *Node) publish(node string, w *wire) {
	w.Node = n.cfg.Node
	b, err := json.Marshal(w)
	if err != nil {
		n.log.Error("encode cluster message", zap.Error(err))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.AckTimeout)
	defer cancel()
	ch := nodesChannel
	if node != "" {
		ch = nodeChannel(node)
	}
	if err := n.cfg.Broker.Publish(ctx, ch, b); err != nil {
		n.log.Warn("publish", zap.String("to", node), zap.Error(err))
	}
}

// receive handles the node channel. It never blocks on another node: what
// may wait runs on its own goroutine.
func (n *Node) receive() {
	defer n.wg.Done()
	for data := range n.sub.C() {
		n.handle(data)
	}
}

// handle runs one message of the node channel.
func (n *Node) handle(data []byte) {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		n.log.Warn("bad cluster message", zap.Error(err))
		return
	}
	n.alive(w.Node)
	switch w.K {
	case kindCmd:
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.command(&w)
		}()
	case kindAck, kindRan:
		n.mu.Lock()
		ch := n.pending[w.Req]
		delete(n.pending, w.Req)
		n.mu.Unlock()
		if ch != nil {
			ch <- &w
		}
	case kindRun:
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.run(&w)
		}()
	case kindFrames:
		n.frames(&w)
	case kindMatch:
		n.matched(&w)
	case kindRoomsPage:
		n.mu.Lock()
		ch := n.pages[w.Req]
		n.mu.Unlock()
		if ch != nil && len(w.Rooms) <= hub.MaxRoomsLimit+1 {
			select {
			case ch <- w.Rooms:
			default: // more answers than nodes asked: a stray one
			}
		}
	}
}
