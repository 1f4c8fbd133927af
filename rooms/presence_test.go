package rooms

import (
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestSpectatorsArePresenceNotState: a crowd joining changes no seq and
// sends the players no room.state, only room.presence frames, at most one
// per presenceDelay of the joining (plus the first), and the count they
// show ends at the crowd's size.
func TestSpectatorsArePresenceNotState(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	r, a, _ := twoPlayers(t, m)
	before := a.waitState(t, func(s protocol.RoomState) bool { return s.Players[1].Connected })
	settle(r)
	a.mu.Lock()
	states, presences := len(a.got)-a.presence, a.presence
	a.mu.Unlock()

	const crowd = 300
	start := time.Now()
	for i := range crowd {
		r.Join(newMember(uint64(100+i), "s"), RoleSpectator, nil)
	}
	settle(r)
	took := time.Since(start)
	seen := a.waitState(t, func(s protocol.RoomState) bool { return s.Spectators == crowd })
	if seen.Seq != before.Seq {
		t.Errorf("seq went from %d to %d with spectators only", before.Seq, seen.Seq)
	}
	a.mu.Lock()
	gotStates, gotPresence := len(a.got)-a.presence-states, a.presence-presences
	a.mu.Unlock()
	if gotStates != 0 {
		t.Errorf("a player got %d room.state frames for %d spectators, want 0", gotStates, crowd)
	}
	// One at once, then at most one per delay of the joining, and the one
	// that closes the last delay.
	if limit := 2 + int(took/presenceDelay); gotPresence < 1 || gotPresence > limit {
		t.Errorf("a player got %d room.presence frames for %d spectators in %v, want 1..%d", gotPresence, crowd, took, limit)
	}
}

// TestWatcherIsNotCounted: a watcher gets the state and its changes, but
// is no spectator and connects no seat, even the seat of its own player.
func TestWatcherIsNotCounted(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	r, a, b := twoPlayers(t, m)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Players[1].Connected })
	r.Leave(b, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return !s.Players[1].Connected })

	w := newMember(50, "b") // b's lobby, on another connection
	r.Join(w, RoleWatcher, nil)
	got := w.waitState(t, func(protocol.RoomState) bool { return true })
	if got.Spectators != 0 || got.Players[1].Connected {
		t.Fatalf("watcher's state: %d spectators, seat 1 connected %v; want 0, false", got.Spectators, got.Players[1].Connected)
	}
	r.Move(a, "1", nil)
	w.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
	settle(r)
	if l := a.latest(t); l.Spectators != 0 || l.Players[1].Connected {
		t.Fatalf("the player sees %d spectators and seat 1 connected %v with a watcher in", l.Spectators, l.Players[1].Connected)
	}
	r.Join(w, "nobody", nil)
	w.waitErr(t, string(protocol.CodeBadRequest))
}
