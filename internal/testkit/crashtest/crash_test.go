package crashtest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

var (
	killsFlag = flag.Int("crash.kills", envInt("TABULEIRO_CRASH_KILLS", 5), "SIGKILLs of the server during play (env TABULEIRO_CRASH_KILLS)")
	scaleFlag = flag.Int("crash.scale", envInt("TABULEIRO_CRASH_SCALE", 1), "copies of the set of rooms played at once (env TABULEIRO_CRASH_SCALE)")
	seedFlag  = flag.Uint64("crash.seed", uint64(envInt("TABULEIRO_CRASH_SEED", 0)), "seed of the test's choices; 0 picks one (env TABULEIRO_CRASH_SEED)")
	raceFlag  = flag.Bool("crash.race", os.Getenv("TABULEIRO_CRASH_RACE") != "", "build the server with -race (env TABULEIRO_CRASH_RACE=1)")
)

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// harness runs the server and coordinates the drivers: each kill starts a
// new run (epoch) of the server, and the next kill waits until every
// driver has reconnected and checked its room.
type harness struct {
	t     *testing.T
	lobby *lobby

	// gate is held by the harness while it kills and restarts the
	// server, and by drivers while they dial.
	gate   sync.RWMutex
	mu     sync.Mutex
	run    int
	runCh  chan struct{} // closed when run changes
	killed atomic.Int64  // the last run that was killed

	readyCh   chan int
	finishing atomic.Bool
	abort     chan struct{} // closed when the test fails

	games, acked, recovered, checked atomic.Int64
}

// waitRun waits until the server's run is at least n.
func (h *harness) waitRun(n int) (int, error) {
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		h.mu.Lock()
		run, ch := h.run, h.runCh
		h.mu.Unlock()
		if run >= n {
			return run, nil
		}
		select {
		case <-ch:
		case <-h.abort:
			return 0, errors.New("aborted")
		case <-timer.C:
			return 0, fmt.Errorf("the server did not come back within %v", waitLimit)
		}
	}
}

func (h *harness) nextRun() {
	h.mu.Lock()
	h.run++
	close(h.runCh)
	h.runCh = make(chan struct{})
	h.mu.Unlock()
}

// currentRun is the server's current run.
func (h *harness) currentRun() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.run
}

// ready tells the harness that d has checked its room in its run.
func (h *harness) ready(d *driver) error {
	h.readyCh <- d.epoch
	return nil
}

// restart kills the server (run killed) and starts the next run.
func (h *harness) restart(killed int) {
	h.gate.Lock()
	defer h.gate.Unlock()
	h.killed.Store(int64(killed))
	h.lobby.kill()
	h.lobby.start()
	h.nextRun()
}

// roomKinds is the set of rooms played at once, times -crash.scale: the
// game, the kind of room, the spectators, and the plies after which the
// side to move resigns (orbito 4x4 and queens end well before 100; random
// go and morris could go on for long).
var roomKinds = []struct {
	game, variant, kind string
	specs, cap          int
}{
	{"orbito", "2", pair, 2, 100},
	{"morris", "3", pair, 2, 30},
	{"go", "9", pair, 2, 40},
	{"queens", "tradicional", pair, 2, 100},
	{"orbito", "2", bot, 1, 100},
	{"morris", "3", bot, 1, 30},
	{"go", "9", bot, 1, 30},
	{"queens", "tradicional", bot, 1, 100},
	{"2048", "solo", solo, 1, 80},
	{"2048", "solo", solo, 1, 80},
}

