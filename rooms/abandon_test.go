package rooms

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// claimAnswer sends room.claim for mem and returns the error message, or ""
// when the claim ended the game.
func claimAnswer(t *testing.T, r *Room, mem *fakeMember) (code, msg string) {
	t.Helper()
	return answer(t, r, mem, r.Claim)
}

// settle waits until the room has handled every command posted before.
func settle(r *Room) {
	done := make(chan struct{})
	if r.post(func() { close(done) }) {
		<-done
	}
}

func withGrace(g time.Duration, f int) func(*Config) {
	return func(c *Config) { c.Grace, c.AdjournFactor = g, f }
}

// TestClaimAfterTheGracePeriod: when the opponent has been gone for the
// grace period the player may claim the win; earlier the claim is refused
// with the seconds left, and room.state shows when it becomes possible.
func TestClaimAfterTheGracePeriod(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now, withGrace(30*time.Second, 10))
	r, a, b := twoPlayers(t, m)
	r.Move(a, "1", nil)
	b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
	left := now.Now()
	r.Leave(b, nil)
	settle(r)
	seen := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && !s.Players[1].Connected })
	if p := seen.Players[1]; p.GoneSince != left.UnixMilli() || p.ClaimableAt != left.Add(30*time.Second).UnixMilli() {
		t.Fatalf("gone player %+v, want goneSince %d and claimableAt 30 s later", p, left.UnixMilli())
	}
	if p := seen.Players[0]; p.GoneSince != 0 || p.ClaimableAt != 0 {
		t.Fatalf("connected player %+v has goneSince/claimableAt", p)
	}

	now.Advance(29*time.Second + 500*time.Millisecond)
	if code, msg := claimAnswer(t, r, a); code != string(protocol.CodeBadRequest) || !strings.Contains(msg, "in 1 s") {
		t.Fatalf("claim 29.5 s after: %s %q, want bad_request saying 1 s remain", code, msg)
	}
	// b comes back and leaves again: the grace starts over.
	r.Join(b, RolePlayer, nil)
	settle(r)
	if code, msg := claimAnswer(t, r, a); code != string(protocol.CodeBadRequest) || !strings.Contains(msg, "connected") {
		t.Fatalf("claim against a connected opponent: %s %q", code, msg)
	}
	r.Leave(b, nil)
	settle(r)
	now.Advance(29 * time.Second)
	if code, _ := claimAnswer(t, r, a); code != string(protocol.CodeBadRequest) {
		t.Fatalf("claim 29 s after the second departure: %q, want bad_request", code)
	}
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	settle(r)
	if code, _ := claimAnswer(t, r, sp); code != string(protocol.CodeNotAPlayer) {
		t.Fatalf("a spectator's claim: %q", code)
	}
	now.Advance(time.Second)
	if code, msg := claimAnswer(t, r, a); code != "" {
		t.Fatalf("claim after the grace: %s %q", code, msg)
	}
	fin := sp.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Reason != ReasonAbandoned || *fin.Result.Winner != 0 || fin.Players[1].ClaimableAt != 0 {
		t.Fatalf("after the claim: %+v", fin)
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil || saved.Seq != fin.Seq {
		t.Fatalf("claim not saved: stored seq %d (%v), broadcast %d", saved.Seq, err, fin.Seq)
	}
	if code, _ := claimAnswer(t, r, a); code != string(protocol.CodeGameOver) {
		t.Fatalf("a second claim: %q", code)
	}
}

func TestClaimRefusals(t *testing.T) {
	now := fakeclock.New()
	m := clockManager(t, memstore.New(), now.Now, withGrace(time.Second, 10))
	a := newMember(1, "a")
	vsBot, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "a"}, {Bot: "one"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "a"}, {}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	now.Advance(time.Hour)
	for _, tt := range []struct {
		name string
		r    *Room
		want protocol.Code
	}{
		{"against a bot", vsBot, protocol.CodeBadRequest},
		{"before an opponent joined", waiting, protocol.CodeBadRequest},
	} {
		if code, msg := claimAnswer(t, tt.r, a); code != string(tt.want) || msg == "" {
			t.Errorf("%s: %s %q, want %s", tt.name, code, msg, tt.want)
		}
	}
	if code, _ := claimAnswer(t, vsBot, newMember(9, "stranger")); code != string(protocol.CodeNotAPlayer) {
		t.Errorf("a stranger's claim: %q", code)
	}
}

// TestGraceGrowsWithTheClock: under a 10-minute clock the grace is a tenth
// of it (60 s) when the configured one is shorter.
func TestGraceGrowsWithTheClock(t *testing.T) {
	now := fakeclock.New()
	m := clockManager(t, memstore.New(), now.Now, withGrace(30*time.Second, 10))
	r, a, b := clockedRoom(t, m, 600, 0)
	both := a.waitState(t, func(s protocol.RoomState) bool { return s.Players[1].Connected })
	r.Leave(b, nil)
	seen := a.waitState(t, func(s protocol.RoomState) bool { return s.Seq >= both.Seq && s.Players[1].ClaimableAt != 0 })
	if p := seen.Players[1]; p.ClaimableAt-p.GoneSince != 60000 {
		t.Fatalf("claimable %d ms after leaving, want 60000", p.ClaimableAt-p.GoneSince)
	}
}

