package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// hungStore is a store that freezes once, as a hung Redis: the next save
// gets no answer (an error) and neither does the load the room makes to
// find out; the write it was sent is kept so the test can let it land
// late, as Redis does when it runs again.
type hungStore struct {
	*memstore.Store
	hang   chan bool
	down   bool
	queued []store.Room
}

func (s *hungStore) SaveRoom(ctx context.Context, r store.Room) error {
	select {
	case <-s.hang:
		s.down = true
	default:
	}
	if s.down {
		s.queued = append(s.queued, r)
		return errors.New("i/o timeout")
	}
	return s.Store.SaveRoom(ctx, r)
}

func (s *hungStore) LoadRoom(ctx context.Context, id string) (store.Room, error) {
	if s.down {
		return store.Room{}, errors.New("i/o timeout")
	}
	return s.Store.LoadRoom(ctx, id)
}

// TestLateSaveIsOffTheLogHistory: a move whose save got no answer is
// refused and rolled back; its write lands later. The room's next save
// overwrites the snapshot (a higher seq), and the log's history, walked
// back from the snapshot's seq through prev, holds the moves played and not
// the refused one, which is still in the list.
func TestLateSaveIsOffTheLogHistory(t *testing.T) {
	// The room goroutine is the only caller of the store while down is
	// set and cleared below (between its commands, which the test waits
	// for).
	st := &hungStore{Store: memstore.New(), hang: make(chan bool, 1)}
	m, _ := startManager(t, Config{Store: st}, 1)
	r, a, b := twoPlayers(t, m)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	r.Move(a, "1", nil)
	first := b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })

	st.hang <- true
	r.Move(b, "2", nil)
	b.waitErr(t, string(protocol.CodeInternal))
	if _, ok := r.Stats(); !ok { // the room has finished the command
		t.Fatal("room closed")
	}
	st.down = false
	for _, late := range st.queued { // Redis runs again: the write lands
		if err := st.Store.SaveRoom(context.Background(), late); err != nil {
			t.Fatalf("late write: %v", err)
		}
	}
	r.Move(b, "1", nil)
	got := a.waitState(t, func(s protocol.RoomState) bool { return s.Seq > first.Seq && s.LastMove != nil })
	if got.Board.(float64) != 2 {
		t.Fatalf("total %v after 1 and 1, want 2 (the refused 2 is not played)", got.Board)
	}

	saved, err := st.Store.LoadRoom(context.Background(), r.ID())
	if err != nil || saved.Seq != got.Seq {
		t.Fatalf("stored seq %d (%v), broadcast %d", saved.Seq, err, got.Seq)
	}
	raw, err := st.Store.RoomLog(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	bySeq := map[int64]logEntry{}
	for _, e := range raw {
		var le logEntry
		if err := json.Unmarshal(e, &le); err != nil {
			t.Fatal(err)
		}
		bySeq[le.Seq] = le
	}
	var history []string
	for seq := saved.Seq; seq != 0; {
		le, ok := bySeq[seq]
		if !ok || le.Prev >= seq {
			t.Fatalf("no entry at seq %d on the history, or a bad prev, in %s", seq, raw)
		}
		history = append([]string{le.Kind + " " + le.Move}, history...)
		seq = le.Prev
	}
	want := []string{"create ", "move 1", "move 1"}
	if len(history) != len(want) || history[0] != want[0] || history[1] != want[1] || history[2] != want[2] {
		t.Fatalf("history %q, want %q", history, want)
	}
	if len(raw) != len(history)+1 {
		t.Fatalf("log has %d entries, want the history and the late one: %s", len(raw), raw)
	}
}
