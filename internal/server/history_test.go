package server_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// movesOf decodes the "moves" of a room.state; ok is false when the field
// is absent.
func movesOf(t *testing.T, m testserver.Msg) (moves []protocol.LastMove, ok bool) {
	t.Helper()
	var v struct {
		Moves *[]protocol.LastMove `json:"moves"`
	}
	if err := json.Unmarshal(m.Raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Moves == nil {
		return nil, false
	}
	return *v.Moves, true
}

// TestMoveHistoryForLateJoinersAndResumes: a spectator who arrives late, a
// player who comes back with its token and a player who resumes after a
// restart all get the whole move history in the room.state that answers
// them; the broadcasts after each move carry only lastMove.
func TestMoveHistoryForLateJoinersAndResumes(t *testing.T) {
	t.Parallel()
	st := memstore.New()
	s := testserver.Start(t, func(c *server.Config) { c.Store = st })
	a, b, sp, room, _ := morrisRoom(t, s)
	for _, m := range a.Log() {
		if m.Type == "room.state" { // the answer to room.create
			if moves, ok := movesOf(t, m); !ok || len(moves) != 0 {
				t.Fatalf("the creator's first room.state: moves %v (present %v), want []", moves, ok)
			}
			break
		}
	}
	want := []protocol.LastMove{{Seat: 0, Move: "b2"}, {Seat: 1, Move: "a1"}, {Seat: 0, Move: "c3"}}
	players := []*testserver.Client{a, b}
	for _, mv := range want {
		players[mv.Seat].Send(map[string]any{"type": "room.move", "room": room, "move": mv.Move})
		bc := sp.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && *m.LastMove == mv })
		if moves, ok := movesOf(t, bc); ok {
			t.Fatalf("the broadcast after %v carries moves %v", mv, moves)
		}
	}

	late := s.Hello(t, "late", "")
	late.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	if moves, _ := movesOf(t, late.State(room, nil)); !slices.Equal(moves, want) {
		t.Fatalf("late spectator: moves %v, want %v", moves, want)
	}

	b2 := s.Hello(t, "", b.Token) // a second tab of b
	if moves, _ := movesOf(t, b2.State(room, nil)); !slices.Equal(moves, want) {
		t.Fatalf("resumed player: moves %v, want %v", moves, want)
	}

	s.Stop()
	s2 := testserver.Start(t, func(c *server.Config) { c.Store = st })
	a2 := s2.Hello(t, "", a.Token)
	if moves, _ := movesOf(t, a2.State(room, nil)); !slices.Equal(moves, want) {
		t.Fatalf("after a restart: moves %v, want %v", moves, want)
	}
}
