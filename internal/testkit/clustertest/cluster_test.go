package clustertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// cluster is the nodes of a test and which of them are down.
type cluster struct {
	nodes []*node
	mu    sync.Mutex
	down  map[int]bool
}

func (cl *cluster) isDown(i int) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.down[i]
}

func (cl *cluster) setDown(i int) {
	cl.mu.Lock()
	cl.down[i] = true
	cl.mu.Unlock()
}

// person is a player or a spectator: a token that outlives its
// connections, which may move to another node.
type person struct {
	name      string
	spectator bool
	node      int
	c         *client
	old       []*client
}

// connect (re)connects p to its node, or the next one up, and joins room.
func (p *person) connect(cl *cluster, room string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for cl.isDown(p.node) {
			p.node = (p.node + 1) % len(cl.nodes)
		}
		token := ""
		if p.c != nil {
			token = p.c.token
			p.old = append(p.old, p.c)
		}
		c, err := dial(cl.nodes[p.node].wsURL(), p.name, token)
		if err != nil {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if token != "" && c.token != token {
			return fmt.Errorf("%s: came back as another player", p.name)
		}
		p.c = c
		if room == "" {
			return nil
		}
		if err := p.join(room); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s: could not join room %s again", p.name, room)
}

var joinIDs atomic.Int64

// join asks to join room until the room answers (its node may be down
// until its lease runs out).
func (p *person) join(room string) error {
	as := "player"
	if p.spectator {
		as = "spectator"
	}
	for range 20 {
		// The request id tells this join's answer from a join the server
		// made by itself (after a takeover).
		n := joinIDs.Add(1)
		id := strconv.FormatInt(n, 10)
		if err := p.c.send(map[string]any{"type": "room.join", "room": room, "as": as, "id": n}); err != nil {
			return err
		}
		m, err := p.c.wait(5*time.Second, func(m *msg) bool {
			return m.Room == room && string(m.ID) == id && (m.Type == "room.joined" || m.Type == "error")
		})
		switch {
		case errors.Is(err, errClosed):
			return err
		case err == nil && m.Type == "room.joined":
			return nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	return fmt.Errorf("%s: room %s never answered the join", p.name, room)
}

func (p *person) clients() []*client { return append(slices.Clone(p.old), p.c) }

// game is one room played by a driver goroutine.
type game struct {
	name, game, variant string
	room                string
	owner               int
	players             map[int]*person
	specs               []*person
	cap                 int
	rng                 *rand.Rand
	acked               []protocol.LastMove
	ackedN              atomic.Int64
	trace               []string
	start               time.Time
	// After holdAt acknowledged moves the driver waits for hold to close
	// (the kill), so that every room is in mid-game then.
	holdAt int
	hold   chan struct{}
}

func (g *game) tracef(format string, args ...any) {
	g.trace = append(g.trace, fmt.Sprintf("%6dms ", time.Since(g.start).Milliseconds())+fmt.Sprintf(format, args...))
}

func (g *game) people() []*person {
	out := slices.Clone(g.specs)
	for _, p := range g.players {
		out = append(out, p)
	}
	return out
}

// current is the newest room.state any of its people received.
func (g *game) current() *msg {
	var cur *msg
	for _, p := range g.people() {
		for _, c := range p.clients() {
			if m := c.latest(g.room); m != nil && (cur == nil || m.Seq > cur.Seq) {
				cur = m
			}
		}
	}
	return cur
}

// play drives the room to its end: the human to move plays a random legal
// move and waits for it to be acknowledged (a room.state carrying it); a
// connection that died is replaced through another node.
func (g *game) play(cl *cluster) error {
	g.start = time.Now()
	deadline := time.Now().Add(150 * time.Second)
	plies := 0
	for time.Now().Before(deadline) {
		for _, p := range g.people() {
			if p.c.closed() {
				if err := p.connect(cl, g.room); err != nil {
					return err
				}
			}
		}
		st := g.current()
		if st == nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if st.Status == "finished" {
			return nil
		}
		if st.Status != "playing" || st.Turn == nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		seat := *st.Turn
		p, human := g.players[seat]
		if !human || len(st.Legal) == 0 {
			time.Sleep(50 * time.Millisecond) // a bot's turn
			continue
		}
		if plies == g.holdAt && g.hold != nil {
			<-g.hold
			g.hold = nil
		}
		if plies >= g.cap {
			_ = p.c.send(map[string]any{"type": "room.resign", "room": g.room})
			_, _ = p.c.wait(3*time.Second, func(m *msg) bool { return m.Type == "room.state" && m.Room == g.room && m.Status == "finished" })
			continue
		}
		move := protocol.LastMove{Seat: seat, Move: st.Legal[g.rng.IntN(len(st.Legal))]}
		g.tracef("%s sends %v on node%d at seq %d", p.name, move, p.node, st.Seq)
		if err := p.c.send(map[string]any{"type": "room.move", "room": g.room, "move": move.Move}); err == nil {
			m, err := p.c.wait(4*time.Second, func(m *msg) bool {
				return m.Room == g.room && (m.Type == "error" || m.Type == "room.state" && m.Seq > st.Seq && m.LastMove != nil)
			})
			if err == nil && m.Type == "room.state" && *m.LastMove == move {
				g.ack(move)
				plies++
				continue
			}
			if m != nil {
				g.tracef("answer %s", m.Raw)
			} else {
				g.tracef("no answer: %v", err)
			}
		}
		// Refused, or no acknowledgement: the move may or may not have
		// been applied (its node may have died after saving it). The
		// room's history, in the full state a join brings, says which.
		if err := g.resolve(cl, p, move); err != nil {
			return err
		}
	}
	return fmt.Errorf("%s: room %s not finished in time", g.name, g.room)
}

// resolve finds out whether move, sent by p without an acknowledgement, is
// in the room's history: it must be there right after the acknowledged
// moves, or not at all.
func (g *game) resolve(cl *cluster, p *person, move protocol.LastMove) error {
	for attempt := 0; attempt < 5; attempt++ {
		var err error
		if p.c.closed() {
			err = p.connect(cl, g.room)
		} else {
			err = p.join(g.room)
		}
		if err != nil {
			continue
		}
		full, err := p.c.wait(5*time.Second, func(m *msg) bool {
			return m.Type == "room.state" && m.Room == g.room && m.Moves != nil
		})
		if err != nil {
			continue
		}
		g.tracef("resolve via node%d: seq %d, %d moves", p.node, full.Seq, len(full.Moves))
		var human []protocol.LastMove
		for _, mv := range full.Moves {
			if _, ok := g.players[mv.Seat]; ok {
				human = append(human, mv)
			}
		}
		switch {
		case len(human) == len(g.acked)+1 && human[len(g.acked)] == move:
			g.ack(move) // applied; its acknowledgement was lost
		case len(human) != len(g.acked):
			return fmt.Errorf("%s: history %v after the acknowledged %v and the unacknowledged %v\n%s",
				g.name, human, g.acked, move, strings.Join(g.trace, "\n"))
		}
		return nil
	}
	return fmt.Errorf("%s: could not get the room's history", g.name)
}

func (g *game) ack(m protocol.LastMove) {
	g.acked = append(g.acked, m)
	g.ackedN.Add(1)
}

// check compares the room's final history, as a newcomer gets it, with
// what the driver saw acknowledged: every acknowledged move is there, in
// order, once, and no human move that was not acknowledged.
func (g *game) check(cl *cluster, via int) error {
	sp := &person{name: g.name + "-late", spectator: true, node: via}
	if err := sp.connect(cl, g.room); err != nil {
		return err
	}
	defer sp.c.close()
	st, err := sp.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "room.state" && m.Room == g.room })
	if err != nil {
		return err
	}
	if st.Status != "finished" || st.Result == nil {
		return fmt.Errorf("%s: final state %s", g.name, st.Raw)
	}
	var human []protocol.LastMove
	for _, mv := range st.Moves {
		if _, ok := g.players[mv.Seat]; ok {
			human = append(human, mv)
		}
	}
	if !slices.Equal(human, g.acked) {
		return fmt.Errorf("%s: the history's human moves\n%v\ndiffer from the acknowledged ones\n%v", g.name, human, g.acked)
	}
	if len(st.Moves) == 0 {
		return fmt.Errorf("%s: no move was played", g.name)
	}
	// Everyone ends on the final state (through another node for those
	// whose node died after the game's last move).
	for _, p := range g.people() {
		if p.c.closed() {
			if err := p.connect(cl, g.room); err != nil {
				return err
			}
		}
		if m := p.c.latest(g.room); m != nil && m.Seq >= st.Seq {
			continue // seen already: waiting for it again would wait out the timeout
		}
		if _, err := p.c.wait(10*time.Second, func(m *msg) bool {
			return m.Type == "room.state" && m.Room == g.room && m.Seq >= st.Seq
		}); err != nil && p.c.latest(g.room).Seq < st.Seq {
			return fmt.Errorf("%s: %s did not see the final state (seq %d): %v", g.name, p.name, st.Seq, err)
		}
	}
	return nil
}

// TestThreeNodes: three nodes on one Redis. Quick match pairs players on
// different nodes; then rooms whose players and spectators are spread over
// the nodes are played while node 0, which serves some of them and has
// members in the others, is SIGKILLed mid-game; every room ends, and every
// acknowledged move is in its history.
func TestThreeNodes(t *testing.T) {
	t.Parallel()
	rs := redistest.StartServer(t)
	cl := &cluster{nodes: startNodes(t, lobbybin.Build(t, false), rs.Addr(), "three:", 3), down: map[int]bool{}}

	t.Run("QuickMatchAcrossNodes", func(t *testing.T) {
		a := &person{name: "qa", node: 1}
		b := &person{name: "qb", node: 2}
		for _, p := range []*person{a, b} {
			if err := p.connect(cl, ""); err != nil {
				t.Fatal(err)
			}
			defer p.c.close()
		}
		if err := a.c.send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "match.queued" }); err != nil {
			t.Fatal(err)
		}
		if err := b.c.send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"}); err != nil {
			t.Fatal(err)
		}
		var rooms [2]string
		for i, p := range []*person{a, b} {
			f, err := p.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "match.found" })
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			if _, err := p.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "room.joined" && m.Room == f.Room }); err != nil {
				t.Fatalf("%s was not seated in %s: %v", p.name, f.Room, err)
			}
			rooms[i] = f.Room
		}
		if rooms[0] == "" || rooms[0] != rooms[1] {
			t.Fatalf("matched into %q and %q", rooms[0], rooms[1])
		}
		st, err := a.c.wait(10*time.Second, func(m *msg) bool {
			return m.Type == "room.state" && m.Room == rooms[0] && m.Status == "playing" &&
				m.Players[0].Connected && m.Players[1].Connected
		})
		if err != nil {
			t.Fatalf("the matched room never showed both players: %v", err)
		}
		_ = st
	})

	kinds := []struct {
		game, variant string
		bot           bool
		cap           int
	}{
		{"go", "9", false, 40}, {"orbito", "2", false, 60}, {"queens", "tradicional", false, 60},
		{"morris", "3", false, 40}, {"go", "9", true, 30}, {"orbito", "2", true, 60},
	}
	var games []*game
	for i, k := range kinds {
		g := &game{name: fmt.Sprintf("g%d-%s", i, k.game), game: k.game, variant: k.variant, cap: k.cap,
			players: map[int]*person{}, rng: rand.New(rand.NewPCG(uint64(i), 11))}
		owner, other, third := i%3, (i+1)%3, (i+2)%3
		opponent := "human"
		if k.bot {
			opponent, owner = "bot", 0 // bot rooms on the node that dies
		}
		g.owner = owner
		creator := &person{name: g.name + "-p0", node: owner}
		if err := creator.connect(cl, ""); err != nil {
			t.Fatal(err)
		}
		if err := creator.c.send(map[string]any{"type": "room.create", "game": k.game, "variant": k.variant,
			"opponent": opponent, "seat": 0}); err != nil {
			t.Fatal(err)
		}
		j, err := creator.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "room.joined" })
		if err != nil {
			t.Fatalf("%s: create: %v", g.name, err)
		}
		g.room = j.Room
		g.players[0] = creator
		if !k.bot {
			p1 := &person{name: g.name + "-p1", node: other}
			if err := p1.connect(cl, g.room); err != nil {
				t.Fatal(err)
			}
			g.players[1] = p1
		}
		for s, n := range []int{third, owner, other} {
			sp := &person{name: fmt.Sprintf("%s-s%d", g.name, s), spectator: true, node: n}
			if err := sp.connect(cl, g.room); err != nil {
				t.Fatal(err)
			}
			g.specs = append(g.specs, sp)
		}
		games = append(games, g)
	}
	t.Cleanup(func() {
		for _, g := range games {
			for _, p := range g.people() {
				for _, c := range p.clients() {
					c.close()
				}
			}
		}
	})

	killed := make(chan struct{})
	for _, g := range games {
		g.holdAt, g.hold = 3, killed
	}
	errs := make(chan error, len(games))
	for _, g := range games {
		go func() { errs <- g.play(cl) }()
	}
	// SIGKILL node 0 once every room is under way.
	for deadline := time.Now().Add(60 * time.Second); ; {
		ready := true
		for _, g := range games {
			ready = ready && g.ackedN.Load() >= 3
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rooms did not get going")
		}
		time.Sleep(20 * time.Millisecond)
	}
	atKill := make([]int64, len(games))
	overAtKill := make([]bool, len(games))
	for i, g := range games {
		atKill[i] = g.ackedN.Load()
		overAtKill[i] = g.current().Status == "finished"
	}
	cl.setDown(0)
	cl.nodes[0].kill()
	close(killed)
	t.Logf("node0 killed")
	for range games {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		return
	}
	moved := 0
	for i, g := range games {
		if err := g.check(cl, 1+i%2); err != nil {
			t.Error(err)
		}
		restored := hasLine(cl.nodes[1].log(), "room restored", g.room) || hasLine(cl.nodes[2].log(), "room restored", g.room)
		after := int64(len(g.acked)) - atKill[i]
		t.Logf("%s (on node%d): %d acknowledged human moves (%d after the kill), all in the history; taken over: %v",
			g.name, g.owner, len(g.acked), after, restored)
		// Node 0's rooms that were not over went on elsewhere.
		if g.owner == 0 && !overAtKill[i] {
			if !restored || after == 0 {
				t.Errorf("%s: node0's room was not taken over (restored %v, %d moves after the kill)", g.name, restored, after)
			}
			moved++
		}
	}
	if moved != 4 {
		t.Fatalf("%d of node0's 4 rooms were under way at the kill", moved)
	}
}

