package rooms

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// goRoomWithMoves starts a 19x19 go room between two players and plays n
// random legal moves (no passes while there is another move).
func goRoomWithMoves(b testing.TB, n int) *Room {
	b.Helper()
	m := NewManager(Config{Catalog: games.Catalog(), Store: memstore.New()})
	b.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "19",
		Seats: []Seat{{PlayerID: "a"}, {PlayerID: "b"}}, Clock: &protocol.TimeControl{Base: 600, Increment: 5}})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	done := make(chan error, 1)
	r.post(func() {
		for range n {
			seat, _ := r.state.Turn()
			legal := r.state.Legal(seat)
			mv := legal[rng.IntN(len(legal))]
			for mv == "pass" && len(legal) > 1 {
				mv = legal[rng.IntN(len(legal))]
			}
			if perr := r.play(seat, mv, "human"); perr != nil {
				done <- perr
				return
			}
		}
		done <- nil
	})
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkStateFrame measures the room.state a move broadcasts and the
// one a join gets (with the 300-move history) in a 19x19 go game.
//
//	go test -run '^$' -bench StateFrame -benchmem -count 3 ./rooms/
func BenchmarkStateFrame(b *testing.B) {
	r := goRoomWithMoves(b, 300)
	for _, bc := range []struct {
		name  string
		frame func() *protocol.Frame
	}{{"broadcast", r.stateFrame}, {"join", r.fullStateFrame}} {
		b.Run(bc.name, func(b *testing.B) {
			var size int
			done := make(chan struct{})
			r.post(func() {
				for b.Loop() {
					size = len(bc.frame().Data)
				}
				close(done)
			})
			<-done
			b.ReportMetric(float64(size), "bytes/frame")
		})
	}
}

// BenchmarkSnapshot measures a save's snapshot in the same game: the move
// log and the clock are in it.
func BenchmarkSnapshot(b *testing.B) {
	r := goRoomWithMoves(b, 300)
	var size int
	done := make(chan struct{})
	r.post(func() {
		for b.Loop() {
			snap, err := r.snapshot(r.now())
			if err != nil {
				b.Error(err)
			}
			size = len(snap)
		}
		close(done)
	})
	<-done
	b.ReportMetric(float64(size), "bytes/snapshot")
}
