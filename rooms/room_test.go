package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// A tiny test-only game: two seats alternately add 1 or 2 to a total; who
// reaches 5 wins. "boom" changes the state and then panics; "lateboom"
// adds 1 and makes the next Outcome panic.
type race5 struct {
	Total int `json:"total"`
	ToMov int `json:"toMove"`
	Win   int `json:"win"`
	bang  bool
}

type race5Game struct{}

func (race5Game) Info() engine.Info {
	return engine.Info{ID: "race5", Name: "race to 5",
		Variants: []engine.Variant{{ID: "5", Seats: 2, SeatNames: []string{"a", "b"}}},
		Levels:   []engine.Level{{ID: "one"}, {ID: "slow"}, {ID: "broken"}}}
}

func (race5Game) New(v string, setup json.RawMessage, seed uint64) (engine.State, error) {
	return &race5{Win: -1}, nil
}

func (race5Game) Restore(b []byte) (engine.State, error) {
	s := &race5{}
	return s, json.Unmarshal(b, s)
}

func (race5Game) Bot(level string) (engine.Bot, bool) {
	switch level {
	case "one":
		return func(engine.State, int, *rand.Rand, time.Time) (string, error) { return "1", nil }, true
	case "slow":
		return func(_ engine.State, _ int, _ *rand.Rand, d time.Time) (string, error) {
			time.Sleep(time.Until(d) + 300*time.Millisecond)
			return "1", nil
		}, true
	case "broken":
		return func(engine.State, int, *rand.Rand, time.Time) (string, error) { return "", errors.New("no idea") }, true
	}
	return nil, false
}

func (s *race5) Variant() string { return "5" }
func (s *race5) Seats() int      { return 2 }
func (s *race5) Apply(seat int, move string) error {
	if s.Win >= 0 {
		return engine.Errorf(engine.CodeGameOver, "over")
	}
	if seat != s.ToMov {
		return engine.Errorf(engine.CodeNotYourTurn, "not yours")
	}
	switch move {
	case "boom":
		s.Total = 99
		panic("boom")
	case "lateboom":
		s.Total, s.ToMov, s.bang = s.Total+1, 1-s.ToMov, true
		return nil
	}
	n, err := strconv.Atoi(move)
	if err != nil || n < 1 || n > 2 || s.Total+n > 5 {
		return engine.Errorf(engine.CodeIllegalMove, "bad move %q", move)
	}
	s.Total += n
	if s.Total == 5 {
		s.Win = seat
	}
	s.ToMov = 1 - s.ToMov
	return nil
}
func (s *race5) Legal(seat int) []string {
	if s.Win >= 0 || seat != s.ToMov {
		return nil
	}
	if s.Total == 4 {
		return []string{"1"}
	}
	return []string{"1", "2"}
}
func (s *race5) Turn() (int, bool) { return s.ToMov, s.Win < 0 }
func (s *race5) Outcome() engine.Outcome {
	if s.bang {
		panic("late boom")
	}
	if s.Win >= 0 {
		return engine.Outcome{Over: true, Winner: s.Win, Reason: "five"}
	}
	return engine.Ongoing
}
func (s *race5) Score() any                   { return nil }
func (s *race5) Board() any                   { return s.Total }
func (s *race5) Extra() map[string]any        { return nil }
func (s *race5) Clone() engine.State          { c := *s; return &c }
func (s *race5) MarshalJSON() ([]byte, error) { type p race5; return json.Marshal((*p)(s)) }

// fakeMember records what a room sends it.
type fakeMember struct {
	id     uint64
	player string
	mu     sync.Mutex
	got    []protocol.RoomState
	// extras holds, beside each of got, the state's fields as JSON (the
	// engine's extra fields among them, which RoomState does not decode).
	extras []map[string]json.RawMessage
	errs   []string
	msgs   []string // the errors' messages, beside errs
	// presence counts the room.presence frames (each also adds a state
	// to got: the last one with the presence applied).
	presence int
	in       chan struct{}
}

func newMember(id uint64, player string) *fakeMember {
	return &fakeMember{id: id, player: player, in: make(chan struct{}, 1000)}
}

