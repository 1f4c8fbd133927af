package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestTakebackThenSIGKILL: the real binary on Redis, a morris game with a
// clock between two people. A takeback is asked and the server is killed;
// the restarted server shows the request standing. It is accepted and the
// server is killed at once: the restarted server shows exactly the
// position the players saw after the takeback (board, turn, legal moves,
// history, last move, the clock of the seat not to move to the
// millisecond, the other's never above what it was), and the room's log,
// read back through prev with its takeback applied, is the game played.
func TestTakebackThenSIGKILL(t *testing.T) {
	t.Parallel()
	const prefix = "takeback:"
	p := startPair(t, prefix, "morris", "3", 300)
	l, rs, srv, a, b, room := p.l, p.rs, p.srv, p.a, p.b, p.room
	players := []*testserver.Client{a, b}
	for i, mv := range []string{"b2", "a1", "c3", "c1", "b1"} {
		players[i%2].Send(map[string]any{"type": "room.move", "room": room, "move": mv})
		a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == mv })
	}
	// a takes back its b1, b has not replied: one ply.
	a.Send(map[string]any{"type": "room.takeback.ask", "room": room})
	b.State(room, func(m testserver.Msg) bool { return m.Takeback != nil })
	l.kill()
	l.start()

	a, b = srv.Hello(t, "", a.Token), srv.Hello(t, "", b.Token)
	if st := b.State(room, nil); st.Takeback == nil || *st.Takeback != (protocol.TakebackAsk{Seat: 0, Plies: 1}) || len(st.Moves) != 5 {
		t.Fatalf("after the first kill: %s", st.Raw)
	}
	a.State(room, nil)
	b.Send(map[string]any{"type": "room.takeback.accept", "room": room})
	seen := a.State(room, func(m testserver.Msg) bool { return m.Moves != nil && len(m.Moves) == 4 })
	l.kill()
	killed := time.Now()
	l.start()

	b = srv.Hello(t, "", b.Token)
	got := b.State(room, nil)
	wantMoves := []protocol.LastMove{{Seat: 0, Move: "b2"}, {Seat: 1, Move: "a1"}, {Seat: 0, Move: "c3"}, {Seat: 1, Move: "c1"}}
	if string(got.Board) != string(seen.Board) || *got.Turn != 0 || *seen.Turn != 0 || !slices.Equal(got.Legal, seen.Legal) ||
		!slices.Equal(got.Moves, wantMoves) || !slices.Equal(seen.Moves, wantMoves) || *got.LastMove != wantMoves[3] ||
		got.Takeback != nil || got.Status != "playing" {
		t.Fatalf("after the second kill\n%s\nthe players saw\n%s", got.Raw, seen.Raw)
	}
	clocks := func(m testserver.Msg) map[string]int64 {
		var v struct{ Clocks map[string]int64 }
		if err := json.Unmarshal(m.Raw, &v); err != nil || len(v.Clocks) != 2 {
			t.Fatalf("clocks of %s: %v", m.Raw, err)
		}
		return v.Clocks
	}
	gc, sc := clocks(got), clocks(seen)
	// Seat 0 to move: its time runs from the restore, from what it had
	// when its turn began, which the takeback set (seen shows it less the
	// milliseconds until it was encoded).
	if gc["1"] != sc["1"] || gc["0"] > sc["0"]+1000 || gc["0"] < sc["0"]-time.Since(killed).Milliseconds()-1000 {
		t.Fatalf("clocks after the restart %v, seen %v", gc, sc)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := redisstore.New(ctx, rs.Addr(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	history, err := logHistory(ctx, st, room)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(wantMoves))
	for i, m := range wantMoves {
		want[i] = fmt.Sprintf("%d:%s", m.Seat, m.Move)
	}
	if !slices.Equal(history, want) {
		t.Fatalf("the log's history %v, want %v", history, want)
	}
}

// humanPair is a lobby on a private Redis and a game between two people in it,
// playing.
type humanPair struct {
	l     *lobby
	rs    *redistest.Server
	srv   *testserver.Server
	a, b  *testserver.Client
	room  string
	state testserver.Msg // b's first state of the game
}

// startPair builds and starts the lobby on a private Redis under prefix,
// and starts a game of game and variant between two people, with a clock
// of base seconds and 2 s of increment.
func startPair(t *testing.T, prefix, game, variant string, base int) humanPair {
	t.Helper()
	bin := lobbybin.Build(t, *raceFlag)
	p := humanPair{rs: redistest.StartServer(t)}
	p.l = newLobby(t, bin, p.rs.Addr(), prefix)
	p.l.start()
	p.srv = &testserver.Server{WSURL: p.l.wsURL()}
	p.a, p.b = p.srv.Hello(t, "ana", ""), p.srv.Hello(t, "bia", "")
	p.a.Send(map[string]any{"type": "room.create", "game": game, "variant": variant, "opponent": "human",
		"clock": map[string]any{"base": base, "increment": 2}})
	p.room = p.a.Wait("room.joined", nil).Room
	p.b.Send(map[string]any{"type": "room.join", "room": p.room, "as": "player"})
	p.state = p.b.State(p.room, func(m testserver.Msg) bool { return m.Status == "playing" })
	return p
}

// logHistory reads a room's moves from its log: the entries from the
// snapshot's seq back through prev, each takeback taking its plies off.
func logHistory(ctx context.Context, st *redisstore.Store, room string) ([]string, error) {
	saved, err := st.LoadRoom(ctx, room)
	if err != nil {
		return nil, err
	}
	raw, err := st.RoomLog(ctx, room)
	if err != nil {
		return nil, err
	}
	type entry struct {
		Seq   int64  `json:"seq"`
		Prev  int64  `json:"prev"`
		Kind  string `json:"kind"`
		Seat  *int   `json:"seat"`
		Move  string `json:"move"`
		Plies int    `json:"plies"`
	}
	bySeq := map[int64]entry{}
	for _, e := range raw {
		var le entry
		if err := json.Unmarshal(e, &le); err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		bySeq[le.Seq] = le
	}
	var chain []entry
	for seq := saved.Seq; seq != 0; {
		le, ok := bySeq[seq]
		if !ok || le.Prev >= seq {
			return nil, fmt.Errorf("no entry at seq %d of the history, or a bad prev", seq)
		}
		chain = append(chain, le)
		seq = le.Prev
	}
	slices.Reverse(chain)
	var history []string
	for _, le := range chain {
		switch le.Kind {
		case "move":
			history = append(history, fmt.Sprintf("%d:%s", *le.Seat, le.Move))
		case "takeback":
			if le.Plies > len(history) {
				return nil, fmt.Errorf("a takeback of %d plies after %d moves", le.Plies, len(history))
			}
			history = history[:len(history)-le.Plies]
		}
	}
	return history, nil
}
