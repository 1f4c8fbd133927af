package rooms

import (
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestMoveHistoryOnJoinOnly: a member that joins late gets every move since
// the start in "moves"; broadcasts carry only lastMove; a restored room
// keeps the history; a move whose save failed is not in it.
func TestMoveHistoryOnJoinOnly(t *testing.T) {
	st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
	m, _ := newManager(t, nil, st.Store, time.Second)
	m.cfg.Store = st
	r, a, b := twoPlayers(t, m)
	first := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	if first.Moves == nil || len(first.Moves) != 0 {
		t.Fatalf("the creator's first state has moves %v, want []", first.Moves)
	}
	r.Move(a, "2", nil)
	b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
	st.mode <- "lost"
	r.Move(b, "2", nil) // refused: the save fails
	b.waitErr(t, string(protocol.CodeInternal))
	r.Move(b, "1", nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })

	want := []protocol.LastMove{{Seat: 0, Move: "2"}, {Seat: 1, Move: "1"}}
	late := newMember(3, "late")
	r.Join(late, RoleSpectator, nil)
	got := late.waitState(t, func(protocol.RoomState) bool { return true })
	if !slices.Equal(got.Moves, want) {
		t.Fatalf("late spectator got moves %v, want %v", got.Moves, want)
	}
	// The players saw the spectator arrive by a broadcast without history.
	seen := a.waitState(t, func(s protocol.RoomState) bool { return s.Spectators == 1 })
	if seen.Moves != nil {
		t.Fatalf("a broadcast carries moves %v", seen.Moves)
	}
	// Joining again resyncs: the same history.
	r.Join(a, RolePlayer, nil)
	again := a.waitState(t, func(s protocol.RoomState) bool { return s.Moves != nil && s.Seq == seen.Seq })
	if !slices.Equal(again.Moves, want) {
		t.Fatalf("resync got moves %v, want %v", again.Moves, want)
	}

	m2, _ := newManager(t, nil, memstore.New(), time.Second)
	_, restored := restoreAndJoin(t, st, m2, r.ID(), newMember(9, "b"))
	if !slices.Equal(restored.Moves, want) {
		t.Fatalf("restored room has moves %v, want %v", restored.Moves, want)
	}
}

func TestRestoreRefusesABadSnapshot(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	for _, snap := range []string{
		`{"v":1,"id":"x","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"moveLog":["nope"]}`,
		`{"v":1,"id":"y","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"moveLog":["x:1"]}`,
		`{"v":1,"id":"z","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"moveLog":["2:1"]}`,
		`{"v":1,"id":"c1","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"clock":{"baseMs":1000,"leftMs":[1000]}}`,
		`{"v":1,"id":"c2","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"clock":{"baseMs":1000,"leftMs":[1000,-5]}}`,
		`{"v":1,"id":"c3","game":"race5","variant":"5","seats":[{},{}],"status":"playing","engine":{"total":0,"toMove":0,"win":-1},"clock":{"baseMs":0,"leftMs":[1000,1000]}}`,
	} {
		if _, err := m.Restore([]byte(snap)); err == nil {
			t.Errorf("restored %s", snap)
		}
	}
	if m.Len() != 0 {
		t.Fatalf("%d rooms running after refused restores", m.Len())
	}
}
