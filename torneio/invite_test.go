package torneio

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// clockHarness is start with the invitations' deadlines on clock.
func clockHarness(t *testing.T, st store.Store, clock *fakeclock.Clock) *harness {
	t.Helper()
	pool := botpool.New(2, 64, 2*time.Second, zap.NewNop(), nil)
	rm := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Pool: pool, Log: zap.NewNop()})
	tm, err := New(Config{Rooms: rm, Store: st, Catalog: games.Catalog(), Poll: 20 * time.Millisecond, Parallel: 3, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{rooms: rm, t: tm, pool: pool}
	t.Cleanup(h.stop)
	return h
}

// waitStatus polls the tournament until pred holds (bounded).
func waitStatus(t *testing.T, m *Manager, id string, what string, pred func(*View) bool) *View {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		v, err := m.Get(context.Background(), id)
		if err == nil && pred(v) {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	v, err := m.Get(context.Background(), id)
	t.Fatalf("torneio %s: never %s: %+v, %v", id, what, v, err)
	return nil
}

// TestInvitations: the people a tournament enters are invited, the owner
// entering itself has accepted; the tournament waits for the answers; at
// the deadline it starts without the person who never answered (expired)
// and the one who declined (an answer may change until then); their games
// are never scheduled, so no room seats them.
func TestInvitations(t *testing.T) {
	st := memstore.New()
	clock := fakeclock.New()
	h := clockHarness(t, st, clock)
	ctx := context.Background()
	spec := Spec{Game: "queens", Entrants: []Entrant{{Level: "apressado"}, {Player: "pana"}, {Player: "pbia"}, {Player: "powner"}, {Player: "pcid"}},
		Partidas: []Partida{{"tradicional", 1}}, Wait: 60}
	id, err := h.t.Start(ctx, "powner", spec)
	if err != nil {
		t.Fatal(err)
	}
	v, err := h.t.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != StatusWaiting || len(v.Games) != 0 || v.Deadline == nil || !v.Deadline.Equal(clock.Now().Add(time.Minute)) {
		t.Fatalf("a tournament that invites people: status %s, %d games, deadline %v; want waiting, none, in a minute", v.Status, len(v.Games), v.Deadline)
	}
	want := []string{"", InvitePending, InvitePending, InviteAccepted, InvitePending}
	for i, e := range v.Entrants {
		if e.Invite != want[i] {
			t.Errorf("entrant %d (%s) invite %q, want %q", i, e.Label(), e.Invite, want[i])
		}
	}
	// Answers: Ana accepts, Bia accepts then declines, Cid never answers.
	for _, a := range [][2]string{{"pana", AnswerAccept}, {"pbia", AnswerAccept}, {"pbia", AnswerDecline}} {
		if err := h.t.Answer(ctx, id, a[0], a[1]); err != nil {
			t.Fatalf("Answer(%s, %s): %v", a[0], a[1], err)
		}
	}
	v = waitStatus(t, h.t, id, "Ana accepted and Bia declined", func(v *View) bool {
		return v.Entrants[1].Invite == InviteAccepted && v.Entrants[2].Invite == InviteDeclined
	})
	if v.Status != StatusWaiting {
		t.Fatalf("started with Cid's answer missing and the deadline not passed: %s", v.Status)
	}
	for _, tt := range []struct {
		who, answer string
		err         error
	}{
		{"pdan", AnswerAccept, ErrNotInvited},
		{"pana", AnswerStart, ErrNotOwner},
		{"pana", "maybe", nil},
	} {
		err := h.t.Answer(ctx, id, tt.who, tt.answer)
		if err == nil || (tt.err != nil && !errors.Is(err, tt.err)) {
			t.Errorf("Answer(%s, %s) = %v, want %v", tt.who, tt.answer, err, tt.err)
		}
	}
	clock.Advance(61 * time.Second)
	v = waitStatus(t, h.t, id, "running", func(v *View) bool { return v.Status != StatusWaiting })
	if v.Status != StatusRunning || v.Started == nil {
		t.Fatalf("after the deadline: %s, started %v", v.Status, v.Started)
	}
	var playing, withdrawn []string
	for _, e := range v.Entrants {
		playing = append(playing, e.Label()+" "+e.Invite)
	}
	for _, e := range v.Withdrawn {
		withdrawn = append(withdrawn, e.Label()+" "+e.Invite)
	}
	if got, want := fmtList(playing), "[apressado , pana accepted, powner accepted]"; got != want {
		t.Errorf("playing %s, want %s", got, want)
	}
	if got, want := fmtList(withdrawn), "[pbia declined, pcid expired]"; got != want {
		t.Errorf("withdrawn %s, want %s", got, want)
	}
	if len(v.Games) != 6 || len(v.Standings) != 3 {
		t.Fatalf("%d games and %d standings, want 6 and 3", len(v.Games), len(v.Standings))
	}
	if err := h.t.Answer(ctx, id, "pana", AnswerDecline); !errors.Is(err, ErrNotWaiting) {
		t.Errorf("an answer after the start: %v, want ErrNotWaiting", err)
	}
	// No room of the tournament seats the withdrawn.
	v = waitStatus(t, h.t, id, "rooms made", func(v *View) bool { return v.Games[0].Room != "" })
	for _, g := range v.Games {
		if g.Room == "" {
			continue
		}
		for _, e := range g.Entrants {
			if p := v.Entrants[e].Player; p == "pbia" || p == "pcid" {
				t.Errorf("game %d seats %s, who did not accept", g.Index, p)
			}
		}
	}
}

func fmtList(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out + "]"
}

// TestInvitationsEnd: a tournament starts as soon as everyone answered,
// or when its owner says so (only its owner); with fewer than two
// entrants left it is cancelled, saved as over and leaves the live ones.
func TestInvitationsEnd(t *testing.T) {
	st := memstore.New()
	clock := fakeclock.New()
	h := clockHarness(t, st, clock)
	ctx := context.Background()
	start := func(entrants ...Entrant) string {
		t.Helper()
		id, err := h.t.Start(ctx, "powner", Spec{Game: "queens", Entrants: entrants, Partidas: []Partida{{"tradicional", 1}}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	// All answered: it starts before its deadline.
	all := start(Entrant{Level: "gulosa"}, Entrant{Player: "pana"})
	if err := h.t.Answer(ctx, all, "pana", AnswerAccept); err != nil {
		t.Fatal(err)
	}
	if v := waitStatus(t, h.t, all, "begun", func(v *View) bool { return v.Status != StatusWaiting }); v.Status != StatusRunning || len(v.Games) != 2 {
		t.Errorf("everyone accepted: %s with %d games, want running with 2", v.Status, len(v.Games))
	}
	// The owner starts it without the ones who did not answer; alone,
	// the level's tournament is cancelled.
	early := start(Entrant{Level: "gulosa"}, Entrant{Player: "pbia"})
	if err := h.t.Answer(ctx, early, "pbia", AnswerStart); !errors.Is(err, ErrNotOwner) {
		t.Errorf("a guest started it: %v", err)
	}
	// The owner's limit counts the waiting ones.
	if _, err := h.t.Start(ctx, "powner", Spec{Game: "queens", Entrants: []Entrant{{Level: "gulosa"}, {Level: "roleta"}}, Partidas: []Partida{{"tradicional", 1}}}); !errors.Is(err, ErrOwnerBusy) {
		t.Errorf("a third live tournament of one owner: %v, want ErrOwnerBusy", err)
	}
	if err := h.t.Answer(ctx, early, "powner", AnswerStart); err != nil {
		t.Fatal(err)
	}
	v := waitStatus(t, h.t, early, "begun", func(v *View) bool { return v.Status != StatusWaiting })
	if v.Status != StatusCancelled || v.Finished == nil || len(v.Games) != 0 || len(v.Withdrawn) != 1 || v.Withdrawn[0].Invite != InviteExpired {
		t.Errorf("started with one entrant: %s, finished %v, %d games, withdrawn %+v; want cancelled", v.Status, v.Finished, len(v.Games), v.Withdrawn)
	}
	if saved, err := st.LoadTorneio(ctx, early); err != nil || !saved.Finished {
		t.Errorf("a cancelled tournament is saved as over: %v, %v", saved.Finished, err)
	}
	// Cancelled, it is no longer live: the owner may start another.
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := h.t.Start(ctx, "powner", Spec{Game: "queens", Entrants: []Entrant{{Level: "gulosa"}, {Level: "roleta"}}, Partidas: []Partida{{"tradicional", 1}}})
		if err == nil {
			break
		}
		if !errors.Is(err, ErrOwnerBusy) || time.Now().After(deadline) {
			t.Fatalf("after a cancel: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOwnerLimit: one owner has at most MaxLivePerOwner tournaments
// waiting or running; another owner is not held back by it, nor is a
// restart (Resume takes up every unfinished one).
func TestOwnerLimit(t *testing.T) {
	st := memstore.New()
	h := start(t, st)
	ctx := context.Background()
	waiting := Spec{Game: "queens", Entrants: []Entrant{{Level: "gulosa"}, {Player: "pguest"}}, Partidas: []Partida{{"tradicional", 1}}, Wait: MaxWait}
	for i := range MaxLivePerOwner {
		if _, err := h.t.Start(ctx, "pmany", waiting); err != nil {
			t.Fatalf("tournament %d: %v", i, err)
		}
	}
	if _, err := h.t.Start(ctx, "pmany", waiting); !errors.Is(err, ErrOwnerBusy) {
		t.Fatalf("one past the owner's limit: %v, want ErrOwnerBusy", err)
	}
	if _, err := h.t.Start(ctx, "pother", waiting); err != nil {
		t.Fatalf("another owner: %v", err)
	}
	h.stop()
	h2 := start(t, st)
	if n, err := h2.t.Resume(ctx); n != MaxLivePerOwner+1 || err != nil {
		t.Fatalf("Resume = %d, %v; want every waiting tournament back", n, err)
	}
	list, err := h2.t.List(ctx)
	if err != nil || len(list) != MaxLivePerOwner+1 {
		t.Fatalf("List = %d, %v", len(list), err)
	}
	for _, s := range list {
		if s.Status != StatusWaiting || s.Deadline == nil {
			t.Errorf("resumed %s: %s, deadline %v; want still waiting", s.ID, s.Status, s.Deadline)
		}
	}
}
