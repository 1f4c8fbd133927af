package rooms

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// events records the OnGame events a manager's rooms tell.
type events struct {
	mu  sync.Mutex
	all []GameEvent
	got chan struct{}
}

func newEvents() *events { return &events{got: make(chan struct{}, 64)} }

func (e *events) listen(ev GameEvent) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	e.got <- struct{}{}
}

// wait returns the n-th event (from 1), failing after 10 s.
func (e *events) wait(t *testing.T, n int) GameEvent {
	t.Helper()
	for {
		e.mu.Lock()
		if len(e.all) >= n {
			ev := e.all[n-1]
			e.mu.Unlock()
			return ev
		}
		e.mu.Unlock()
		select {
		case <-e.got:
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d", n)
		}
	}
}

// TestGameEndEventCarriesTheResult: every listener hears the start, then
// the end with the players and the result; the finished room restored
// tells its end again (Again), so a listener that missed it (its node
// died) is made up for.
func TestGameEndEventCarriesTheResult(t *testing.T) {
	st := memstore.New()
	first, second := newEvents(), newEvents()
	m, _ := startManager(t, Config{Store: st, OnGame: []func(GameEvent){first.listen, second.listen}}, 1)
	r, a, b := twoPlayers(t, m)
	start := first.wait(t, 1)
	if start.Status != StatusPlaying || start.Result != nil || start.Again || len(start.Players) != 2 ||
		start.Players[0].ID != "a" || start.Players[1].ID != "b" || start.Started.IsZero() {
		t.Fatalf("start event %+v", start)
	}
	r.Resign(b, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	for _, e := range []*events{first, second} {
		end := e.wait(t, 2)
		if end.Status != StatusFinished || end.Room != r.ID() || end.Game != "race5" || end.Result == nil ||
			end.Result.Reason != "resign" || end.Result.Winner == nil || *end.Result.Winner != 0 || end.Again ||
			end.Ended.IsZero() || end.Players[1].Name != "b" {
			t.Fatalf("end event %+v", end)
		}
	}
	// Restored on another manager: the end told again.
	again := newEvents()
	m2, _ := startManager(t, Config{Store: st, OnGame: []func(GameEvent){again.listen}}, 1)
	if _, err := m2.Lookup(context.Background(), r.ID()); err != nil {
		t.Fatal(err)
	}
	ev := again.wait(t, 1)
	if !ev.Again || ev.Status != StatusFinished || ev.Result == nil || *ev.Result.Winner != 0 || ev.Room != r.ID() {
		t.Fatalf("restored finished room's event %+v", ev)
	}
}

// TestForget: a closed account's game under way ends resigned, its seat
// shows the new name in the state and the saved snapshot.
func TestForget(t *testing.T) {
	st := memstore.New()
	m, _ := startManager(t, Config{Store: st}, 1)
	r, a, b := twoPlayers(t, m)
	done := make(chan error, 1)
	if !r.Forget("b", "closed account", func(err error) { done <- err }) {
		t.Fatal("the room closed")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if s.Players[1].Name != "closed account" || s.Players[1].ID != "b" || s.Result == nil || s.Result.Reason != "resign" || *s.Result.Winner != 0 {
		t.Fatalf("after Forget: %+v", s)
	}
	_ = b
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordOf(saved.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Players[1].Name != "closed account" || rec.Players[0].Name != "a" {
		t.Fatalf("the saved seats %+v", rec.Players)
	}
}