// TestEmptyRoomIsAdjournedAndComesBack: a game without a clock that nobody
// is in stops its goroutine after Grace*AdjournFactor; the snapshot stays
// (playing) and the room comes back, with its history, when asked for.
func TestEmptyRoomIsAdjournedAndComesBack(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil, withGrace(5*time.Millisecond, 2))
	r, a, b := twoPlayers(t, m)
	r.Move(a, "2", nil)
	last := b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
	r.Leave(a, nil)
	r.Leave(b, nil)
	waitDone(t, r)
	if m.Len() != 0 {
		t.Fatal("adjourned room still registered")
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil || saved.Finished || saved.Seq != last.Seq {
		t.Fatalf("stored room after adjournment: seq %d finished %v (%v); want seq %d unfinished", saved.Seq, saved.Finished, err, last.Seq)
	}
	r2, ok := m.Get(context.Background(), r.ID())
	if !ok || r2 == r {
		t.Fatal("the adjourned room did not come back")
	}
	b2 := newMember(5, "b")
	r2.Join(b2, RolePlayer, nil)
	back := b2.waitState(t, func(protocol.RoomState) bool { return true })
	if back.Status != StatusPlaying || back.Board.(float64) != 2 || len(back.Moves) != 1 || *back.Turn != 1 {
		t.Fatalf("back from adjournment: %+v", back)
	}
	r2.Move(b2, "1", nil)
	b2.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
}

// TestWhoKeepsARoomAlive: no adjournment while a spectator watches, under a
// clock (the flag ends the game), or in a room where only bots play.
func TestWhoKeepsARoomAlive(t *testing.T) {
	m := clockManager(t, memstore.New(), nil, withGrace(time.Hour, 10))
	idle := func(r *Room) bool {
		ch := make(chan bool, 1)
		if !r.post(func() { ch <- r.idleTimer.armed() }) {
			t.Fatal("room closed")
		}
		return <-ch
	}
	r, a, b := twoPlayers(t, m)
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	r.Leave(a, nil)
	r.Leave(b, nil)
	if idle(r) {
		t.Error("adjournment armed with a spectator in the room")
	}
	r.Leave(sp, nil)
	if !idle(r) {
		t.Error("adjournment not armed in an empty playing room")
	}
	r.Join(sp, RoleSpectator, nil)
	if idle(r) {
		t.Error("adjournment still armed after someone came in")
	}

	rc, ca, cb := clockedRoom(t, m, 60, 0)
	rc.Leave(ca, nil)
	rc.Leave(cb, nil)
	if idle(rc) {
		t.Error("adjournment armed under a clock")
	}
}

// TestRestoreRestartsTheGrace: after a restore every human seat is gone
// since the restore: the server's downtime does not count.
func TestRestoreRestartsTheGrace(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now, withGrace(30*time.Second, 10))
	r, a, _ := twoPlayers(t, m)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	now.Advance(time.Hour)
	back := now.Now()
	m2 := clockManager(t, st, now.Now, withGrace(30*time.Second, 10))
	r2, ok := m2.Get(context.Background(), r.ID())
	if !ok {
		t.Fatal("not restored")
	}
	a2 := newMember(4, "a")
	r2.Join(a2, RolePlayer, nil)
	got := a2.waitState(t, func(protocol.RoomState) bool { return true })
	if p := got.Players[1]; p.Connected || p.GoneSince != back.UnixMilli() {
		t.Fatalf("seat 1 after the restore: %+v, want gone since %d", p, back.UnixMilli())
	}
	if code, _ := claimAnswer(t, r2, a2); code != string(protocol.CodeBadRequest) {
		t.Fatalf("claim right after the restore: %q, want bad_request", code)
	}
}

// TestBotMovesWhileTheHumanIsGone: the human moves and leaves; the bot,
// slow to answer, still moves, and the empty room is adjourned only after
// the bot's move is saved.
func TestBotMovesWhileTheHumanIsGone(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil, withGrace(5*time.Millisecond, 2))
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "a"}, {Bot: "slow"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Move(a, "1", nil)
	r.Leave(a, nil)
	waitDone(t, r)
	_, back := restoreAndJoin(t, st, m, r.ID(), newMember(2, "a"))
	if len(back.Moves) != 2 || back.Moves[1].Seat != 1 || *back.Turn != 0 {
		t.Fatalf("after the adjournment: moves %v turn %v; want the bot's answer saved", back.Moves, *back.Turn)
	}
}
