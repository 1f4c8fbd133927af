package rooms

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestRecordOfARoom: the snapshot keeps what the record needs and RecordOf
// reads it back: the setup as compact JSON, when the game started and
// ended, the exact time each move took by the room's clock (a move whose
// save failed leaves no time behind), the chat, the players, the clock.
func TestRecordOfARoom(t *testing.T) {
	now := fakeclock.New()
	st := &unsureStore{Store: memstore.New(), mode: make(chan string, 1), loadDown: make(chan bool, 1)}
	m := clockManager(t, st, now.Now)
	a, b, c := newMember(1, "a"), newMember(2, "b"), newMember(3, "c")
	r, err := m.Create(context.Background(), Spec{Game: "race5", Variant: "5", Setup: json.RawMessage(" { \"to\" : [ 5 ] } "),
		Clock: &protocol.TimeControl{Base: 60, Increment: 2}, Seed: 77,
		Seats: []players.Player{{ID: "a", Name: "ana"}, {ID: "b", Name: "bia"}},
		Join:  []JoinAs{{M: a, As: RolePlayer}, {M: b, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	start := now.Now()
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusPlaying })
	r.Join(c, RoleSpectator, nil)
	c.waitState(t, func(protocol.RoomState) bool { return true })
	r.Chat(a, "boa sorte", nil)
	r.Chat(c, "olá", nil)
	settle(r)

	moves := []struct {
		who   *fakeMember
		move  string
		think time.Duration
		lost  bool // the save of this move fails: it is refused
	}{
		{a, "2", 812 * time.Millisecond, false},
		{b, "2", 400 * time.Millisecond, true},
		{b, "1", 1100 * time.Millisecond, false},
		{a, "2", 3 * time.Second, false},
	}
	var seq int64
	for _, mv := range moves {
		now.Advance(mv.think)
		if mv.lost {
			st.mode <- "lost"
			r.Move(mv.who, mv.move, nil)
			mv.who.waitErr(t, string(protocol.CodeInternal))
			continue
		}
		r.Move(mv.who, mv.move, nil)
		seq = a.waitState(t, func(s protocol.RoomState) bool { return s.LastMove != nil && s.Seq > seq }).Seq
	}
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	saved, err := st.LoadRoom(context.Background(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordOf(saved.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	ms := func(d time.Duration) time.Time { return time.UnixMilli(start.Add(d).UnixMilli()).UTC() }
	want := &records.Record{Room: r.ID(), Game: "race5", Variant: "5", Setup: json.RawMessage(`{"to":[5]}`), Seed: 77,
		Status:  StatusFinished,
		Players: []players.Player{{ID: "a", Name: "ana"}, {ID: "b", Name: "bia"}},
		Clock:   &records.Clock{Base: time.Minute, Increment: 2 * time.Second},
		// b's lost move took 400 ms of its 1,500: the move it then made
		// took them all.
		Moves:   []records.Move{{Seat: 0, Move: "2", Ms: 812}, {Seat: 1, Move: "1", Ms: 1500}, {Seat: 0, Move: "2", Ms: 3000}},
		Result:  &records.Result{Winner: 0, Reason: "five"},
		Started: ms(0), Ended: ms(812*time.Millisecond + 1500*time.Millisecond + 3*time.Second)}
	if len(rec.Chat) != 2 {
		t.Fatalf("chat %+v", rec.Chat)
	}
	if l := rec.Chat[0]; l.From != "a" || l.Seat != 0 || l.Text != "boa sorte" || l.Role() != "player" {
		t.Errorf("first chat line %+v", l)
	}
	if l := rec.Chat[1]; l.From != "c" || l.Seat != -1 || l.Text != "olá" || l.Role() != "spectator" || l.At.Before(rec.Chat[0].At) {
		t.Errorf("second chat line %+v", l)
	}
	want.Chat, want.Created = rec.Chat, rec.Created
	if rec.Created.IsZero() || rec.Created.Nanosecond()%int(time.Millisecond) != 0 {
		t.Errorf("created %v", rec.Created)
	}
	if got, _ := json.Marshal(rec); !jsonEqual(rec, want) {
		w, _ := json.Marshal(want)
		t.Fatalf("record\n got %s\nwant %s", got, w)
	}
	if _, err := records.Encode(rec); err != nil {
		t.Fatalf("the record does not encode: %v", err)
	}

	// A restored room keeps all of it, and a joiner sees the chat.
	m2 := clockManager(t, memstore.New(), now.Now)
	r2, err := m2.Restore(saved.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	j := newMember(9, "j")
	r2.Join(j, RoleSpectator, nil)
	full := j.waitState(t, func(protocol.RoomState) bool { return true })
	if len(full.Chat) != 2 || full.Chat[1].Text != "olá" || full.Chat[1].Seat != nil || full.Chat[0].Seat == nil {
		t.Fatalf("the joiner's chat %+v", full.Chat)
	}
	done := make(chan []byte, 1)
	r2.post(func() { b, _ := r2.snapshot(r2.now()); done <- b })
	again, err := RecordOf(<-done)
	if err != nil || !jsonEqual(again, rec) {
		t.Fatalf("the restored room's record differs: %v\n%+v\n%+v", err, again, rec)
	}
}

func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// TestChatIsBounded: the room keeps its last ChatKeepLines lines, fewer
// when they pass ChatKeepBytes; the joiner's room.state and the snapshot
// carry the same lines.
func TestChatIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lines     int
		text      func(i int) string
		wantLines int
	}{
		{"short lines: the last 100", 130, func(i int) string { return fmt.Sprintf("line %d", i) }, ChatKeepLines},
		// A line of 500 ASCII characters is about 550 bytes of JSON: as
		// many as fit in 32 KiB (-1), 59.
		{"long lines: 32 KiB", 100, func(i int) string { return fmt.Sprintf("%03d", i) + strings.Repeat("x", 497) }, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The rate limits are chat.go's: here, as good as none.
			m, _ := startManager(t, Config{Store: memstore.New(), Chat: ChatLimits{PlayerLines: 1e9, PlayerBurst: 1e9,
				PlayerBytes: 1e12, PlayerBytesBurst: 1e12, RoomLines: 1e9, RoomBurst: 1e9, RoomBytes: 1e12, RoomBytesBurst: 1e12}}, 2)
			r, a, _ := twoPlayers(t, m)
			for i := range tc.lines {
				r.Chat(a, tc.text(i), nil)
			}
			j := newMember(7, "j")
			r.Join(j, RoleSpectator, nil)
			full := j.waitState(t, func(protocol.RoomState) bool { return true })
			var texts []string
			size := 0
			for _, l := range full.Chat {
				texts = append(texts, l.Text)
				b, _ := json.Marshal(l)
				size += len(b)
			}
			if tc.wantLines < 0 {
				// As many as fit: one more line of the same size would not.
				tc.wantLines = len(full.Chat)
				if size > ChatKeepBytes || size+size/len(full.Chat) <= ChatKeepBytes || len(full.Chat) >= ChatKeepLines {
					t.Fatalf("%d lines of %d bytes kept", len(full.Chat), size)
				}
			}
			if len(full.Chat) != tc.wantLines {
				t.Fatalf("%d lines kept, want %d", len(full.Chat), tc.wantLines)
			}
			if texts[len(texts)-1] != tc.text(tc.lines-1) || texts[0] != tc.text(tc.lines-tc.wantLines) {
				t.Fatalf("kept %q .. %q", texts[0], texts[len(texts)-1])
			}
			if size > ChatKeepBytes {
				t.Fatalf("%d bytes kept", size)
			}
			done := make(chan []byte, 1)
			r.post(func() { b, _ := r.snapshot(r.now()); done <- b })
			var s snapshotV1
			if err := json.Unmarshal(<-done, &s); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range s.Chat {
				got = append(got, l.Text)
			}
			if !slices.Equal(got, texts) {
				t.Fatalf("the snapshot keeps %d other lines", len(got))
			}
		})
	}
}

// TestRematchStartsWithTheChat: the rematch room's joiners get the old
// room's chat, each line's seat following its writer to the swapped seat.
func TestRematchStartsWithTheChat(t *testing.T) {
	m, _ := newManager(t, nil, memstore.New(), time.Second)
	r, a, b := twoPlayers(t, m)
	r.Chat(a, "gg", nil)
	r.Resign(b, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	r.Chat(b, "rematch?", nil)
	r.Rematch(a, nil)
	r.Rematch(b, nil)
	next := a.waitState(t, func(s protocol.RoomState) bool { return s.Next != "" }).Next
	first := b.waitState(t, func(s protocol.RoomState) bool { return s.Room == next && s.Chat != nil })
	if len(first.Chat) != 2 || first.Chat[0].Text != "gg" || first.Chat[1].Text != "rematch?" {
		t.Fatalf("the rematch's chat %+v", first.Chat)
	}
	// a held seat 0 and now holds seat 1, b the other way round.
	if s := first.Chat[0].Seat; s == nil || *s != 1 {
		t.Fatalf("a's line has seat %v in the rematch, want 1", s)
	}
	if s := first.Chat[1].Seat; s == nil || *s != 0 {
		t.Fatalf("b's line has seat %v in the rematch, want 0", s)
	}
}
