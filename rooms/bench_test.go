package rooms

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// goRoomWithMoves starts a 19x19 go room between two players and plays n
// random legal moves (no passes while there is another move).
func goRoomWithMoves(b testing.TB, n int) *Room {
	b.Helper()
	m := NewManager(Config{Catalog: games.Catalog(), Store: memstore.New()})
	b.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "19",
		Seats: []players.Player{{ID: "a"}, {ID: "b"}}, Clock: &protocol.TimeControl{Base: 600, Increment: 5}})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	done := make(chan error, 1)
	r.post(func() {
		for range n {
			seat, mv := randomMove(rng, r.state)
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
	}{{"broadcast", r.stateFrame}, {"join", func() *protocol.Frame { return r.withHistory(r.roomState(), "") }}} {
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

// sinkMember is a connection that takes patches and drops every frame: what
// a move costs the room goroutine, without the sockets.
type sinkMember struct {
	id     uint64
	player string
}

func (m *sinkMember) ConnID() uint64            { return m.id }
func (m *sinkMember) PlayerID() string          { return m.player }
func (m *sinkMember) PlayerName() string        { return m.player }
func (m *sinkMember) Joined(*Room) bool         { return true }
func (m *sinkMember) Left(*Room)                {}
func (m *sinkMember) Send(*protocol.Frame) bool { return true }
func (m *sinkMember) WantsPatch() bool          { return true }

// BenchmarkPlay measures one move of a 19x19 go room on its goroutine, as
// the load generator's rooms play it: two players who take room.patch
// frames, a spectator, the memory store; the move checked, applied, saved,
// diffed and broadcast. Moves are random legal points (no passes), chosen
// outside the timer, in a new room after 300 moves or when a game runs out
// of them. -benchmem gives the allocations a move costs, which the garbage
// collector then pays for (issue 8).
//
//	go test -run '^$' -bench Play -benchmem ./rooms/
func BenchmarkPlay(b *testing.B) { benchPlay(b, memstore.New()) }

// BenchmarkPlayRedis is BenchmarkPlay on a real Redis (a private
// redis-server, internal/testkit/redistest), one room saving at a time: the round
// trip is in every move's time, and its CPU on the Redis side is not.
func BenchmarkPlayRedis(b *testing.B) {
	addr := redistest.Start(b)
	st, err := redisstore.New(context.Background(), addr, redistest.Prefix(b, addr))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	benchPlay(b, st)
}

func benchPlay(b *testing.B, st store.Store) {
	m := NewManager(Config{Catalog: games.Catalog(), Store: st})
	b.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	newRoom := func() *Room {
		r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "19",
			Seats: []players.Player{{ID: "a"}, {ID: "b"}},
			Join: []JoinAs{{M: &sinkMember{1, "a"}, As: RolePlayer}, {M: &sinkMember{2, "b"}, As: RolePlayer},
				{M: &sinkMember{3, "c"}, As: RoleSpectator}}})
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := newRoom()
	moves := 0
	// next picks the move outside the timer (Legal is the engine's, and
	// the room computes it again for its state, which is measured).
	next := func() (int, string) {
		b.StopTimer()
		defer b.StartTimer()
		var (
			seat int
			mv   string
		)
		done := make(chan struct{})
		r.post(func() {
			defer close(done)
			seat, _ = r.state.Turn()
			legal := r.state.Legal(seat)
			if len(legal) < 2 || moves >= 300 {
				return
			}
			for mv == "" || mv == "pass" {
				mv = legal[rng.IntN(len(legal))]
			}
		})
		<-done
		if mv == "" {
			r, moves = newRoom(), 0
			return 0, "D4" // black's first move in the new room
		}
		return seat, mv
	}
	for b.Loop() {
		seat, mv := next()
		var perr *protocol.Error
		done := make(chan struct{})
		r.post(func() {
			defer close(done)
			perr = r.play(seat, mv, "human")
		})
		<-done
		if perr != nil {
			b.Fatal(perr)
		}
		moves++
	}
}
