package cluster

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// FuzzClusterMessage: whatever arrives on a node's channel (another node's
// bug, a stray publisher), the node does not panic and goes on serving.
func FuzzClusterMessage(f *testing.F) {
	seed := []wire{
		{K: kindCmd, Node: "other", Room: "r1", Req: 1, Conn: 3, Player: "p", Msg: &protocol.ClientMessage{Type: protocol.TypeRoomMove, Room: "r1", Move: "a1"}},
		{K: kindCmd, Node: "other", Room: "r1", Conn: 3, Msg: &protocol.ClientMessage{Type: typeGone, Room: "r1"}},
		{K: kindCmd, Node: "other", Room: "r1", Req: 2},
		{K: kindAck, Node: "other", Req: 7, Status: ackOK},
		{K: kindFrames, Node: "other", Room: "r1", Link: 1, Seq: 1, Items: []item{{Conns: []uint64{1, 2}, Frame: json.RawMessage(`{"type":"room.state"}`)}, {Conns: []uint64{1}, J: "spectator"}, {Conns: []uint64{1}, J: "-"}}},
		{K: kindFrames, Node: "other", Room: "r1", Link: 1, Seq: 5},
		{K: kindMatch, Node: "other", Room: "r2", Conn: 1, Seat: 1},
		{K: kindHeartbeat, Node: "other", Lobby: &hub.Digest{Rooms: []protocol.RoomSummary{{ID: "x", Game: "go"}}}},
		{K: kindRoomsPage, Node: "other", Req: 3, Rooms: []protocol.RoomSummary{{ID: "x", Game: "go"}}},
		{K: kindRun, Node: "other", Room: "r1", Req: 4, Player: "bot.x", Msg: &protocol.ClientMessage{Type: protocol.TypeRoomMove, Room: "r1", Move: "a1"}},
		{K: kindRan, Node: "other", Req: 4, Status: ackOK, Err: &protocol.ErrorMessage{Type: protocol.TypeError, Code: protocol.CodeIllegalMove}},
	}
	for _, w := range seed {
		b, err := json.Marshal(w)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"k":"frames","i":[{"c":null,"f":null}]}`))
	f.Add([]byte(`not json`))

	_, _, ns := memNodes(f, "me")
	h, m, n := ns[0].h, ns[0].m, ns[0].n
	f.Fuzz(func(t *testing.T, data []byte) {
		n.handle(data)
		if got := h.Rooms(context.Background(), hub.Query{Limit: 10}); got.Rooms == nil && len(m.Summaries()) > 0 {
			t.Fatal("the lobby stopped answering")
		}
	})
}