func (m *fakeMember) ConnID() uint64     { return m.id }
func (m *fakeMember) PlayerID() string   { return m.player }
func (m *fakeMember) PlayerName() string { return m.player }
func (m *fakeMember) Joined(*Room) bool  { return true }
func (m *fakeMember) Left(*Room)         {}
func (m *fakeMember) Send(f *protocol.Frame) bool {
	var head struct {
		Type    string `json:"type"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(f.Data, &head)
	m.mu.Lock()
	switch head.Type {
	case protocol.TypeRoomState:
		var st protocol.RoomState
		_ = json.Unmarshal(f.Data, &st)
		var x map[string]json.RawMessage
		_ = json.Unmarshal(f.Data, &x)
		m.got, m.extras = append(m.got, st), append(m.extras, x)
	case protocol.TypeRoomPresence:
		// What a client does: the presence changes the state it holds.
		if len(m.got) > 0 {
			var p protocol.RoomPresence
			_ = json.Unmarshal(f.Data, &p)
			st := m.got[len(m.got)-1]
			st.Moves, st.Chat = nil, nil
			st.Spectators = p.Spectators
			st.Players = slices.Clone(st.Players)
			for _, h := range p.Players {
				if h.Seat >= 0 && h.Seat < len(st.Players) {
					pl := &st.Players[h.Seat]
					pl.Connected, pl.GoneSince, pl.ClaimableAt = h.Connected, h.GoneSince, h.ClaimableAt
				}
			}
			m.presence++
			m.got, m.extras = append(m.got, st), append(m.extras, m.extras[len(m.extras)-1])
		}
	case protocol.TypeError:
		m.errs = append(m.errs, head.Code)
		m.msgs = append(m.msgs, head.Message)
	}
	m.mu.Unlock()
	m.in <- struct{}{}
	return true
}

func (m *fakeMember) waitState(t *testing.T, pred func(protocol.RoomState) bool) protocol.RoomState {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		m.mu.Lock()
		for _, st := range m.got {
			if pred(st) {
				m.mu.Unlock()
				return st
			}
		}
		m.mu.Unlock()
		select {
		case <-m.in:
		case <-deadline:
			t.Fatal("no such room.state")
		}
	}
}

func (m *fakeMember) waitErr(t *testing.T, code string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		m.mu.Lock()
		for _, e := range m.errs {
			if e == code {
				m.mu.Unlock()
				return
			}
		}
		m.mu.Unlock()
		select {
		case <-m.in:
		case <-deadline:
			t.Fatalf("no %s error", code)
		}
	}
}

func newManager(t *testing.T, log *zap.Logger, st *memstore.Store, botTimeout time.Duration) (*Manager, *botpool.Pool) {
	return startManager(t, Config{Store: st, Log: log, BotTimeout: botTimeout}, 2)
}

// startManager starts a manager on cfg, of race5 rooms unless cfg names a
// catalog, with a bot pool of workers; both stop when t ends.
func startManager(t *testing.T, cfg Config, workers int) (*Manager, *botpool.Pool) {
	t.Helper()
	if cfg.Catalog == nil {
		cfg.Catalog = engine.NewCatalog(race5Game{})
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.BotTimeout == 0 {
		cfg.BotTimeout = time.Second
	}
	pool := botpool.New(workers, 16, cfg.BotTimeout, cfg.Log, nil)
	cfg.Pool = pool
	m := NewManager(cfg)
	t.Cleanup(func() {
		_ = m.Shutdown(context.Background())
		pool.Close()
	})
	return m, pool
}

// restoreAndJoin restores room id on m from its last save in st, as after
// a restart, and joins mem to it as a player; it returns the room and the
// first state mem gets.
func restoreAndJoin(t *testing.T, st store.Store, m *Manager, id string, mem *fakeMember) (*Room, protocol.RoomState) {
	t.Helper()
	saved, err := st.LoadRoom(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.restore(saved, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Join(mem, RolePlayer, nil)
	return r, mem.waitState(t, func(protocol.RoomState) bool { return true })
}

func twoPlayers(t *testing.T, m *Manager) (*Room, *fakeMember, *fakeMember) {
	t.Helper()
	a, b := newMember(1, "a"), newMember(2, "b")
	return pairRoom(t, m, Spec{Game: "race5", Variant: "5"}, a, b), a, b
}

// pairRoom creates a room of spec (its game, variant and clock) with a and
// b seated as the players "a" and "b".
func pairRoom(t *testing.T, m *Manager, spec Spec, a, b Member) *Room {
	t.Helper()
	spec.Seats = []players.Player{{ID: "a", Name: "a"}, {ID: "b", Name: "b"}}
	spec.Join = []JoinAs{{M: a, As: RolePlayer}, {M: b, As: RolePlayer}}
	r, err := m.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPanicInRoomIsRecoveredAndStateKept(t *testing.T) {
	// With a store the state is put back from the last save's snapshot;
	// without one, from a clone taken before the move (persistence.rollback).
	// A panic in Apply ("boom") or after it, while the move is not saved
	// yet ("lateboom"), takes the move back whole.
	for _, tc := range []struct {
		name  string
		store store.Store
	}{
		{"from the last save", memstore.New()},
		{"from a clone, no store", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zap.ErrorLevel)
			m, _ := startManager(t, Config{Store: tc.store, Log: zap.New(core)}, 2)
			r, a, b := twoPlayers(t, m)
			r.Move(a, "2", nil)
			st := b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
			r.Move(b, "boom", nil)
			r.Move(b, "lateboom", nil)
			r.Move(b, "1", nil) // the room still runs, from the last good state
			after := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
			if after.Board.(float64) != 3 || after.Seq != st.Seq+1 {
				t.Fatalf("after the panic: total %v seq %d (before: seq %d)", after.Board, after.Seq, st.Seq)
			}
			found := 0
			for _, e := range logs.FilterMessage("room panic recovered").All() {
				if e.ContextMap()["room"] == r.ID() {
					found++
				}
			}
			if found != 2 {
				t.Fatalf("%d panics logged with the room id, want 2", found)
			}
		})
	}
}

// unrestorable is race5 whose snapshots cannot be restored.
type unrestorable struct{ race5Game }

func (unrestorable) Restore([]byte) (engine.State, error) { return nil, errors.New("corrupt") }

func TestUnrevertableRoomClosesAndKeepsItsLastSave(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
	m, _ := startManager(t, Config{Catalog: engine.NewCatalog(unrestorable{}), Store: st, Log: zap.New(core)}, 1)
	r, a, _ := twoPlayers(t, m)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	before, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	st.mode <- "lost"
	r.Move(a, "2", nil)
	a.waitErr(t, string(protocol.CodeInternal))
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the room did not close after failing to revert")
	}
	if logs.FilterMessage("cannot revert to the last save; closing the room").Len() == 0 {
		t.Error("the failed revert was not logged")
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if saved.Seq != before.Seq || !bytes.Equal(saved.Snapshot, before.Snapshot) {
		t.Fatalf("stored seq %d, want the last good save's %d, unchanged", saved.Seq, before.Seq)
	}
}

func TestRoomGoroutineExitsWhenEmpty(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	m, pool := newManager(t, nil, memstore.New(), time.Second)
	r, a, b := twoPlayers(t, m)
	r.Resign(a, nil)
	b.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	r.Leave(a, nil)
	r.Leave(b, nil)
	waitDone(t, r)
	if m.Len() != 0 {
		t.Fatal("room still registered")
	}
	_ = m.Shutdown(context.Background())
	pool.Close()
}

func TestRestoredRoomContinues(t *testing.T) {
	st := memstore.New()
	m, _ := newManager(t, nil, st, time.Second)
	r, a, b := twoPlayers(t, m)
	r.Move(a, "2", nil)
	r.Move(b, "2", nil)
	last := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
	m2, _ := newManager(t, nil, st, time.Second)
	a2 := newMember(7, "a")
	r2, got := restoreAndJoin(t, st, m2, r.ID(), a2)
	if got.Board.(float64) != 4 || got.Seq < last.Seq || *got.Turn != 0 || got.Status != StatusPlaying {
		t.Fatalf("restored state %+v, last %+v", got, last)
	}
	r2.Move(a2, "1", nil)
	fin := a2.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || *fin.Result.Winner != 0 {
		t.Fatalf("result %+v", fin.Result)
	}
	logs, _ := st.RoomLog(context.Background(), r.ID())
	if len(logs) < 4 {
		t.Fatalf("log has %d entries", len(logs))
	}
}

func TestBotTimeoutAndErrorFallBackToLegalMoves(t *testing.T) {
	for _, level := range []string{"slow", "broken"} {
		t.Run(level, func(t *testing.T) {
			m, _ := newManager(t, nil, memstore.New(), 50*time.Millisecond)
			w := newMember(1, "w")
			_, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5", Watch: true,
				Seats: []players.Player{{Bot: level}, {Bot: level}}, Join: []JoinAs{{M: w, As: RoleSpectator}}})
			if err != nil {
				t.Fatal(err)
			}
			fin := w.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
			if fin.Result == nil || fin.Spectators != 1 {
				t.Fatalf("final %+v", fin)
			}
		})
	}
}

func TestStaleBotAnswerIsDropped(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "a"}, {Bot: "one"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Move(a, "1", nil)
	st := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
	// An answer computed for an older position is dropped.
	done := make(chan int64)
	r.post(func() {
		r.botMoved(botAnswer{seat: 1, version: st.Seq - 5, res: botpool.Result{Move: "2"}})
		done <- r.seq
	})
	if seq := <-done; seq != st.Seq {
		t.Fatalf("stale bot answer changed the room: seq %d -> %d", st.Seq, seq)
	}
}

func TestCreateRefusesUnknowns(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	for i, spec := range []Spec{
		{Game: "nope", Variant: "5", Seats: make([]players.Player, 2)},
		{Game: "race5", Variant: "6", Seats: make([]players.Player, 2)},
		{Game: "race5", Variant: "5", Seats: []players.Player{{Bot: "genius"}, {}}},
	} {
		_, err := m.Create(context.Background(), spec)
		if pe := protocol.AsError(err); pe == nil || pe.Code != protocol.CodeUnknownGame {
			t.Errorf("spec %d: %v, want unknown_game", i, err)
		}
	}
}

// unsureStore fails the next SaveRoom in one of three ways: "landed" writes
// the room and still returns an error (a timeout after the write), "lost"
// returns an error without writing, "down" returns an error without writing
// and fails the next LoadRoom too, so the room cannot tell what happened.
type unsureStore struct {
	*memstore.Store
	mode     chan string
	loadDown chan bool
}

func (s *unsureStore) LoadRoom(ctx context.Context, id string) (store.Room, error) {
	select {
	case <-s.loadDown:
		return store.Room{}, errors.New("connection refused")
	default:
		return s.Store.LoadRoom(ctx, id)
	}
}

func (s *unsureStore) SaveRoom(ctx context.Context, r store.Room) error {
	select {
	case mode := <-s.mode:
		if mode == "down" {
			s.loadDown <- true
		}
		if mode == "landed" {
			if err := s.Store.SaveRoom(ctx, r); err != nil {
				return err
			}
		}
		return errors.New("i/o timeout")
	default:
		return s.Store.SaveRoom(ctx, r)
	}
}

func TestSaveErrorsNeverLoseOrDuplicateAMove(t *testing.T) {
	tests := []struct {
		name      string
		mode      string
		wantTotal float64 // the race5 total after the move "2"
	}{
		{"write landed despite the error: the move stands", "landed", 2},
		{"write lost: the move is rolled back", "lost", 0},
		{"store down: rolled back and the seq is never reused", "down", 0},
	}
	seqAfter := map[string]int64{} // the seq of the state after the accepted move
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
			m, _ := startManager(t, Config{Store: st}, 1)
			r, a, b := twoPlayers(t, m)
			start := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
			st.mode <- tt.mode
			r.Move(a, "2", nil)
			if tt.mode != "landed" {
				a.waitErr(t, string(protocol.CodeInternal))
				// The seat to move plays again; the store must accept it even
				// if the lost write were to land late.
				r.Move(a, "1", nil)
				tt.wantTotal = 1
			}
			got := b.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil })
			if got.Board.(float64) != tt.wantTotal || got.Seq <= start.Seq {
				t.Fatalf("after the move: total %v seq %d, want total %v and seq > %d", got.Board, got.Seq, tt.wantTotal, start.Seq)
			}
			saved, err := st.LoadRoom(context.Background(), r.ID())
			if err != nil {
				t.Fatal(err)
			}
			if saved.Seq != got.Seq {
				t.Fatalf("stored seq %d, broadcast seq %d", saved.Seq, got.Seq)
			}
			seqAfter[tt.mode] = got.Seq
		})
	}
	// Each case reaches the same position by the same changes. Only an
	// unanswered save burns its seq: then the next change skips it (clients
	// see the gap and resync); otherwise seq grows by one.
	if seqAfter["lost"] != seqAfter["landed"] || seqAfter["down"] != seqAfter["landed"]+1 {
		t.Fatalf("seq after the accepted move: %v; want lost == landed and down == landed+1", seqAfter)
	}
}

// TestBotAnswerNeverBlocksThePool: a room busy with a command when its
// bot's answer comes must not hold the pool's worker (botpool.Job.Done
// must not block). With one worker, a second job is answered by its bot
// while the room is still busy; had the worker waited for the room, the
// second job would have been answered at its deadline with a fallback.
func TestBotAnswerNeverBlocksThePool(t *testing.T) {
	m, pool := startManager(t, Config{Store: memstore.New()}, 1)
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "a"}, {Bot: "one"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	release := make(chan struct{})
	released := false
	t.Cleanup(func() {
		if !released {
			close(release)
		}
	})
	// The move asks the pool for the bot's turn; the room then stays busy.
	asked := make(chan struct{})
	r.post(func() {
		if perr := r.play(0, "1", "human"); perr != nil {
			t.Errorf("move: %v", perr)
		}
		close(asked)
		<-release
	})
	<-asked
	bot, _ := race5Game{}.Bot("one")
	res, err := pool.Move(context.Background(), botpool.Job{Game: "race5", Level: "one", Bot: bot,
		State: &race5{Win: -1}, Seat: 0, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fallback || res.Move != "1" {
		t.Fatalf("second job answered %+v: the worker was held by the busy room", res)
	}
	close(release)
	released = true
	st := a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
	if st.Board.(float64) != 2 {
		t.Fatalf("after the bot's answer: total %v, want 2", st.Board)
	}
}
