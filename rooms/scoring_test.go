package rooms

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// wallMoves is a 9x9 game of go: black builds a wall on column E, white one
// on F, black plays C3 in its own area and white B5 alone inside it, then
// both pass. Counted as the board stands (the seed's rule) white wins, 37
// to 10: black's area touches B5. With B5 removed as dead, black has 45
// and white 36.
var wallMoves = func() []string {
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, "E"+strconv.Itoa(row), "F"+strconv.Itoa(row))
	}
	return append(moves, "C3", "B5", "pass", "pass")
}()

// wallSetup is the position of wallMoves before its passes, black to move.
const wallSetup = `{"black":["E1","E2","E3","E4","E5","E6","E7","E8","E9","C3"],` +
	`"white":["F1","F2","F3","F4","F5","F6","F7","F8","F9","B5"],"toMove":"black"}`

// scoreView is what a room.state says of the stone-removal phase.
type scoreView struct {
	Dead     []string `json:"dead"`
	Accepted []int    `json:"accepted"`
	Area     []string `json:"area"`
}

// waitScore waits for the first room.state mem got that pred accepts,
// with its stone-removal fields.
func (m *fakeMember) waitScore(t *testing.T, pred func(protocol.RoomState, scoreView) bool) (protocol.RoomState, scoreView) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		m.mu.Lock()
		for i, st := range m.got {
			var v scoreView
			x := m.extras[i]
			for k, p := range map[string]any{"dead": &v.Dead, "accepted": &v.Accepted, "area": &v.Area} {
				if raw, ok := x[k]; ok {
					_ = json.Unmarshal(raw, p)
				}
			}
			if pred(st, v) {
				m.mu.Unlock()
				return st, v
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

// goManager is a manager of the real games, with a bot pool.
func goManager(t *testing.T, cfg Config) *Manager {
	t.Helper()
	cfg.Catalog = games.Catalog()
	m, _ := startManager(t, cfg, 2)
	return m
}

// play posts moves for the seats in turn, first moving first.
func play(r *Room, seats [2]*fakeMember, first int, moves ...string) {
	for i, mv := range moves {
		r.Move(seats[(first+i)%2], mv, nil)
	}
}

// scoringWith waits for the stone-removal phase with the server's
// proposal made (its own change, after the pass) and checks it.
func scoringWith(t *testing.T, mem *fakeMember, dead ...string) (protocol.RoomState, scoreView) {
	t.Helper()
	st, v := mem.waitScore(t, func(st protocol.RoomState, v scoreView) bool {
		return st.Status == StatusScoring && len(v.Dead) > 0
	})
	if !slices.Equal(v.Dead, dead) {
		t.Fatalf("proposed dead %v, want %v", v.Dead, dead)
	}
	return st, v
}

// scoreAnswer posts f for mem, waits until the room ran it and returns the
// error code it answered, "" for none.
func scoreAnswer(t *testing.T, r *Room, mem *fakeMember, f func() bool) string {
	t.Helper()
	mem.mu.Lock()
	n := len(mem.errs)
	mem.mu.Unlock()
	f()
	settle(r)
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if len(mem.errs) > n {
		return mem.errs[n]
	}
	return ""
}

// TestStoneRemovalRoom: two people play 9x9 with komi 6.5 and removal;
// after two passes the room says "scoring" with the server's proposal
// (B5 dead); toggles clear acceptances, moves other than the resuming
// seat's stones are refused, spectators cannot mark; the phase survives a
// restart; both accepts end the game counted without B5, and the record
// carries the options and the dead stones.
func TestStoneRemovalRoom(t *testing.T) {
	st := memstore.New()
	m := goManager(t, Config{Store: st})
	a, b, sp := newMember(1, "a"), newMember(2, "b"), newMember(3, "sp")
	r := pairRoom(t, m, Spec{Game: "go", Variant: "9", Options: engine.Options{Komi: 6.5, Removal: true}}, a, b)
	r.Join(sp, RoleSpectator, nil)
	play(r, [2]*fakeMember{a, b}, 0, wallMoves...)
	ph, v := scoringWith(t, sp, "B5")
	if ph.Turn == nil || *ph.Turn != 0 || slices.Contains(ph.Legal, "pass") || ph.Result != nil || len(v.Accepted) != 0 {
		t.Fatalf("in the phase: turn %v, legal %v, result %+v, accepted %v", ph.Turn, ph.Legal, ph.Result, v.Accepted)
	}
	if sc := ph.Score.(map[string]any); sc["black"] != 45.0 || sc["white"] != 36.0 {
		t.Fatalf("score with the proposal %v, want 45 to 36", sc)
	}
	if v.Area[4] != "XXXXXOOOO" {
		t.Fatalf("area row 5 %q", v.Area[4])
	}

	if code := scoreAnswer(t, r, b, func() bool { return r.AcceptScore(b, nil) }); code != "" {
		t.Fatalf("accept: %s", code)
	}
	sp.waitScore(t, func(_ protocol.RoomState, v scoreView) bool { return slices.Equal(v.Accepted, []int{1}) })
	if code := scoreAnswer(t, r, a, func() bool { return r.ToggleScore(a, "B5", nil) }); code != "" {
		t.Fatalf("toggle: %s", code)
	}
	_, v = sp.waitScore(t, func(st protocol.RoomState, v scoreView) bool {
		return st.Status == StatusScoring && len(v.Dead) == 0 && len(v.Accepted) == 0
	})
	for _, tc := range []struct {
		name string
		mem  *fakeMember
		f    func() bool
		code protocol.Code
	}{
		{"a pass", a, func() bool { return r.Move(a, "pass", nil) }, protocol.CodeIllegalMove},
		{"the other seat's stone", b, func() bool { return r.Move(b, "A1", nil) }, protocol.CodeNotYourTurn},
		{"a toggle on an empty point", a, func() bool { return r.ToggleScore(a, "D5", nil) }, protocol.CodeIllegalMove},
		{"a spectator's toggle", sp, func() bool { return r.ToggleScore(sp, "B5", nil) }, protocol.CodeNotAPlayer},
		{"a spectator's accept", sp, func() bool { return r.AcceptScore(sp, nil) }, protocol.CodeNotAPlayer},
	} {
		if code := scoreAnswer(t, r, tc.mem, tc.f); code != string(tc.code) {
			t.Errorf("%s: %q, want %q", tc.name, code, tc.code)
		}
	}
	if code := scoreAnswer(t, r, b, func() bool { return r.ToggleScore(b, "B5", nil) }); code != "" {
		t.Fatalf("toggle back: %s", code)
	}
	if code := scoreAnswer(t, r, a, func() bool { return r.AcceptScore(a, nil) }); code != "" {
		t.Fatalf("accept: %s", code)
	}
	sp.waitScore(t, func(_ protocol.RoomState, v scoreView) bool {
		return slices.Equal(v.Dead, []string{"B5"}) && slices.Equal(v.Accepted, []int{0})
	})

	// A restart in the phase: the marking, the acceptance and the
	// proposal come back.
	m2 := goManager(t, Config{Store: st})
	c := newMember(9, "a")
	r2, back := restoreAndJoin(t, st, m2, r.ID(), c)
	_, bv := c.waitScore(t, func(protocol.RoomState, scoreView) bool { return true })
	if back.Status != StatusScoring || !slices.Equal(bv.Dead, []string{"B5"}) || !slices.Equal(bv.Accepted, []int{0}) {
		t.Fatalf("restored: status %s, dead %v, accepted %v", back.Status, bv.Dead, bv.Accepted)
	}
	settle(r2)
	if !r2.score.proposed || !slices.Equal(r2.score.proposal, []string{"B5"}) {
		t.Fatalf("restored proposal %v (%v)", r2.score.proposal, r2.score.proposed)
	}

	if code := scoreAnswer(t, r, b, func() bool { return r.AcceptScore(b, nil) }); code != "" {
		t.Fatalf("accept: %s", code)
	}
	fin, fv := sp.waitScore(t, func(st protocol.RoomState, _ scoreView) bool { return st.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Winner == nil || *fin.Result.Winner != 0 || fin.Result.Reason != engine.ReasonScored {
		t.Fatalf("result %+v, want black by the score", fin.Result)
	}
	if sc := fin.Score.(map[string]any); sc["black"] != 45.0 || sc["white"] != 36.0 || !slices.Equal(fv.Dead, []string{"B5"}) {
		t.Fatalf("final score %v, dead %v", sc, fv.Dead)
	}
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordOf(saved.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Komi != 6.5 || !rec.Removal || rec.Handicap != 0 || !slices.Equal(rec.Dead, []string{"B5"}) || rec.Result.Reason != engine.ReasonScored {
		t.Fatalf("record: komi %v, removal %v, handicap %d, dead %v, result %+v", rec.Komi, rec.Removal, rec.Handicap, rec.Dead, rec.Result)
	}
}

// TestSeedRuleRoom: the same game in a room with the protocol's defaults
// ends at the two passes, counted as the board stands (white, 37 to 10).
func TestSeedRuleRoom(t *testing.T) {
	m := goManager(t, Config{Store: memstore.New()})
	a, b := newMember(1, "a"), newMember(2, "b")
	r := pairRoom(t, m, Spec{Game: "go", Variant: "9"}, a, b)
	play(r, [2]*fakeMember{a, b}, 0, wallMoves...)
	fin, v := a.waitScore(t, func(st protocol.RoomState, _ scoreView) bool { return st.Status == StatusFinished })
	if fin.Result.Reason != "two_passes" || *fin.Result.Winner != 1 || v.Dead != nil {
		t.Fatalf("result %+v, dead %v", fin.Result, v.Dead)
	}
	if sc := fin.Score.(map[string]any); sc["black"] != 10.0 || sc["white"] != 37.0 {
		t.Fatalf("score %v", sc)
	}
	if code := scoreAnswer(t, r, a, func() bool { return r.AcceptScore(a, nil) }); code != string(protocol.CodeGameOver) {
		t.Fatalf("accept after the end: %q", code)
	}
}

// TestStoneRemovalResumeAndTakeback: in the phase the seat to move resumes
// the game with a stone (the marking goes, the game plays on, and two
// passes start the phase again with a new proposal); a takeback of the
// last pass returns to play too; outside the phase a toggle is refused.
func TestStoneRemovalResumeAndTakeback(t *testing.T) {
	m := goManager(t, Config{Store: memstore.New()})
	a, b := newMember(1, "a"), newMember(2, "b")
	r := pairRoom(t, m, Spec{Game: "go", Variant: "9", Options: engine.Options{Removal: true}}, a, b)
	if code := scoreAnswer(t, r, a, func() bool { return r.ToggleScore(a, "E5", nil) }); code != string(protocol.CodeBadRequest) {
		t.Fatalf("a toggle while playing: %q", code)
	}
	play(r, [2]*fakeMember{a, b}, 0, wallMoves...)
	scoringWith(t, b, "B5")
	r.Move(a, "A5", nil)
	resumed, v := b.waitScore(t, func(st protocol.RoomState, _ scoreView) bool {
		return st.LastMove != nil && st.LastMove.Move == "A5"
	})
	if resumed.Status != StatusPlaying || v.Dead != nil || v.Area != nil || *resumed.Turn != 1 || !slices.Contains(resumed.Legal, "pass") {
		t.Fatalf("after the resume: status %s, dead %v, area %v, turn %v", resumed.Status, v.Dead, v.Area, resumed.Turn)
	}
	play(r, [2]*fakeMember{a, b}, 1, "pass", "pass")
	// White's pass first this time: black passes last, white may resume.
	again, av := b.waitScore(t, func(st protocol.RoomState, v scoreView) bool {
		return st.Status == StatusScoring && st.Seq > resumed.Seq && len(v.Dead) > 0
	})
	if *again.Turn != 1 || !slices.Equal(av.Dead, []string{"B5"}) {
		t.Fatalf("turn %d in the second phase", *again.Turn)
	}
	if code := scoreAnswer(t, r, a, func() bool { return r.AskTakeback(a, nil) }); code != "" {
		t.Fatalf("takeback ask: %s", code)
	}
	if code := scoreAnswer(t, r, b, func() bool { return r.AcceptTakeback(b, nil) }); code != "" {
		t.Fatalf("takeback accept: %s", code)
	}
	back, bv := b.waitScore(t, func(st protocol.RoomState, _ scoreView) bool {
		return st.Moves != nil && len(st.Moves) == len(wallMoves)+2
	})
	if back.Status != StatusPlaying || bv.Dead != nil || *back.Turn != 0 {
		t.Fatalf("after the takeback: status %s, dead %v, turn %v", back.Status, bv.Dead, back.Turn)
	}
	settle(r)
	if r.score.proposed || !r.score.since.IsZero() {
		t.Fatalf("the phase was not forgotten: %+v", r.score)
	}
}

// TestStoneRemovalAgainstABot: a bot accepts the server's proposal at
// once, and again whenever the marking is back to something at least as
// good for it; it does not accept a marking that costs it points.
func TestStoneRemovalAgainstABot(t *testing.T) {
	m := goManager(t, Config{Store: memstore.New()})
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "go", Variant: "9", Setup: json.RawMessage(wallSetup),
		Options: engine.Options{Komi: 6.5, Removal: true},
		Seats:   []players.Player{players.Of("a", "a"), players.ServerBot("basico", "bot basico")},
		Join:    []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Move(a, "pass", nil) // the bot, leading on the board as it stands, passes too
	_, v := scoringWith(t, a, "B5")
	if !slices.Equal(v.Accepted, []int{1}) {
		_, v = a.waitScore(t, func(_ protocol.RoomState, v scoreView) bool { return slices.Equal(v.Accepted, []int{1}) })
	}
	// Marking white's wall dead costs the bot: it does not accept.
	r.ToggleScore(a, "F5", nil)
	_, v = a.waitScore(t, func(_ protocol.RoomState, v scoreView) bool { return slices.Contains(v.Dead, "F5") })
	if len(v.Accepted) != 0 {
		t.Fatalf("the bot accepted a marking of its own wall: %v", v.Accepted)
	}
	// Marking B5 alive helps the bot (white): it accepts.
	r.ToggleScore(a, "F5", nil)
	r.ToggleScore(a, "B5", nil)
	_, v = a.waitScore(t, func(_ protocol.RoomState, v scoreView) bool {
		return len(v.Dead) == 0 && slices.Equal(v.Accepted, []int{1})
	})
	r.ToggleScore(a, "B5", nil)
	r.AcceptScore(a, nil)
	fin, _ := a.waitScore(t, func(st protocol.RoomState, _ scoreView) bool { return st.Status == StatusFinished })
	if *fin.Result.Winner != 0 || fin.Result.Reason != engine.ReasonScored {
		t.Fatalf("result %+v, want black by the score", fin.Result)
	}
}

// TestStoneRemovalStopsTheClocks: under a clock no time runs in the phase;
// room.state says when it ends (the grace period after the proposal).
func TestStoneRemovalStopsTheClocks(t *testing.T) {
	now := fakeclock.New()
	m := goManager(t, Config{Store: memstore.New(), Now: now.Now, Grace: 45 * time.Second})
	a, b := newMember(1, "a"), newMember(2, "b")
	r := pairRoom(t, m, Spec{Game: "go", Variant: "9", Options: engine.Options{Removal: true},
		Clock: &protocol.TimeControl{Base: 600, Increment: 0}}, a, b)
	play(r, [2]*fakeMember{a, b}, 0, wallMoves[:len(wallMoves)-1]...)
	b.waitState(t, func(s protocol.RoomState) bool {
		return len(s.Moves) == 0 && s.LastMove != nil && s.LastMove.Move == "pass"
	})
	now.Advance(3 * time.Second) // white thinks, then passes
	entered := now.Now()         // and the proposal comes with no time passing
	r.Move(b, "pass", nil)
	ph, _ := scoringWith(t, a, "B5")
	want := clocksOf(t, ph)
	if want[1] != 597000 {
		t.Fatalf("clocks on entering the phase %v: white's pass took 3 s", want)
	}
	if ph.ScoreBy == nil || *ph.ScoreBy != entered.Add(60*time.Second).UnixMilli() {
		t.Fatalf("scoreBy %v, want 60 s (a tenth of the base, over the 45-s grace) after %v", ph.ScoreBy, entered)
	}
	now.Advance(20 * time.Second)
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	later := sp.waitState(t, func(protocol.RoomState) bool { return true })
	if got := clocksOf(t, later); got != want || later.Status != StatusScoring {
		t.Fatalf("20 s into the phase the clocks show %v, want %v", got, want)
	}
	// The resuming stone costs black nothing, and white's clock runs
	// again from it.
	r.Move(a, "A5", nil)
	res := sp.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Move == "A5" })
	now.Advance(time.Second)
	if res.ScoreBy != nil || res.Status != StatusPlaying || clocksOf(t, res) != want {
		t.Fatalf("after the resume: status %s, scoreBy %v, clocks %v", res.Status, res.ScoreBy, clocksOf(t, res))
	}
	settle(r)
	if c := r.clock; c.running != 1 {
		t.Fatalf("running clock %d after the resume, want white's", c.running)
	}
}

// TestStoneRemovalRunsOut: under a clock the phase ends by itself at
// scoreBy, counted with the server's proposal whatever was marked last;
// a claim against a player gone past the grace period counts the same
// way instead of forfeiting the game.
func TestStoneRemovalRunsOut(t *testing.T) {
	t.Run("timer", func(t *testing.T) {
		m := goManager(t, Config{Store: memstore.New(), Grace: 100 * time.Millisecond})
		a, b := newMember(1, "a"), newMember(2, "b")
		r := pairRoom(t, m, Spec{Game: "go", Variant: "9", Options: engine.Options{Komi: 6.5, Removal: true},
			Clock: &protocol.TimeControl{Base: 5, Increment: 5}}, a, b)
		play(r, [2]*fakeMember{a, b}, 0, wallMoves...)
		scoringWith(t, a, "B5")
		r.ToggleScore(b, "B5", nil) // a last-moment toggle by white
		fin, v := a.waitScore(t, func(st protocol.RoomState, _ scoreView) bool { return st.Status == StatusFinished })
		if fin.Result.Reason != engine.ReasonScored || *fin.Result.Winner != 0 || !slices.Equal(v.Dead, []string{"B5"}) {
			t.Fatalf("result %+v, dead %v: want black, counted with the proposal", fin.Result, v.Dead)
		}
	})
	t.Run("claim", func(t *testing.T) {
		now := fakeclock.New()
		m := goManager(t, Config{Store: memstore.New(), Now: now.Now, Grace: 30 * time.Second})
		a, b := newMember(1, "a"), newMember(2, "b")
		r := pairRoom(t, m, Spec{Game: "go", Variant: "9", Options: engine.Options{Removal: true}}, a, b)
		play(r, [2]*fakeMember{a, b}, 0, wallMoves...)
		scoringWith(t, a, "B5")
		r.ToggleScore(b, "B5", nil)
		r.Leave(b, nil)
		settle(r)
		if code, _ := claimAnswer(t, r, a); code != string(protocol.CodeBadRequest) {
			t.Fatalf("early claim: %q", code)
		}
		now.Advance(31 * time.Second)
		if code, msg := claimAnswer(t, r, a); code != "" {
			t.Fatalf("claim: %s %s", code, msg)
		}
		fin, v := a.waitScore(t, func(st protocol.RoomState, _ scoreView) bool { return st.Status == StatusFinished })
		if fin.Result.Reason != engine.ReasonScored || *fin.Result.Winner != 0 || !slices.Equal(v.Dead, []string{"B5"}) {
			t.Fatalf("result %+v, dead %v: want black, counted with the proposal", fin.Result, v.Dead)
		}
	})
}

// TestOptionsRefused: options the game does not take are refused when the
// room is made, with a clear message, and change nothing.
func TestOptionsRefused(t *testing.T) {
	m := goManager(t, Config{Store: memstore.New()})
	for _, spec := range []Spec{
		{Game: "morris", Variant: "3", Options: engine.Options{Removal: true}},
		{Game: "go", Variant: "9", Options: engine.Options{Komi: 6}},
		{Game: "go", Variant: "9", Options: engine.Options{Handicap: 12}},
	} {
		spec.Seats = []players.Player{{ID: "a"}, {}}
		if _, err := m.Create(context.Background(), spec); protocol.AsError(err).Code != protocol.CodeBadRequest {
			t.Errorf("%+v: %v, want bad_request", spec.Options, err)
		}
	}
	_, err := m.Create(context.Background(), Spec{Game: "go", Variant: "9", Setup: json.RawMessage(wallSetup),
		Options: engine.Options{Handicap: 2}, Seats: []players.Player{{ID: "a"}, {}}})
	if protocol.AsError(err).Code != protocol.CodeBadSetup {
		t.Errorf("a handicap beside a setup: %v", err)
	}
	if m.Len() != 0 {
		t.Fatalf("%d rooms made", m.Len())
	}
}
