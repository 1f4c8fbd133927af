package rooms

import (
	"context"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// clockManager is a manager over st whose rooms read the time from now
// (nil: the real time).
func clockManager(t *testing.T, st store.Store, now func() time.Time, edit ...func(*Config)) *Manager {
	t.Helper()
	cfg := Config{Store: st, Now: now}
	for _, e := range edit {
		e(&cfg)
	}
	m, _ := startManager(t, cfg, 2)
	return m
}

func clockedRoom(t *testing.T, m *Manager, base, inc int) (*Room, *fakeMember, *fakeMember) {
	t.Helper()
	a, b := newMember(1, "a"), newMember(2, "b")
	spec := Spec{Game: "race5", Variant: "5", Clock: &protocol.TimeControl{Base: base, Increment: inc}}
	return pairRoom(t, m, spec, a, b), a, b
}

// clocksOf reads room.state's clocks as milliseconds per seat.
func clocksOf(t *testing.T, st protocol.RoomState) [2]int64 {
	t.Helper()
	m, ok := st.Clocks.(map[string]any)
	if !ok || len(m) != 2 {
		t.Fatalf("clocks %#v, want {\"0\":ms,\"1\":ms}", st.Clocks)
	}
	return [2]int64{int64(m["0"].(float64)), int64(m["1"].(float64))}
}

// firstMoves plays the first move of each seat of a clocked race5 room,
// which no clock times, and returns the state after them.
func firstMoves(t *testing.T, r *Room, a, b *fakeMember) protocol.RoomState {
	t.Helper()
	r.Move(a, "1", nil)
	b.waitState(t, atTotal(1))
	r.Move(b, "1", nil)
	return a.waitState(t, atTotal(2))
}

// atTotal matches the race5 states whose total is n, the first of which
// follows the move that made it.
func atTotal(n int) func(protocol.RoomState) bool {
	return func(s protocol.RoomState) bool { return s.Board == float64(n) }
}

// TestClockChargesTheMoverAndAddsTheIncrement: with an injected clock the
// charge is exact: a seat's first move costs nothing and earns nothing
// (its clock starts with it); after it the mover loses the time since its
// turn began and gains the increment; the other clock does not move;
// room.state shows the time as of the moment it is encoded.
func TestClockChargesTheMoverAndAddsTheIncrement(t *testing.T) {
	now := fakeclock.New()
	m := clockManager(t, memstore.New(), now.Now)
	r, a, b := clockedRoom(t, m, 10, 2)
	start := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	if got := clocksOf(t, start); got != [2]int64{10000, 10000} {
		t.Fatalf("start clocks %v", got)
	}
	// Seats 0 and 1 move in turn, each after thinking; the other sees the
	// clocks.
	for i, step := range []struct {
		think time.Duration
		want  [2]int64
		what  string
	}{
		{3 * time.Second, [2]int64{10000, 10000}, "seat 0's first move, 3 s in"},
		{4 * time.Second, [2]int64{10000, 10000}, "seat 1's first move, 4 s in"},
		{3 * time.Second, [2]int64{9000, 10000}, "seat 0 thought 3 s (+2 s)"},
		{4 * time.Second, [2]int64{9000, 8000}, "seat 1 thought 4 s (+2 s)"},
	} {
		mover, other := a, b
		if i%2 == 1 {
			mover, other = b, a
		}
		now.Advance(step.think)
		r.Move(mover, "1", nil)
		if got := clocksOf(t, other.waitState(t, atTotal(i+1))); got != step.want {
			t.Fatalf("after %s: clocks %v, want %v", step.what, got, step.want)
		}
	}
	// A spectator joining 1.5 s into seat 0's turn sees that turn's time gone.
	now.Advance(1500 * time.Millisecond)
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	if got := clocksOf(t, sp.waitState(t, func(protocol.RoomState) bool { return true })); got != [2]int64{7500, 8000} {
		t.Fatalf("spectator's view: clocks %v, want [7500 8000]", got)
	}
}

// TestMoveAfterTheFlagLoses: a move that arrives when the mover's time is
// gone (before the timer fired) is refused and the game ends on time.
func TestMoveAfterTheFlagLoses(t *testing.T) {
	now := fakeclock.New()
	m := clockManager(t, memstore.New(), now.Now)
	r, a, b := clockedRoom(t, m, 5, 0)
	firstMoves(t, r, a, b)
	now.Advance(5 * time.Second)
	r.Move(a, "1", nil)
	a.waitErr(t, string(protocol.CodeGameOver))
	fin := b.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Reason != ReasonTimeout || fin.Result.Winner == nil || *fin.Result.Winner != 1 ||
		fin.LastMove.Seat != 1 || clocksOf(t, fin) != [2]int64{0, 5000} {
		t.Fatalf("after the flag: %+v", fin)
	}
}

// TestClockFlagFallsWithNobodyMoving: a 1-s clock and, after the first
// moves, nobody moving: the room's own timer ends the game, the seat to
// move losing on time; the result is saved before anyone sees it.
func TestClockFlagFallsWithNobodyMoving(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil)
	r, a, b := clockedRoom(t, m, 1, 0)
	firstMoves(t, r, a, b)
	fin := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Reason != ReasonTimeout || *fin.Result.Winner != 1 {
		t.Fatalf("result %+v, want seat 1 to win on time", fin.Result)
	}
	if c := clocksOf(t, fin); c != [2]int64{0, 1000} {
		t.Fatalf("final clocks %v, want [0 1000]", c)
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil || saved.Seq != fin.Seq {
		t.Fatalf("stored seq %d (%v), broadcast %d", saved.Seq, err, fin.Seq)
	}
	r.Move(a, "1", nil)
	a.waitErr(t, string(protocol.CodeGameOver))
	b.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
}

// TestBotTurnsUseTheClock: the bot's thinking is charged to its clock
// (after its first move, like anyone's): a bot that overruns its
// (clock-shortened) deadline has less than its base afterwards.
func TestBotTurnsUseTheClock(t *testing.T) {
	m := clockManager(t, memstore.New(), nil)
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5", Clock: &protocol.TimeControl{Base: 60},
		Seats: []players.Player{{ID: "a"}, {Bot: "slow"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Move(a, "1", nil)
	first := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
	if c := clocksOf(t, first); c[1] != 60000 {
		t.Fatalf("clocks after the first moves %v: a first move is not timed", c)
	}
	r.Move(a, "1", nil)
	st := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 && s.Seq > first.Seq })
	// The slow bot sleeps past its deadline, which is at least 50 ms; the
	// pool answers for it at the deadline, so 50 ms at least were charged.
	if c := clocksOf(t, st); c[1] > 60000-50 || c[0] > 60000 {
		t.Fatalf("clocks after the bot's move %v: the bot's time was not charged", c)
	}
}

func TestClockRefusals(t *testing.T) {
	m := clockManager(t, memstore.New(), nil)
	for _, tt := range []struct {
		name string
		spec Spec
	}{
		{"base 0", Spec{Clock: &protocol.TimeControl{Base: 0}}},
		{"base too long", Spec{Clock: &protocol.TimeControl{Base: protocol.MaxClockBase + 1}}},
		{"negative increment", Spec{Clock: &protocol.TimeControl{Base: 60, Increment: -1}}},
		{"increment too long", Spec{Clock: &protocol.TimeControl{Base: 60, Increment: protocol.MaxClockIncrement + 1}}},
		{"bots only", Spec{Clock: &protocol.TimeControl{Base: 60}, Watch: true, Seats: []players.Player{{Bot: "one"}, {Bot: "one"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			spec.Game, spec.Variant = "race5", "5"
			if spec.Seats == nil {
				spec.Seats = []players.Player{{ID: "a"}, {}}
			}
			_, err := m.Create(context.Background(), spec)
			if pe := protocol.AsError(err); pe == nil || pe.Code != protocol.CodeBadRequest {
				t.Fatalf("created with %+v: %v", spec.Clock, err)
			}
		})
	}
	if m.Len() != 0 {
		t.Fatalf("%d rooms running", m.Len())
	}
}

// TestClocksSurviveARestore: the snapshot keeps the clocks. Time while the
// server was down is not charged: the seat to move gets the time it had
// when its turn began, and its clock runs again from the restore.
func TestClocksSurviveARestore(t *testing.T) {
	for _, backend := range []string{"memstore", "redis"} {
		t.Run(backend, func(t *testing.T) {
			st := backendStore(t, backend)
			now := fakeclock.New()
			m := clockManager(t, st, now.Now)
			r, a, b := clockedRoom(t, m, 10, 1)
			firstMoves(t, r, a, b)
			now.Advance(3 * time.Second)
			r.Move(a, "1", nil)
			b.waitState(t, atTotal(3))
			now.Advance(2 * time.Second)
			r.Move(b, "1", nil)
			last := a.waitState(t, atTotal(4))
			if got := clocksOf(t, last); got != [2]int64{8000, 9000} {
				t.Fatalf("before the restart: %v", got)
			}
			now.Advance(4 * time.Second) // seat 0 thinks, then the server dies
			if err := m.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}

			now.Advance(time.Hour) // the server is down
			a2 := newMember(5, "a")
			r2, got := restoreAndJoin(t, st, clockManager(t, st, now.Now), r.ID(), a2)
			if c := clocksOf(t, got); c != [2]int64{8000, 9000} || *got.Turn != 0 || got.Status != StatusPlaying {
				t.Fatalf("restored: clocks %v turn %v status %s; want [8000 9000], seat 0 to move", c, *got.Turn, got.Status)
			}
			now.Advance(500 * time.Millisecond)
			r2.Move(a2, "1", nil)
			after := a2.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.Seq > got.Seq })
			if c := clocksOf(t, after); c != [2]int64{8500, 9000} {
				t.Fatalf("first move after the restore: clocks %v, want [8500 9000]", c)
			}
		})
	}
}