// TestPausedNodeCannotWrite: the node serving a room is paused (SIGSTOP)
// past its lease; another node takes the room over and play goes on there.
// A move sent to the paused node meanwhile is refused when it resumes
// (SIGCONT): the store fences it, the room stops there, and the room's log
// after the takeover holds only the new owner's moves.
func TestPausedNodeCannotWrite(t *testing.T) {
	t.Parallel()
	rs := redistest.StartServer(t)
	cl := &cluster{nodes: startNodes(t, lobbybin.Build(t, false), rs.Addr(), "fence:", 2), down: map[int]bool{}}
	a, b, room, st := orbitoGame(t, cl)
	defer a.c.close()
	defer b.c.close()

	cl.nodes[0].signal(syscall.SIGSTOP)
	// Seat 0's move to the paused node waits in its socket.
	stale := st.Legal[0]
	if err := a.c.send(map[string]any{"type": "room.move", "room": room, "move": stale}); err != nil {
		t.Fatal(err)
	}
	// Once the lease ran out, node 1 (which has bia in the room) takes it
	// over; ana plays there through a second connection.
	a2 := &person{name: "ana", node: 1}
	var err2 error
	if a2.c, err2 = dial(cl.nodes[1].wsURL(), "ana", a.c.token); err2 != nil {
		t.Fatal(err2)
	}
	defer a2.c.close()
	if err := a2.join(room); err != nil {
		t.Fatal(err)
	}
	cur, err := a2.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "room.state" && m.Room == room })
	if err != nil {
		t.Fatal(err)
	}
	fresh := st.Legal[1]
	var newMoves []protocol.LastMove
	if err := a2.c.send(map[string]any{"type": "room.move", "room": room, "move": fresh}); err != nil {
		t.Fatal(err)
	}
	m, err := b.c.wait(10*time.Second, func(m *msg) bool {
		return m.Type == "room.state" && m.Room == room && m.LastMove != nil && m.Seq > cur.Seq
	})
	if err != nil || m.LastMove.Move != fresh || m.LastMove.Seat != 0 {
		t.Fatalf("move %q (stale %q) on the new owner: %v %s", fresh, stale, err, m.Raw)
	}
	newMoves = append(newMoves, *m.LastMove)
	reply := m.Legal[0]
	if err := b.c.send(map[string]any{"type": "room.move", "room": room, "move": reply}); err != nil {
		t.Fatal(err)
	}
	if _, err := a2.c.wait(10*time.Second, func(m *msg) bool {
		return m.Type == "room.state" && m.Room == room && m.LastMove != nil && m.LastMove.Seat == 1
	}); err != nil {
		t.Fatal(err)
	}
	newMoves = append(newMoves, protocol.LastMove{Seat: 1, Move: reply})

	cl.nodes[0].signal(syscall.SIGCONT)
	// The resumed node finds its lease gone: the room stops there (on the
	// refused save of the stale move, or on its refused renewal, whichever
	// its goroutine meets first), and ana's first connection is joined
	// again on the new owner.
	if _, err := a.c.wait(20*time.Second, func(m *msg) bool {
		return m.Type == "room.state" && m.Room == room && m.LastMove != nil && m.LastMove.Seat == 1
	}); err != nil {
		t.Fatalf("ana's first connection was not joined again on the new owner: %v", err)
	}
	log := cl.nodes[0].log()
	if !hasLine(log, "room taken over by another node: stopping", room) {
		t.Fatalf("node0 did not stop the room:\n%s", cl.nodes[0].logTail())
	}
	t.Logf("node0 stopped the room on its refused save: %v; on its refused renewal: %v",
		hasLine(log, "room taken over by another node: stopping", room, `"on":"save"`),
		hasLine(log, "room taken over by another node: stopping", room, `"on":"renew"`))
	// The final history: node 1's moves only.
	late := &person{name: "late", spectator: true, node: 1}
	if err := late.connect(cl, room); err != nil {
		t.Fatal(err)
	}
	defer late.c.close()
	fin, err := late.c.wait(10*time.Second, func(m *msg) bool { return m.Type == "room.state" && m.Room == room })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fin.Moves, newMoves) {
		t.Fatalf("history %v; want only the new owner's %v (the stale %q must not be there)", fin.Moves, newMoves, stale)
	}
	checkLog(t, rs.Addr(), "fence:", room, newMoves)
}

// checkLog reads the room's log in Redis: its move entries, every one the
// store accepted, must be exactly want.
func checkLog(t *testing.T, addr, prefix, room string, want []protocol.LastMove) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := redisstore.New(ctx, addr, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	raw, err := st.RoomLog(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	var got []protocol.LastMove
	for _, e := range raw {
		var le struct {
			Kind string `json:"kind"`
			Seat *int   `json:"seat"`
			Move string `json:"move"`
		}
		if err := json.Unmarshal(e, &le); err != nil {
			t.Fatalf("log entry %s: %v", e, err)
		}
		if le.Kind == "move" && le.Seat != nil {
			got = append(got, protocol.LastMove{Seat: *le.Seat, Move: le.Move})
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the room's log in Redis has the moves %v; want %v", got, want)
	}
}
