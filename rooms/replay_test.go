package rooms

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestRestoreReplaysTheLogTail: moves between snapshots are saved as log
// entries alone, and a room rebuilt from the store (its last snapshot and
// the moves after it, replayed) is the room that played them: the same
// snapshot, field by field, engine included (a 9x9 go game with a clock,
// every move taking its own time, a move count that is not a multiple of
// SnapshotEvery). The room goes on from the rebuilt state.
func TestRestoreReplaysTheLogTail(t *testing.T) {
	for _, backend := range []string{"memstore", "redis"} {
		t.Run(backend, func(t *testing.T) {
			st := backendStore(t, backend)
			for _, n := range []int{1, SnapshotEvery - 1, SnapshotEvery, 2*SnapshotEvery + 5} {
				live, saved, m := playGo(t, st, n)
				if want := int64(n % SnapshotEvery); saved.Seq-saved.SnapshotSeq != want {
					t.Errorf("%d moves: stored at seq %d, snapshot at %d; want %d moves after it", n, saved.Seq, saved.SnapshotSeq, want)
				}
				got, err := m.SnapshotOf(saved)
				if err != nil {
					t.Fatalf("%d moves: %v", n, err)
				}
				if a, b := sansSaveTime(t, live), sansSaveTime(t, got); !reflect.DeepEqual(a, b) {
					t.Fatalf("%d moves: rebuilt room differs\n live %s\n  got %s", n, live, got)
				}
				r, err := m.restore(saved, 0, nil)
				if err != nil {
					t.Fatalf("%d moves: restore: %v", n, err)
				}
				p := newMember(9, "a")
				r.Join(p, RolePlayer, nil)
				s := p.waitState(t, func(protocol.RoomState) bool { return true })
				if len(s.Moves) != n || s.Seq != saved.Seq || s.Status != StatusPlaying {
					t.Fatalf("%d moves: restored room shows %d moves at seq %d, %s", n, len(s.Moves), s.Seq, s.Status)
				}
			}
		})
	}
}

// playGo plays n random moves (no passes) in a new 9x9 go room with a
// clock, a random time apart, and returns the room's own snapshot, what
// the store holds and the manager.
func playGo(t *testing.T, st store.Store, n int) ([]byte, store.Room, *Manager) {
	t.Helper()
	now := fakeclock.New()
	m := NewManager(Config{Catalog: games.Catalog(), Store: st, Now: now.Now})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "9",
		Seats: []players.Player{{ID: "a"}, {ID: "b"}}, Clock: &protocol.TimeControl{Base: 600, Increment: 5}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 2))
	var snap []byte
	done := make(chan error, 1)
	r.post(func() {
		for range n {
			now.Advance(time.Duration(rng.IntN(5000)) * time.Millisecond)
			seat, mv := randomMove(rng, r.state)
			if perr := r.play(seat, mv, "human"); perr != nil {
				done <- perr
				return
			}
		}
		var err error
		snap, err = r.snapshot(r.updated)
		done <- err
	})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	m2 := NewManager(Config{Catalog: games.Catalog(), Store: st, Now: now.Now})
	t.Cleanup(func() { _ = m2.Shutdown(context.Background()) })
	return snap, saved, m2
}

// sansSaveTime decodes a snapshot without what a restore does not keep: the
// time of the last save and whose turn the clock was timing then.
func sansSaveTime(t *testing.T, b []byte) snapshotV1 {
	t.Helper()
	var s snapshotV1
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	s.Updated = time.Time{}
	if s.Clock != nil {
		s.Clock.Running, s.Clock.TurnStartMs = 0, 0
	}
	return s
}

// TestFailedLogOnlySaveRollsBack: a move whose log-only save fails mid-game
// (40 moves in: 8 since the last snapshot) is taken back by restoring the
// last snapshot's engine and replaying the moves since, exactly: the engine
// state is the one before the move, and the same move is then accepted. A
// save that landed despite its error stands. Either way the store, rebuilt,
// is the room that played.
func TestFailedLogOnlySaveRollsBack(t *testing.T) {
	for _, mode := range []string{"lost", "down", "landed"} {
		t.Run(mode, func(t *testing.T) {
			st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
			m := NewManager(Config{Catalog: games.Catalog(), Store: st})
			t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
			r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "9", Seats: []players.Player{{ID: "a"}, {ID: "b"}}})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			var live []byte
			done := make(chan error, 1)
			r.post(func() {
				done <- func() error {
					for range 40 {
						if perr := r.play(randomMoveOf(rng, r)); perr != nil {
							return perr
						}
					}
					before, _ := r.state.MarshalJSON()
					seat, mv := randomMove(rng, r.state)
					st.mode <- mode
					perr := r.play(seat, mv, "human")
					if mode == "landed" {
						if perr != nil {
							return perr
						}
					} else {
						if perr == nil || perr.Code != protocol.CodeInternal {
							return fmt.Errorf("move whose save failed: %v, want internal", perr)
						}
						if after, _ := r.state.MarshalJSON(); string(after) != string(before) || len(r.history) != 40 || r.broken {
							return fmt.Errorf("after the rollback: %d moves, engine\n%s\nwant\n%s", len(r.history), after, before)
						}
						if perr := r.play(seat, mv, "human"); perr != nil {
							return fmt.Errorf("the same move again: %v", perr)
						}
					}
					for range 5 {
						if perr := r.play(randomMoveOf(rng, r)); perr != nil {
							return perr
						}
					}
					var err error
					live, err = r.snapshot(r.updated)
					return err
				}()
			})
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			saved, err := st.LoadRoom(context.Background(), r.ID())
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.SnapshotOf(saved)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := sansSaveTime(t, live), sansSaveTime(t, got); !reflect.DeepEqual(a, b) || a.Moves != 46 {
				t.Fatalf("rebuilt room differs (or not 46 moves)\n live %s\n  got %s", live, got)
			}
		})
	}
}

// randomMoveOf is randomMove in r, as Room.play's arguments.
func randomMoveOf(rng *rand.Rand, r *Room) (int, string, string) {
	seat, mv := randomMove(rng, r.state)
	return seat, mv, "human"
}