// TestCrashRecovery is the crash test of the real binary (see the package
// documentation).
func TestCrashRecovery(t *testing.T) {
	t.Parallel()
	seed := *seedFlag
	if seed == 0 {
		seed = rand.Uint64() % 1_000_000
	}
	kills := *killsFlag
	if testing.Short() {
		kills = min(kills, 2) // the inner loop's: a kill mid-game and the last one
	}
	t.Logf("crash test: seed %d (rerun with -crash.seed=%d), %d kills, scale %d", seed, seed, kills, *scaleFlag)
	rng := rand.New(rand.NewPCG(seed, 0xc4a54))

	bin := lobbybin.Build(t, *raceFlag)
	rs := redistest.StartServer(t)
	prefix := fmt.Sprintf("crash%d:", seed)
	l := newLobby(t, bin, rs.Addr(), prefix)
	l.start()
	h := &harness{t: t, lobby: l, runCh: make(chan struct{}), abort: make(chan struct{})}
	h.killed.Store(-1)

	catalog := games.Catalog()
	var drivers []*driver
	for copyNo := range max(1, *scaleFlag) {
		for i, k := range roomKinds {
			g, ok := catalog.Game(k.game)
			if !ok {
				t.Fatalf("no game %s in the catalog", k.game)
			}
			d := &driver{h: h, name: fmt.Sprintf("%s-%s-%s-%d", k.kind, k.game, k.variant, copyNo), kind: k.kind,
				game: g, variant: k.variant, level: g.Info().Levels[0].ID, cap: k.cap,
				rng: rand.New(rand.NewPCG(seed, uint64(copyNo*100+i))), in: make(chan event, 4096),
				known: map[string]bool{}, mEpoch: -1}
			humans := 1
			if k.kind == pair {
				humans = 2
			}
			for p := range humans {
				d.players = append(d.players, &client{name: fmt.Sprintf("%s-p%d", d.name, p), seat: -1})
			}
			for s := range k.specs {
				d.specs = append(d.specs, &client{name: fmt.Sprintf("%s-s%d", d.name, s), spectator: true, seat: -1})
			}
			drivers = append(drivers, d)
		}
	}
	h.readyCh = make(chan int, len(drivers)*(kills+2)) // a driver is ready at most once a run
	errs := make(chan error, len(drivers))
	start := time.Now()
	for _, d := range drivers {
		go func() { errs <- d.run() }()
	}
	running := len(drivers)
	// fail stops everything: the drivers see the server gone and the
	// harness aborted, and return.
	fail := func(err error) {
		t.Helper()
		t.Errorf("seed %d: %v", seed, err)
		close(h.abort)
		if l.cmd != nil {
			l.kill()
		}
		for ; running > 0; running-- {
			<-errs
		}
		t.Fatalf("server log tail:\n%s", l.logTail())
	}

	// waitReady waits until every driver has checked its room in run.
	waitReady := func(run int) {
		t.Helper()
		timeout := time.After(2 * waitLimit)
		for n := 0; n < len(drivers); {
			select {
			case r := <-h.readyCh:
				if r == run {
					n++
				}
			case err := <-errs:
				running--
				fail(fmt.Errorf("after kill %d: %v", run, err))
			case <-timeout:
				fail(fmt.Errorf("drivers not back %v after kill %d", 2*waitLimit, run))
			}
		}
	}
	// Most kills come while the games are under way (every driver has
	// checked its room after the previous restart); about one in three
	// comes right after a restart, while the rooms are being restored and
	// joined again.
	quick := 0
	for k := 1; k <= kills; k++ {
		if k > 1 && rng.IntN(3) == 0 {
			quick++
			select {
			case err := <-errs:
				running--
				fail(fmt.Errorf("a driver stopped before kill %d: %v", k, err))
			case <-time.After(time.Duration(rng.IntN(400)) * time.Millisecond):
			}
		} else {
			if k > 1 {
				waitReady(k - 1)
			}
			select {
			case err := <-errs:
				running--
				fail(fmt.Errorf("a driver stopped before kill %d: %v", k, err))
			case <-time.After(time.Duration(300+rng.IntN(2200)) * time.Millisecond):
			}
		}
		h.restart(k - 1)
	}
	waitReady(kills)
	h.finishing.Store(true)
	for running > 0 {
		err := <-errs
		running--
		if err != nil {
			fail(err)
		}
	}
	played := time.Since(start)

	// One more kill after every game ended: each finished game comes back
	// from Redis as it ended.
	h.restart(kills)
	finals := 0
	for _, d := range drivers {
		n, err := checkFinished(l.wsURL(), d.done)
		if err != nil {
			t.Fatalf("seed %d: %s: %v", seed, d.name, err)
		}
		finals += n
		for _, f := range d.done {
			d.st.rechecked += len(f.model.moves)
		}
	}

	// The stored log of every game, read as docs/persistence.md says
	// (back from the snapshot's seq through prev), holds the moves played,
	// each once.
	logs, err := checkLogs(rs.Addr(), prefix, drivers)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}

	var sum stats
	for _, d := range drivers {
		if d.room != "" || len(d.done) != d.st.games {
			t.Errorf("%s: %d games started, %d finished", d.name, d.st.games, len(d.done))
		}
		sum.games += d.st.games
		sum.resigned += d.st.resigned
		sum.acked += d.st.acked
		sum.recovered += d.st.recovered
		sum.landed += d.st.landed
		sum.rechecked += d.st.rechecked
		sum.checked += d.st.checked
		sum.verified += d.st.verified
		sum.lost += d.st.lost
		sum.restartChecks += d.st.restartChecks
	}
	if sum.verified == 0 || sum.checked == 0 {
		t.Errorf("no acknowledged move was checked after a kill")
	}
	line := fmt.Sprintf("crash summary: seed=%d kills=%d (%d right after a restart; +1 after the end) rooms-at-once=%d games=%d finished=%d (resigned %d) "+
		"moves: acknowledged=%d unseen-then-restored=%d (own sends %d) sent-but-lost=%d | checked after kills: room-checks=%d moves=%d distinct=%d | "+
		"after the last kill: rooms=%d moves=%d, stored logs=%d | play=%v",
		seed, kills, quick, len(drivers), sum.games, finals, sum.resigned,
		sum.acked, sum.recovered, sum.landed, sum.lost, sum.restartChecks, sum.checked, sum.verified,
		finals, sum.rechecked, logs, played.Round(time.Millisecond))
	t.Log(line)
	fmt.Println(line)
	l.kill()
	if log, err := os.ReadFile(l.logPath); err != nil {
		t.Error(err)
	} else if strings.Contains(string(log), "DATA RACE") || strings.Contains(string(log), "panic") {
		t.Errorf("the server logged a data race or a panic:\n%s", l.logTail())
	}
}

