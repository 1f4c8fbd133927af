package rooms

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/morris"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// answer runs send (a command of mem's) and returns the error it drew,
// "" when none.
func answer(t *testing.T, r *Room, mem *fakeMember, send func(Member, json.RawMessage) bool) (code, msg string) {
	t.Helper()
	mem.mu.Lock()
	n := len(mem.errs)
	mem.mu.Unlock()
	send(mem, nil)
	settle(r)
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if len(mem.errs) == n {
		return "", ""
	}
	return mem.errs[n], mem.msgs[n]
}

// mustAnswer is answer that fails unless the command drew code (""
// for none) with a message containing part.
func mustAnswer(t *testing.T, r *Room, mem *fakeMember, send func(Member, json.RawMessage) bool, code, part string) {
	t.Helper()
	got, msg := answer(t, r, mem, send)
	if got != code || !strings.Contains(msg, part) {
		t.Fatalf("answer %q %q, want %q with %q", got, msg, code, part)
	}
}

// latest is the last room.state mem got.
func (m *fakeMember) latest(t *testing.T) protocol.RoomState {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.got) == 0 {
		t.Fatal("no room.state yet")
	}
	return m.got[len(m.got)-1]
}

// move plays mv for mem and fails the test on a refusal.
func move(t *testing.T, r *Room, mem *fakeMember, mv string) protocol.RoomState {
	t.Helper()
	mustAnswer(t, r, mem, func(m Member, id json.RawMessage) bool { return r.Move(m, mv, id) }, "", "")
	return mem.latest(t)
}

