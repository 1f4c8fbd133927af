package rooms

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestBotNotes: a bot account's info rides with its moves (a person's is
// dropped), an illegal move it answers is kept as a fault with the error
// and its time, its bot_error resignation ends the game for the other seat
// with what failed; all of it survives a restore from a snapshot and the
// log-only moves after it, and reaches the record.
func TestBotNotes(t *testing.T) {
	now := fakeclock.New()
	st := memstore.New()
	m := clockManager(t, st, now.Now)
	bot, ana := newMember(1, "bot.aluno"), newMember(2, "ana")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5",
		Seats: []players.Player{players.Of("bot.aluno", "aluno:normal"), players.Of("ana", "ana")},
		Join:  []JoinAs{{M: bot, As: RolePlayer}, {M: ana, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	ana.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	settle(r) // the room goroutine has started the move times
	var seq int64
	played := func(mem *fakeMember, move, info string, think time.Duration) {
		t.Helper()
		now.Advance(think)
		r.MoveInfo(mem, move, info, nil)
		seq = ana.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.Seq > seq }).Seq
	}
	long := strings.Repeat("é", MaxInfoBytes) // two bytes each: cut to MaxInfoBytes
	played(bot, "1", "profundidade 1\nolá\u202e", 120*time.Millisecond)
	played(ana, "1", "a person's info is not kept", 50*time.Millisecond)
	// Both moves were saved as log entries alone: a restore replays them,
	// info included.
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil || len(saved.Tail) != 2 {
		t.Fatalf("saved %d log entries after the snapshot (%v), want the 2 moves", len(saved.Tail), err)
	}
	snap, err := m.SnapshotOf(saved)
	if err != nil {
		t.Fatal(err)
	}
	if early, err := RecordOf(snap); err != nil || len(early.Moves) != 2 || early.Moves[0].Info != "profundidade 1olá" || early.Moves[1].Info != "" {
		t.Fatalf("the record after a replay of the log: %+v, %v", early, err)
	}
	now.Advance(30 * time.Millisecond)
	r.MoveInfo(bot, "3", "pensei muito", nil)
	bot.waitErr(t, string(protocol.CodeIllegalMove))
	played(bot, "1", long, 10*time.Millisecond)

	// A restart: the snapshot of the game's start and the moves saved after it.
	m2 := clockManager(t, st, now.Now)
	bot2, ana2 := newMember(3, "bot.aluno"), newMember(4, "ana")
	r2, _ := restoreAndJoin(t, st, m2, r.ID(), bot2)
	r2.Join(ana2, RolePlayer, nil)
	ana2.waitState(t, func(protocol.RoomState) bool { return true })
	now.Advance(2 * time.Second)
	r2.ResignBotError(ana2, "a person cannot", nil)
	ana2.waitErr(t, string(protocol.CodeBadRequest))
	r2.ResignBotError(bot2, "Traceback (most recent call last): ZeroDivisionError: division by zero", nil)
	fin := ana2.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	if fin.Result == nil || fin.Result.Reason != ReasonBotError || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("result %+v, want bot_error won by seat 1", fin.Result)
	}
	saved, err = st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordOf(saved.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := []string{"profundidade 1olá", "", strings.Repeat("é", MaxInfoBytes/2)}
	if len(rec.Moves) != 3 {
		t.Fatalf("moves %+v", rec.Moves)
	}
	for i, w := range wantInfo {
		if rec.Moves[i].Info != w {
			t.Errorf("move %d info %q, want %q", i+1, rec.Moves[i].Info, w)
		}
	}
	if rec.Moves[0].Ms != 120 || rec.Moves[2].Ms != 40 {
		t.Errorf("times %+v: the bot's move took its 30 ms refused and 10 ms more", rec.Moves)
	}
	want := []records.Fault{
		{Ply: 2, Seat: 0, Move: "3", Code: "illegal_move", Message: `bad move "3"`, Info: "pensei muito", Ms: 30},
		{Ply: 3, Seat: 0, Code: ReasonBotError, Info: "Traceback (most recent call last): ZeroDivisionError: division by zero", Ms: 2000},
	}
	if !jsonEqual(rec.Faults, want) {
		t.Errorf("faults %+v\nwant %+v", rec.Faults, want)
	}
	if _, err := records.Encode(rec); err != nil {
		t.Fatalf("the record does not encode: %v", err)
	}
}

// TestBotNotesFollowTakebacks: a takeback takes the info of the plies it
// takes back, and a later move's info stands where it was played.
func TestBotNotesFollowTakebacks(t *testing.T) {
	n := botNotes{}
	n.noteMove(2, "b")
	n.noteMove(3, "c")
	if got := n.after(1); len(got) != 2 || got[0] != "b" || got[1] != "c" {
		t.Fatalf("after(1) = %q", got)
	}
	n.cut(2)
	n.noteMove(3, "")
	n.noteMove(4, "d")
	if strings.Join(n.info, ",") != ",b,,d" {
		t.Fatalf("info %q", n.info)
	}
	for i := range MaxFaults + 3 {
		n.fault(faultSnap{Ply: i, Code: "illegal_move"})
	}
	if len(n.faults) != MaxFaults || n.faults[0].Ply != 3 || n.faults[MaxFaults-1].Ply != MaxFaults+2 {
		t.Fatalf("faults kept: %d, from ply %d", len(n.faults), n.faults[0].Ply)
	}
}