// checkFinished joins every finished room as a spectator of a restarted
// server and compares it with the game's model. It returns how many it
// checked.
func checkFinished(url string, done []finished) (int, error) {
	n := 0
	var conn *websocket.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for i, f := range done {
		if i%15 == 0 { // a new connection now and then: the rate limit is per connection
			if conn != nil {
				conn.Close()
			}
			var err error
			if conn, _, err = websocket.DefaultDialer.Dial(url, nil); err != nil {
				return n, err
			}
			if err := conn.WriteJSON(map[string]any{"type": "hello", "name": "checker"}); err != nil {
				return n, err
			}
		}
		if err := conn.WriteJSON(map[string]any{"type": "room.join", "room": f.room, "as": "spectator"}); err != nil {
			return n, err
		}
		_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return n, fmt.Errorf("room %s: %w", f.room, err)
			}
			var m msg
			if err := json.Unmarshal(data, &m); err != nil {
				return n, err
			}
			if m.Type == "error" {
				return n, fmt.Errorf("joining finished room %s: %s", f.room, data)
			}
			if m.Type != "room.state" || m.Room != f.room {
				continue
			}
			want, err := f.model.expected("playing")
			if err != nil {
				return n, err
			}
			got, err := serverView(data, want.keys)
			if err != nil {
				return n, err
			}
			if got != want.text || m.Status != "finished" {
				return n, fmt.Errorf("finished room %s came back as\n%s\nwant\n%s", f.room, got, want.text)
			}
			n++
			break
		}
		if err := conn.WriteJSON(map[string]any{"type": "room.leave", "room": f.room}); err != nil {
			return n, err
		}
	}
	return n, nil
}

// checkLogs reads the stored log of every finished game and compares the
// moves on its history with the game's model. It returns how many logs it
// checked.
func checkLogs(addr, prefix string, drivers []*driver) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	st, err := redisstore.New(ctx, addr, prefix)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	n := 0
	for _, d := range drivers {
		for _, f := range d.done {
			saved, err := st.LoadRoom(ctx, f.room)
			if err != nil {
				return n, fmt.Errorf("room %s: %w", f.room, err)
			}
			raw, err := st.RoomLog(ctx, f.room)
			if err != nil {
				return n, fmt.Errorf("log of room %s: %w", f.room, err)
			}
			type entry struct {
				Seq  int64  `json:"seq"`
				Prev int64  `json:"prev"`
				Kind string `json:"kind"`
				Seat *int   `json:"seat"`
				Move string `json:"move"`
			}
			bySeq := map[int64]entry{}
			for _, e := range raw {
				var le entry
				if err := json.Unmarshal(e, &le); err != nil {
					return n, fmt.Errorf("log of room %s: %s: %w", f.room, e, err)
				}
				bySeq[le.Seq] = le
			}
			var history []string
			for seq := saved.Seq; seq != 0; {
				le, ok := bySeq[seq]
				if !ok || le.Prev >= seq {
					return n, fmt.Errorf("log of room %s: no entry at seq %d of its history, or a bad prev", f.room, seq)
				}
				if le.Kind == "move" && le.Seat != nil {
					history = append(history, fmt.Sprintf("%d:%s", *le.Seat, le.Move))
				}
				seq = le.Prev
			}
			slices.Reverse(history)
			want := make([]string, len(f.model.moves))
			for i, m := range f.model.moves {
				want[i] = fmt.Sprintf("%d:%s", m.Seat, m.Move)
			}
			if !slices.Equal(history, want) {
				return n, fmt.Errorf("the stored log of room %s has moves %v, the game was %v", f.room, history, want)
			}
			n++
		}
	}
	return n, nil
}
