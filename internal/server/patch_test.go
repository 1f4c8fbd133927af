package server_test

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// follower rebuilds a room's state the way a patch client does: the last
// room.state, with every room.patch applied to it.
type follower struct {
	t     *testing.T
	c     *testserver.Client
	room  string
	state map[string]any
	// patchBytes and fullBytes: sizes of the frames seen, by type.
	patches, fulls []int
	presences      int
}

func (f *follower) seq() int64 {
	s, _ := f.state["seq"].(float64)
	return int64(s)
}

// until consumes messages until the state has reached seq.
func (f *follower) until(seq int64) {
	f.t.Helper()
	for f.state == nil || f.seq() < seq {
		f.apply(f.c.Wait("", f.mine))
	}
	if f.seq() != seq {
		f.t.Fatalf("%s: state jumped to seq %d, want %d", f.c.Player.Name, f.seq(), seq)
	}
}

// reach consumes messages until want holds of the state (a room.presence
// may still be on its way); false if it never does.
func (f *follower) reach(want func(map[string]any) bool) bool {
	f.t.Helper()
	for f.state == nil || !want(f.state) {
		m, ok := f.c.TryWait("", f.mine, testserver.Timeout)
		if !ok {
			return false
		}
		f.apply(m)
	}
	return true
}

// mine: the frames of the follower's room that change what it holds, as
// the server sent them.
func (f *follower) mine(m testserver.Msg) bool {
	return m.Room == f.room && !m.Derived && (m.Type == "room.state" || m.Type == protocol.TypeRoomPatch ||
		m.Type == protocol.TypeRoomPresence || m.Type == "error")
}

func (f *follower) apply(m testserver.Msg) {
	f.t.Helper()
	switch m.Type {
	case "error":
		f.t.Fatalf("error: %s", m.Raw)
	case "room.state":
		f.state = map[string]any{}
		if err := json.Unmarshal(m.Raw, &f.state); err != nil {
			f.t.Fatal(err)
		}
		f.fulls = append(f.fulls, len(m.Raw))
	case protocol.TypeRoomPresence:
		if f.state == nil {
			return
		}
		var p protocol.RoomPresence
		if err := json.Unmarshal(m.Raw, &p); err != nil {
			f.t.Fatal(err)
		}
		testserver.ApplyPresence(f.state, p)
		f.presences++
	default:
		if f.state == nil {
			f.t.Fatalf("room.patch before any room.state: %s", m.Raw)
		}
		if err := protocol.ApplyPatch(f.state, m.Raw); err != nil {
			f.t.Fatalf("apply %s: %v", m.Raw, err)
		}
		f.patches = append(f.patches, len(m.Raw))
	}
}

func helloPatch(t *testing.T, s *testserver.Server, name string) *testserver.Client {
	t.Helper()
	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Send(map[string]any{"type": "hello", "name": name, "features": []string{"patch", "unknown-feature"}})
	w := c.Wait("welcome", nil)
	var got struct {
		Features []string `json:"features"`
	}
	if err := json.Unmarshal(w.Raw, &got); err != nil || !reflect.DeepEqual(got.Features, []string{"patch"}) {
		t.Fatalf("welcome %s: features granted %v, want [patch]", w.Raw, got.Features)
	}
	c.Player, c.Token = w.Player, w.Token
	return c
}