// storedSnapshot reads the room's snapshot from st.
func storedSnapshot(t *testing.T, st store.Store, id string) snapshotV1 {
	t.Helper()
	_, snap := storedRoom(t, st, id)
	var s snapshotV1
	if err := json.Unmarshal(snap, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// abortAt reads room.state's abortAt, 0 for null.
func abortAt(s protocol.RoomState) int64 {
	if s.AbortAt == nil {
		return 0
	}
	return *s.AbortAt
}

// lastLogEntry is the last entry of the room's log in st.
func lastLogEntry(t *testing.T, st store.Store, id string) logEntry {
	t.Helper()
	entries, err := st.RoomLog(context.Background(), id)
	if err != nil || len(entries) == 0 {
		t.Fatalf("room log: %d entries, %v", len(entries), err)
	}
	var e logEntry
	if err := json.Unmarshal(entries[len(entries)-1], &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestFirstMovesAreFreeAndALateOneAborts: in a game with a clock each
// seat's first move is untimed and due AbortAfter from the moment the seat
// could make it (room.state abortAt); a first move that comes later aborts
// the game with no result, saved and broadcast like a move.
func TestFirstMovesAreFreeAndALateOneAborts(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now, func(c *Config) { c.AbortAfter = 20 * time.Second })
	r, a, b := clockedRoom(t, m, 10, 2)
	start := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	if abortAt(start) != now.Now().Add(20*time.Second).UnixMilli() || !start.Abortable {
		t.Fatalf("at the start abortAt %d abortable %v; want %d and true", abortAt(start), start.Abortable, now.Now().Add(20*time.Second).UnixMilli())
	}
	now.Advance(19 * time.Second)
	got := move(t, r, a, "1")
	if c := clocksOf(t, got); c != [2]int64{10000, 10000} {
		t.Fatalf("clocks after a first move 19 s in: %v", c)
	}
	if abortAt(got) != now.Now().Add(20*time.Second).UnixMilli() || !got.Abortable {
		t.Fatalf("seat 1's first move: abortAt %d abortable %v", abortAt(got), got.Abortable)
	}
	now.Advance(20 * time.Second)
	mustAnswer(t, r, b, func(m Member, id json.RawMessage) bool { return r.Move(m, "1", id) }, string(protocol.CodeGameOver), "aborted")
	fin := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Winner != nil || fin.Result.Reason != ReasonAborted || abortAt(fin) != 0 || fin.Abortable {
		t.Fatalf("after the late move: %+v", fin)
	}
	if s := storedSnapshot(t, st, r.ID()); s.Result == nil || s.Result.Reason != ReasonAborted || s.Seq != fin.Seq {
		t.Fatalf("stored %+v at seq %d, broadcast seq %d", s.Result, s.Seq, fin.Seq)
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "abort" || e.By != "timeout" || e.Seat == nil || *e.Seat != 1 {
		t.Fatalf("log entry %+v", e)
	}
}

// TestAbortTimerFiresByItself: nobody moves; the room's own timer aborts
// the game (real time, a short limit).
func TestAbortTimerFiresByItself(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil, func(c *Config) { c.AbortAfter = 30 * time.Millisecond })
	r, a, _ := clockedRoom(t, m, 1, 0)
	fin := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Reason != ReasonAborted || fin.Result.Winner != nil || clocksOf(t, fin) != [2]int64{1000, 1000} {
		t.Fatalf("%+v", fin)
	}
	if s := storedSnapshot(t, st, r.ID()); s.Result == nil || s.Result.Reason != ReasonAborted {
		t.Fatalf("stored result %+v", s.Result)
	}
}

// TestNoAbortWithoutAClock: without a clock nothing is due (as on lichess,
// where games without a clock never expire), and a player may still abort
// until both sides have moved.
func TestNoAbortWithoutAClock(t *testing.T) {
	now := fakeclock.New()
	m := clockManager(t, memstore.New(), now.Now, func(c *Config) { c.AbortAfter = time.Second })
	r, a, b := twoPlayers(t, m)
	st := a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	if abortAt(st) != 0 || !st.Abortable {
		t.Fatalf("abortAt %d abortable %v", abortAt(st), st.Abortable)
	}
	now.Advance(time.Hour)
	if got := move(t, r, a, "1"); got.Status != StatusPlaying || !got.Abortable {
		t.Fatalf("after seat 0's move an hour in: %+v", got)
	}
	if got := move(t, r, b, "1"); got.Abortable {
		t.Fatal("abortable after both sides moved")
	}
}

// TestAbortByAPlayer: room.abort ends the game with no result until both
// sides have moved (also while the room waits for its second player), and
// is refused otherwise with a clear error.
func TestAbortByAPlayer(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil)
	abort := func(r *Room) func(Member, json.RawMessage) bool { return r.Abort }

	r, a, b := twoPlayers(t, m)
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	mustAnswer(t, r, sp, abort(r), string(protocol.CodeNotAPlayer), "seat")
	move(t, r, a, "1")
	move(t, r, b, "1")
	mustAnswer(t, r, a, abort(r), string(protocol.CodeBadRequest), "both sides have moved")

	r, a, b = twoPlayers(t, m)
	move(t, r, a, "2")
	mustAnswer(t, r, b, abort(r), "", "")
	fin := a.latest(t)
	if fin.Status != StatusFinished || fin.Result == nil || fin.Result.Reason != ReasonAborted || fin.Result.Winner != nil {
		t.Fatalf("after b aborted: %+v", fin)
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "abort" || e.By != "human" || *e.Seat != 1 {
		t.Fatalf("log entry %+v", e)
	}
	mustAnswer(t, r, a, abort(r), string(protocol.CodeGameOver), "over")

	// A room waiting for its opponent: its creator cancels it.
	c := newMember(4, "c")
	w, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{{ID: "c", Name: "c"}, {}}, Join: []JoinAs{{M: c, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.waitState(t, func(protocol.RoomState) bool { return true }); s.Status != StatusWaiting || !s.Abortable {
		t.Fatalf("waiting room: %+v", s)
	}
	mustAnswer(t, w, c, w.Abort, "", "")
	if s := c.latest(t); s.Status != StatusFinished || s.Result.Reason != ReasonAborted {
		t.Fatalf("the cancelled room: %+v", s)
	}
}

// TestAbortDeadlineRestartsAfterARestore: downtime never counts: a room
// restored after a restart gives the seat to move the whole limit again.
func TestAbortDeadlineRestartsAfterARestore(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now)
	r, a, _ := clockedRoom(t, m, 60, 0)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	now.Advance(25 * time.Second)
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	now.Advance(time.Hour)
	back := now.Now()
	_, got := restoreAndJoin(t, st, clockManager(t, st, now.Now), r.ID(), newMember(5, "a"))
	if got.Status != StatusPlaying || abortAt(got) != back.Add(DefaultAbortAfter).UnixMilli() {
		t.Fatalf("restored: %s, abortAt %d, want %d", got.Status, abortAt(got), back.Add(DefaultAbortAfter).UnixMilli())
	}
}

// drawManager is a manager of morris rooms (which have draws) and race5
// rooms (which do not), over st, with the time of now.
func drawManager(t *testing.T, st store.Store, now func() time.Time) *Manager {
	t.Helper()
	m, _ := startManager(t, Config{Store: st, Now: now, Catalog: engine.NewCatalog(race5Game{}, morris.Game())}, 2)
	return m
}

// morrisPair starts a morris room between a (X, seat 0) and b.
func morrisPair(t *testing.T, m *Manager) (*Room, *fakeMember, *fakeMember) {
	t.Helper()
	a, b := newMember(1, "a"), newMember(2, "b")
	return pairRoom(t, m, Spec{Game: "morris", Variant: "3"}, a, b), a, b
}

// TestDrawOffers: an offer stands until the offerer's opponent moves,
// declines it, or accepts it (explicitly, or by offering back); the
// offerer may withdraw it; a player offers at most once a move of its own;
// no offers before both sides have moved, in a game without draws, by a
// spectator or after the end.
func TestDrawOffers(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	r, a, b := morrisPair(t, m)
	offer := r.OfferDraw
	mustAnswer(t, r, a, offer, string(protocol.CodeBadRequest), "before both sides have moved")
	move(t, r, a, "b2")
	move(t, r, b, "a1")
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	mustAnswer(t, r, sp, offer, string(protocol.CodeNotAPlayer), "seat")
	mustAnswer(t, r, a, r.AcceptDraw, string(protocol.CodeBadRequest), "no draw offer to accept")
	mustAnswer(t, r, a, r.DeclineDraw, string(protocol.CodeBadRequest), "no draw offer to decline")

	mustAnswer(t, r, a, offer, "", "")
	if s := b.latest(t); s.DrawOffer == nil || *s.DrawOffer != 0 {
		t.Fatalf("after a's offer: drawOffer %v", s.DrawOffer)
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "draw_offer" || *e.Seat != 0 {
		t.Fatalf("log entry %+v", e)
	}
	mustAnswer(t, r, a, offer, string(protocol.CodeBadRequest), "stands")
	mustAnswer(t, r, a, r.AcceptDraw, string(protocol.CodeBadRequest), "no draw offer to accept") // one's own
	if s := move(t, r, a, "c3"); s.DrawOffer == nil {
		t.Fatal("the offer lapsed when the offerer moved")
	}
	if s := move(t, r, b, "c1"); s.DrawOffer != nil {
		t.Fatal("the offer stands after the opponent moved")
	}
	mustAnswer(t, r, a, offer, "", "") // a has moved since its first offer
	mustAnswer(t, r, b, r.DeclineDraw, "", "")
	if s := a.latest(t); s.DrawOffer != nil || s.Status != StatusPlaying {
		t.Fatalf("after b declined: %+v", s)
	}
	mustAnswer(t, r, a, offer, string(protocol.CodeBadRequest), "play a move before offering again")
	mustAnswer(t, r, b, offer, "", "")
	mustAnswer(t, r, b, r.DeclineDraw, "", "") // withdrawn
	if s := a.latest(t); s.DrawOffer != nil {
		t.Fatal("b's withdrawn offer stands")
	}
	move(t, r, a, "b1")
	mustAnswer(t, r, b, offer, string(protocol.CodeBadRequest), "play a move before offering again")
	move(t, r, b, "b3")
	mustAnswer(t, r, b, offer, "", "")
	mustAnswer(t, r, a, offer, "", "") // offering back accepts
	fin := sp.latest(t)
	if fin.Status != StatusFinished || fin.Result == nil || fin.Result.Winner != nil || fin.Result.Reason != ReasonAgreement || fin.DrawOffer != nil {
		t.Fatalf("after a offered back: %+v", fin)
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "draw_accept" || *e.Seat != 0 || e.By != "human" {
		t.Fatalf("log entry %+v", e)
	}
	mustAnswer(t, r, a, offer, string(protocol.CodeGameOver), "over")

	// An explicit accept.
	r, a, b = morrisPair(t, m)
	move(t, r, a, "b2")
	move(t, r, b, "a1")
	mustAnswer(t, r, b, r.OfferDraw, "", "")
	mustAnswer(t, r, a, r.AcceptDraw, "", "")
	if s := b.latest(t); s.Result == nil || s.Result.Reason != ReasonAgreement {
		t.Fatalf("after an explicit accept: %+v", s.Result)
	}

	// A game without draws.
	r5, a5, b5 := twoPlayers(t, m)
	move(t, r5, a5, "1")
	move(t, r5, b5, "1")
	mustAnswer(t, r5, a5, r5.OfferDraw, string(protocol.CodeBadRequest), "has no draws")
}

// TestDrawOfferSurvivesARestore: the standing offer and the offerer's
// cooldown are in the snapshot.
func TestDrawOfferSurvivesARestore(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	r, a, b := morrisPair(t, m)
	move(t, r, a, "b2")
	move(t, r, b, "a1")
	mustAnswer(t, r, b, r.OfferDraw, "", "")
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	b2 := newMember(5, "b")
	r2, got := restoreAndJoin(t, st, drawManager(t, st, nil), r.ID(), b2)
	if got.DrawOffer == nil || *got.DrawOffer != 1 {
		t.Fatalf("restored drawOffer %v", got.DrawOffer)
	}
	mustAnswer(t, r2, b2, r2.DeclineDraw, "", "")
	mustAnswer(t, r2, b2, r2.OfferDraw, string(protocol.CodeBadRequest), "play a move before offering again")
}

// raceTotal is a race5 state's total.
func raceTotal(s protocol.RoomState) int { return int(s.Board.(float64)) }

// boardOf is a morris state's board.
func boardOf(s protocol.RoomState) string {
	rows, _ := s.Board.([]any)
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.(string))
		b.WriteByte('/')
	}
	return b.String()
}

// TestTakebacks: a player asks to take back its last move: one ply when
// the opponent has not replied, two when it has, so that it is the
// asker's turn again; the opponent accepts (the position is the setup
// replayed without those plies, and every member gets the full state with
// the shortened history) or declines; the asker may withdraw; a move
// lapses the request; at most one request a move of one's own.
func TestTakebacks(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	r, a, b := morrisPair(t, m)
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	ask, accept, decline := r.AskTakeback, r.AcceptTakeback, r.DeclineTakeback
	mustAnswer(t, r, a, ask, string(protocol.CodeBadRequest), "no move to take back")
	mustAnswer(t, r, sp, ask, string(protocol.CodeNotAPlayer), "seat")
	mustAnswer(t, r, a, accept, string(protocol.CodeBadRequest), "no takeback request to accept")
	mustAnswer(t, r, a, decline, string(protocol.CodeBadRequest), "no takeback request to decline")
	move(t, r, a, "b2")
	afterA1 := move(t, r, b, "a1")
	move(t, r, a, "c3")

	// One ply: b has not replied to a's move.
	mustAnswer(t, r, a, ask, "", "")
	if s := b.latest(t); s.Takeback == nil || *s.Takeback != (protocol.TakebackAsk{Seat: 0, Plies: 1}) {
		t.Fatalf("request %+v", s.Takeback)
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "takeback_ask" || e.Plies != 1 || *e.Seat != 0 {
		t.Fatalf("log entry %+v", e)
	}
	mustAnswer(t, r, a, ask, string(protocol.CodeBadRequest), "stands")
	mustAnswer(t, r, b, ask, string(protocol.CodeBadRequest), "accept or decline it first")
	mustAnswer(t, r, a, accept, string(protocol.CodeBadRequest), "no takeback request to accept")
	before := sp.latest(t).Seq
	mustAnswer(t, r, b, accept, "", "")
	firstTwo := []protocol.LastMove{{Seat: 0, Move: "b2"}, {Seat: 1, Move: "a1"}}
	for _, mem := range []*fakeMember{a, b, sp} {
		s := mem.latest(t)
		if boardOf(s) != boardOf(afterA1) || *s.Turn != 0 || s.Takeback != nil || s.Seq != before+1 ||
			!slices.Equal(s.Moves, firstTwo) || *s.LastMove != firstTwo[1] || !slices.Equal(s.Legal, afterA1.Legal) {
			t.Fatalf("after the takeback %s sees %+v", mem.player, s)
		}
	}
	if e := lastLogEntry(t, st, r.ID()); e.Kind != "takeback" || e.Plies != 1 || *e.Seat != 0 || e.By != "human" {
		t.Fatalf("log entry %+v", e)
	}
	if s := storedSnapshot(t, st, r.ID()); !slices.Equal(s.MoveLog, []string{"0:b2", "1:a1"}) || len(s.MoveMs) != 2 {
		t.Fatalf("stored snapshot: moves %v, times %v", s.MoveLog, s.MoveMs)
	}
	mustAnswer(t, r, a, ask, string(protocol.CodeBadRequest), "play a move before asking again")

	// Two plies: b replied to a's move.
	move(t, r, a, "c3")
	move(t, r, b, "c1")
	mustAnswer(t, r, a, ask, "", "")
	if s := b.latest(t); *s.Takeback != (protocol.TakebackAsk{Seat: 0, Plies: 2}) {
		t.Fatalf("request %+v", s.Takeback)
	}
	mustAnswer(t, r, b, accept, "", "")
	if s := sp.latest(t); boardOf(s) != boardOf(afterA1) || *s.Turn != 0 || !slices.Equal(s.Moves, firstTwo) {
		t.Fatalf("after the two-ply takeback: %+v", s)
	}

	// Declined; then a has not moved since it asked.
	move(t, r, a, "c3")
	afterC1 := move(t, r, b, "c1")
	mustAnswer(t, r, a, ask, "", "")
	mustAnswer(t, r, b, decline, "", "")
	if s := sp.latest(t); s.Takeback != nil || boardOf(s) != boardOf(afterC1) || *s.Turn != 0 {
		t.Fatalf("after the decline: %+v", s)
	}
	mustAnswer(t, r, a, ask, string(protocol.CodeBadRequest), "play a move before asking again")

	// Withdrawn by the asker.
	mustAnswer(t, r, b, ask, "", "")
	mustAnswer(t, r, b, decline, "", "")
	if s := sp.latest(t); s.Takeback != nil || boardOf(s) != boardOf(afterC1) {
		t.Fatalf("after the withdrawal: %+v", s)
	}

	// Lapsed: b moves instead of answering.
	move(t, r, a, "b1")
	mustAnswer(t, r, a, ask, "", "")
	if s := move(t, r, b, "b3"); s.Takeback != nil || s.Status != StatusPlaying {
		t.Fatalf("the request stands after b moved: %+v", s)
	}

	r.Resign(b, nil)
	mustAnswer(t, r, a, ask, string(protocol.CodeGameOver), "over")
}

// TestTakebackOfABot: a bot grants a takeback at once in a game without a
// clock, and refuses it in a game with one.
func TestTakebackOfABot(t *testing.T) {
	st := memstore.New()
	m := clockManager(t, st, nil)
	for _, clocked := range []bool{false, true} {
		a := newMember(1, "a")
		spec := Spec{Game: "race5", Variant: "5", Seats: []players.Player{{ID: "a"}, {Bot: "one"}}, Join: []JoinAs{{M: a, As: RolePlayer}}}
		if clocked {
			spec.Clock = &protocol.TimeControl{Base: 60}
		}
		r, err := m.Create(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		r.Move(a, "2", nil)
		a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
		if clocked {
			mustAnswer(t, r, a, r.AskTakeback, string(protocol.CodeBadRequest), "the bot does not grant takebacks in a game with a clock")
			continue
		}
		mustAnswer(t, r, a, r.AskTakeback, "", "")
		if s := a.latest(t); raceTotal(s) != 0 || *s.Turn != 0 || len(s.Moves) != 0 || s.LastMove != nil || s.Takeback != nil {
			t.Fatalf("after the bot granted the takeback: %+v", s)
		}
		if e := lastLogEntry(t, st, r.ID()); e.Kind != "takeback" || e.Plies != 2 || e.By != "bot" {
			t.Fatalf("log entry %+v", e)
		}
		// No cooldown against a bot: the game can be taken back again.
		move(t, r, a, "1")
		a.waitState(t, func(s protocol.RoomState) bool { return raceTotal(s) == 2 })
		mustAnswer(t, r, a, r.AskTakeback, "", "")
	}
}

// TestTakebackRestoresTheClocks: a takeback sets each seat's clock to what
// it was when the position it goes back to was reached, and the asker's
// clock runs from the takeback.
func TestTakebackRestoresTheClocks(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now)
	r, a, b := clockedRoom(t, m, 10, 2)
	firstMoves(t, r, a, b)
	now.Advance(3 * time.Second)
	move(t, r, a, "1")
	now.Advance(4 * time.Second)
	if c := clocksOf(t, move(t, r, b, "1")); c != [2]int64{9000, 8000} {
		t.Fatalf("before the takeback: %v", c)
	}
	now.Advance(5 * time.Second)
	mustAnswer(t, r, a, r.AskTakeback, "", "")
	now.Advance(6 * time.Second) // b thinks it over: a's time runs, then comes back
	mustAnswer(t, r, b, r.AcceptTakeback, "", "")
	got := a.latest(t)
	if c := clocksOf(t, got); c != [2]int64{10000, 10000} || raceTotal(got) != 2 || *got.Turn != 0 {
		t.Fatalf("after the takeback: clocks %v total %d turn %d", c, raceTotal(got), *got.Turn)
	}
	if s := storedSnapshot(t, st, r.ID()); !slices.Equal(s.ClockMs, []int64{10000, 10000}) {
		t.Fatalf("stored clock times %v", s.ClockMs)
	}
	now.Advance(time.Second)
	if c := clocksOf(t, move(t, r, a, "1")); c != [2]int64{11000, 10000} {
		t.Fatalf("a's move a second after the takeback: %v, want [11000 10000]", c)
	}

	// The restored room shows the same.
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, back := restoreAndJoin(t, st, clockManager(t, st, now.Now), r.ID(), newMember(5, "b"))
	if c := clocksOf(t, back); c != [2]int64{11000, 10000} || raceTotal(back) != 3 || len(back.Moves) != 3 {
		t.Fatalf("restored: clocks %v total %d moves %v", c, raceTotal(back), back.Moves)
	}
}

// TestTakebackSurvivesARestore: after a takeback the store holds the
// shortened game: a restored room shows the position the players saw.
func TestTakebackSurvivesARestore(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	r, a, b := morrisPair(t, m)
	move(t, r, a, "b2")
	move(t, r, b, "a1")
	move(t, r, a, "c3")
	move(t, r, b, "c1")
	mustAnswer(t, r, b, r.AskTakeback, "", "")
	mustAnswer(t, r, a, r.AcceptTakeback, "", "")
	seen := a.latest(t)
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, back := restoreAndJoin(t, st, drawManager(t, st, nil), r.ID(), newMember(5, "b"))
	if boardOf(back) != boardOf(seen) || *back.Turn != 1 || !slices.Equal(back.Moves, seen.Moves) || !slices.Equal(back.Legal, seen.Legal) ||
		*back.LastMove != *seen.LastMove || back.Seq != seen.Seq { // b's joining is presence, no change
		t.Fatalf("restored\n%+v\nseen\n%+v", back, seen)
	}
}

// TestTakebackWhoseSaveFailsChangesNothing: a takeback whose save is
// lost is taken back whole (position, history, request), and goes through
// when accepted again.
func TestTakebackWhoseSaveFailsChangesNothing(t *testing.T) {
	st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
	m, _ := startManager(t, Config{Store: st, Catalog: engine.NewCatalog(race5Game{}, morris.Game())}, 1)
	r, a, b := morrisPair(t, m)
	move(t, r, a, "b2")
	move(t, r, b, "a1")
	move(t, r, a, "c3")
	mustAnswer(t, r, a, r.AskTakeback, "", "")
	asked := a.latest(t)
	st.mode <- "lost"
	mustAnswer(t, r, b, r.AcceptTakeback, string(protocol.CodeInternal), "could not save")
	sp := newMember(3, "sp")
	r.Join(sp, RoleSpectator, nil)
	settle(r)
	now := sp.latest(t)
	if boardOf(now) != boardOf(asked) || len(now.Moves) != 3 || now.Takeback == nil || *now.Turn != 1 {
		t.Fatalf("after the failed save: %+v", now)
	}
	mustAnswer(t, r, b, r.AcceptTakeback, "", "")
	if s := sp.latest(t); len(s.Moves) != 2 || *s.Turn != 0 {
		t.Fatalf("after the second accept: %+v", s)
	}
	move(t, r, a, "c1")
	if s := storedSnapshot(t, st, r.ID()); !slices.Equal(s.MoveLog, []string{"0:b2", "1:a1", "0:c1"}) {
		t.Fatalf("stored moves %v", s.MoveLog)
	}
}

// TestBotAnswersADrawOffer: a bot accepts a draw offer when the analyser
// proves the position a draw or a loss for it, and declines when it wins
// (morris against perfeito, which plays the solved game; the human offers
// on its own turn). The test checks each answer against its own reading
// of the analyser on the position the room reached.
func TestBotAnswersADrawOffer(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	g := morris.Game()
	for _, tc := range []struct {
		name, setup string
		moves       []string // the human's moves; the bot replies to each
		accept      bool
	}{
		{"a drawn game", "", []string{"a1"}, true},
		{"a game the bot wins", "", []string{"a1", "a2", "b2"}, false},
		{"a game the bot loses", `{"board":[[0,0,0],[1,0,0],[-1,-1,1]],"toMove":"X"}`, []string{"c1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newMember(1, "a")
			r, err := m.Create(context.Background(), Spec{Game: "morris", Variant: "3", Setup: json.RawMessage(tc.setup),
				Seats: []players.Player{{ID: "a", Name: "a"}, {Bot: "perfeito", Name: "bot"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
			if err != nil {
				t.Fatal(err)
			}
			seen := a.waitState(t, func(protocol.RoomState) bool { return true })
			for _, mv := range tc.moves {
				r.Move(a, mv, nil)
				prev := seen.Seq
				seen = a.waitState(t, func(s protocol.RoomState) bool { return s.Seq > prev && s.LastMove != nil && s.LastMove.Seat == 1 })
			}
			if seen.Status != StatusPlaying || *seen.Turn != 0 {
				t.Fatalf("before the offer: %+v", seen)
			}
			// The test's own reading: replay the room's moves.
			var played []protocol.LastMove
			for _, e := range storedSnapshot(t, st, r.ID()).MoveLog {
				seat, mv, _ := strings.Cut(e, ":")
				played = append(played, protocol.LastMove{Seat: int(seat[0] - '0'), Move: mv})
			}
			pos, err := g.New("3", json.RawMessage(tc.setup), 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, mv := range played {
				if err := pos.Apply(mv.Seat, mv.Move); err != nil {
					t.Fatal(err)
				}
			}
			an, err := g.(engine.Analyser).Analyse(pos, 0, engine.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if want := an.Outlook != engine.OutlookLoss; want != tc.accept {
				t.Fatalf("after %v the analyser gives the human %s: the case expects accept=%v", played, an.Outlook, tc.accept)
			}
			mustAnswer(t, r, a, r.OfferDraw, "", "")
			got := a.waitState(t, func(s protocol.RoomState) bool { return s.Seq > seen.Seq+1 })
			if tc.accept {
				if got.Status != StatusFinished || got.Result.Reason != ReasonAgreement || got.Result.Winner != nil {
					t.Fatalf("after %v the bot did not accept: %+v", played, got)
				}
				if e := lastLogEntry(t, st, r.ID()); e.Kind != "draw_accept" || e.By != "bot" || *e.Seat != 1 {
					t.Fatalf("log entry %+v", e)
				}
				return
			}
			if got.Status != StatusPlaying || got.DrawOffer != nil {
				t.Fatalf("after %v the bot did not decline: %+v", played, got)
			}
			if e := lastLogEntry(t, st, r.ID()); e.Kind != "draw_decline" || e.By != "bot" {
				t.Fatalf("log entry %+v", e)
			}
		})
	}
}

// TestBotAnswersADrawOfferAfterARestore: an offer to a bot that stood when
// the room was saved (the server died before the bot answered) is answered
// by the restored room.
func TestBotAnswersADrawOfferAfterARestore(t *testing.T) {
	st := memstore.New()
	m := drawManager(t, st, nil)
	a := newMember(1, "a")
	r, err := m.Create(context.Background(), Spec{Game: "morris", Variant: "3",
		Seats: []players.Player{{ID: "a", Name: "a"}, {Bot: "perfeito", Name: "bot"}}, Join: []JoinAs{{M: a, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Move(a, "a1", nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.LastMove.Seat == 1 })
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The offer as the room saved it, the bot's answer not yet saved.
	saved, cur := storedRoom(t, st, r.ID())
	var snap map[string]any
	if err := json.Unmarshal(cur, &snap); err != nil {
		t.Fatal(err)
	}
	snap["seq"], snap["offers"] = saved.Seq+1, map[string]any{"draw": 0, "drawAt": []int{1}}
	b, _ := json.Marshal(snap)
	if err := st.SaveRoom(context.Background(), store.Room{ID: r.ID(), Seq: saved.Seq + 1, Snapshot: b, Players: []string{"a"}, UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// The bot answers as the restored room starts, and a finished room
	// with nobody in it closes: a2 is in the room before it starts.
	a2 := newMember(5, "a")
	if _, err := drawManager(t, st, nil).restore(store.Room{Snapshot: b, Seq: -1}, 0, []JoinAs{{M: a2, As: RolePlayer}}); err != nil {
		t.Fatal(err)
	}
	fin := a2.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result.Reason != ReasonAgreement {
		t.Fatalf("%+v", fin.Result)
	}
}
