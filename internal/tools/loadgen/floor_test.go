package loadgen

import (
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The floor benchmarks measure what the issue 8 workloads cost with nothing
// but the sockets: no WebSocket framing, no JSON, no game, no store. The
// server's side keeps the architecture's goroutines (a reader per
// connection, one goroutine for the room, a writer per connection woken
// through a channel) and the client's side a reader per connection, as the
// load generator and the Colyseus peer's Go client have; both sides run in
// this process on the same cores, as the load generator and the server do.
// They say how far the real server is from the machine's limit:
//
//	go test -run '^$' -bench FloorFanout -benchtime 40x ./internal/tools/loadgen  # fan-out: 40 moves
//	go test -run '^$' -bench FloorRooms -benchtime 20s ./internal/tools/loadgen   # rooms: moves for 20 s
//
// Each reports the CPU time (user and system, this whole process) per
// frame or per move, which is what bounds the throughput on two cores.

// socketPairs returns n connected loopback TCP pairs (server side, client
// side) and closes them at the end of the benchmark.
func socketPairs(b *testing.B, n int) (srv, cli []net.Conn) {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	for range n {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			b.Fatalf("dial %d: %v", len(cli), err)
		}
		s, err := ln.Accept()
		if err != nil {
			b.Fatal(err)
		}
		srv, cli = append(srv, s), append(cli, c)
	}
	b.Cleanup(func() {
		for i := range srv {
			srv[i].Close()
			cli[i].Close()
		}
	})
	return srv, cli
}

// floorWriter is a connection's writer goroutine: woken through a channel
// of capacity one, as hub's writer is, it writes each frame with one
// write(2).
func floorWriter(c net.Conn, frames <-chan []byte) {
	for f := range frames {
		if _, err := c.Write(f); err != nil {
			return
		}
	}
}

// BenchmarkFloorFanout: one frame of 190 bytes (a spectator's room.patch,
// framed) to N spectators per iteration, handed to each connection's writer
// goroutine; the iteration ends when the last spectator has read it.
// Reports the last spectator's p50 and p99 over the iterations and the CPU
// per delivered frame. 10,000 spectators are 20,000 sockets in one process,
// more than this machine's open-file limit: they are not measured here.
func BenchmarkFloorFanout(b *testing.B) {
	for _, n := range []int{2000, 5000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { floorFanout(b, n, false) })
		b.Run(strconv.Itoa(n)+"/direct", func(b *testing.B) { floorFanout(b, n, true) })
	}
}

// floorFanout measures n spectators; direct: the iteration's goroutine
// writes every socket itself, without waking writer goroutines (what the
// architecture's one writer per connection costs is the difference).
func floorFanout(b *testing.B, n int, direct bool) {
	srv, cli := socketPairs(b, n)
	frame := make([]byte, 190)
	var done sync.WaitGroup
	queues := make([]chan []byte, n)
	for i := range n {
		queues[i] = make(chan []byte, 1)
		go floorWriter(srv[i], queues[i])
	}
	defer func() {
		for _, q := range queues {
			close(q)
		}
	}()
	for i := range n {
		go func(c net.Conn) { // the spectator: ends when the socket closes
			buf := make([]byte, len(frame))
			for {
				if _, err := io.ReadFull(c, buf); err != nil {
					return
				}
				done.Done()
			}
		}(cli[i])
	}
	var lat []time.Duration
	cpu0, frames := SelfCPUSeconds(), 0
	for b.Loop() {
		done.Add(n)
		t0 := time.Now()
		if direct {
			for _, c := range srv {
				if _, err := c.Write(frame); err != nil {
					b.Fatal(err)
				}
			}
		} else {
			for _, q := range queues {
				q <- frame
			}
		}
		done.Wait()
		lat = append(lat, time.Since(t0))
		frames += n
		// The load generator's fan-out pauses 50 ms or more between
		// moves: so does this, so that waking from idle is counted.
		b.StopTimer()
		time.Sleep(50 * time.Millisecond)
		b.StartTimer()
	}
	cpu := SelfCPUSeconds() - cpu0
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "last-p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*99)/100])/1e6, "last-p99-ms")
	b.ReportMetric(cpu/float64(frames)*1e6, "cpu-us/frame")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkFloorRooms: 200 rooms of two players, b.N moves in all. A move is
// a 40-byte message from the player to move, read by its connection's
// reader, handed to the room's goroutine, which hands an 840-byte frame (a
// player's room.patch on 19x19, framed) to both players' writers; the other
// player moves once it has read its frame. ns/op is wall time per move of the
// whole workload (1e9 / ns/op is moves a second); cpu-us/move is this
// process's CPU (server and clients) per move.
func BenchmarkFloorRooms(b *testing.B) {
	const rooms = 200
	srv, cli := socketPairs(b, 2*rooms)
	move, state := make([]byte, 40), make([]byte, 840)
	var left atomic.Int64
	left.Store(int64(b.N))
	var finished sync.WaitGroup // a room is finished when its mover finds no moves left
	finished.Add(rooms)
	for r := range rooms {
		toRoom := make(chan struct{}, 1)
		writers := [2]chan []byte{make(chan []byte, 4), make(chan []byte, 4)}
		for seat := range 2 {
			c := srv[2*r+seat]
			go floorWriter(c, writers[seat])
			go func() { // the server's reader of this seat, and the room it feeds
				buf := make([]byte, len(move))
				for {
					if _, err := io.ReadFull(c, buf); err != nil {
						return
					}
					toRoom <- struct{}{}
				}
			}()
		}
		go func() { // the room: ends when the sockets close (its readers stop, nothing comes)
			for range toRoom {
				writers[0] <- state
				writers[1] <- state
			}
		}()
		for seat := range 2 {
			c := cli[2*r+seat]
			go func() { // the player: seat 0 moves first, then each after the other's move
				buf := make([]byte, len(state))
				mine := seat == 0
				for {
					if mine {
						if left.Add(-1) < 0 {
							finished.Done()
							return
						}
						if _, err := c.Write(move); err != nil {
							return
						}
					}
					if _, err := io.ReadFull(c, buf); err != nil {
						return
					}
					mine = !mine
				}
			}()
		}
	}
	cpu0 := SelfCPUSeconds()
	b.ResetTimer()
	finished.Wait()
	b.StopTimer()
	b.ReportMetric((SelfCPUSeconds()-cpu0)/float64(b.N)*1e6, "cpu-us/move")
}