// without returns a copy of m without the given keys.
func without(m map[string]any, keys ...string) map[string]any {
	out := maps.Clone(m)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// TestPatchClientsSeeTheSameStateAsFullClients plays a go game with players
// and spectators of both kinds while spectators come and go: after every
// change, the state a patch client rebuilds equals the full room.state a
// client without the feature receives (legal aside for spectators), the
// mover's patch carries its legal moves, and move patches are a small
// fraction of the full state.
func TestPatchClientsSeeTheSameStateAsFullClients(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := helloPatch(t, s, "ana")  // seat 0, patches
	b := s.Hello(t, "bia", "")    // seat 1, full states
	sp := helloPatch(t, s, "spy") // spectator, patches
	sf := s.Hello(t, "sol", "")   // spectator, full states
	room := humanRoom(a, b, "go", "9")
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	sf.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	fa := &follower{t: t, c: a, room: room}
	fp := &follower{t: t, c: sp, room: room}
	full := func(pred func(testserver.Msg) bool) map[string]any {
		m := sf.State(room, pred)
		var st map[string]any
		if err := json.Unmarshal(m.Raw, &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	// The joins settle at the state where both spectators are counted
	// and both players are connected.
	cur := full(func(m testserver.Msg) bool {
		return m.Spectators == 2 && m.Status == "playing" && m.Players[0].Connected && m.Players[1].Connected
	})
	check := func(what string) {
		t.Helper()
		seq := int64(cur["seq"].(float64))
		fa.until(seq)
		fp.until(seq)
		// moves and chat are sent on join only; patches never carry them.
		same := func(st map[string]any) bool {
			return reflect.DeepEqual(without(st, "legal", "moves", "chat"), without(cur, "legal", "moves", "chat"))
		}
		fa.reach(same)
		if !fp.reach(same) {
			t.Fatalf("%s: patch spectator rebuilt\n%v\nfull state is\n%v", what, without(fp.state, "legal", "moves", "chat"), without(cur, "legal", "moves", "chat"))
		}
		if !reflect.DeepEqual(without(fa.state, "moves", "chat"), without(cur, "moves", "chat")) &&
			!reflect.DeepEqual(without(fa.state, "legal", "moves", "chat"), without(cur, "legal", "moves", "chat")) {
			t.Fatalf("%s: patch player rebuilt\n%v\nfull state is\n%v", what, fa.state, cur)
		}
		if turn, ok := cur["turn"].(float64); ok && turn == 0 && !reflect.DeepEqual(fa.state["legal"], cur["legal"]) {
			t.Fatalf("%s: seat 0 to move holds legal %v, want %v", what, fa.state["legal"], cur["legal"])
		}
	}
	check("after the joins")

	rng := rand.New(rand.NewPCG(8, 8))
	var extra []*testserver.Client
	players := []*testserver.Client{a, b}
	for i := 0; i < 40; i++ {
		// Spectators come and go between moves: their count reaches the
		// patch clients with the next move at the latest.
		switch i % 5 {
		case 1:
			c := s.Hello(t, "crowd", "")
			c.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			c.State(room, nil)
			extra = append(extra, c)
		case 3:
			if len(extra) > 0 {
				extra[0].Close()
				extra = extra[1:]
			}
		}
		turn := int(cur["turn"].(float64))
		var legal []string
		for _, l := range cur["legal"].([]any) {
			if l != "pass" {
				legal = append(legal, l.(string))
			}
		}
		move := legal[rng.IntN(len(legal))]
		players[turn].Send(map[string]any{"type": "room.move", "room": room, "move": move})
		cur = full(func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == move })
		check("move " + move)
	}
	a.Send(map[string]any{"type": "room.resign", "room": room})
	cur = full(func(m testserver.Msg) bool { return m.Status == "finished" })
	check("resign")
	if fp.state["result"] == nil || fa.state["status"] != "finished" {
		t.Fatalf("result not carried by the patches: %v", fp.state)
	}

	// A member that joins while a spectator change waits for the flush gets
	// the full state once more with it; never more than that.
	if len(fp.patches) < 40 || len(fp.fulls) > 2 {
		t.Fatalf("patch spectator got %d patches and %d full states, want >= 40 and at most 2", len(fp.patches), len(fp.fulls))
	}
	patchBytes, fullBytes := 0, 0
	for _, n := range fp.patches {
		patchBytes += n
	}
	for _, m := range sf.Log() {
		if m.Type == "room.state" {
			fullBytes += len(m.Raw)
		}
	}
	if patchBytes*4 > fullBytes {
		t.Errorf("the patch spectator received %d bytes of patches, the full one %d bytes of states: want under a quarter", patchBytes, fullBytes)
	}
}

// TestCrowdJoiningSendsOneFullStateEach: spectators taking patches join
// one after another before any move. Each gets the full state when it
// joins and at most once more (with the next move or the spectator-count
// flush), never again at every later join: a crowd of N joining would
// otherwise cost N^2/2 full states.
func TestCrowdJoiningSendsOneFullStateEach(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := s.Hello(t, "ana", "")
	b := s.Hello(t, "bia", "")
	room := humanRoom(a, b, "go", "19")
	st := a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Players[1].Connected })

	const crowd = 12
	var followers []*follower
	for i := range crowd {
		c := helloPatch(t, s, "crowd")
		c.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
		f := &follower{t: t, c: c, room: room, state: map[string]any{}}
		m := c.State(room, nil) // its own full state on joining
		if err := json.Unmarshal(m.Raw, &f.state); err != nil {
			t.Fatal(err)
		}
		if m.Spectators != i+1 {
			t.Fatalf("spectator %d joined a state with %d spectators", i+1, m.Spectators)
		}
		f.fulls = append(f.fulls, len(m.Raw))
		followers = append(followers, f)
	}
	a.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
	moved := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	for i, f := range followers {
		f.until(moved.Seq)
		if len(f.fulls) > 2 {
			t.Errorf("spectator %d of %d got %d full states, want at most 2 (its join, then the move or flush)", i+1, crowd, len(f.fulls))
		}
		if got := f.state["spectators"].(float64); got != crowd {
			t.Errorf("spectator %d rebuilt %v spectators, want %d", i+1, got, crowd)
		}
	}
}
