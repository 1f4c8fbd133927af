package rooms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/testkit/codectest"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// metaCase builds a snapshotMeta and a logEntry from a handful of values,
// covering each field's empty, nil and set forms.
type metaCase struct {
	id, name, bot, move, next, reason string
	seq, created, turnStart           int64
	offsetMin, year                   int // year: a calendar year for created instead of the Unix time
	winner                            int
	flags                             uint8 // 1 result, 2 winner, 4 clock, 8 last move, 16 rematch, 32 seats, 64 nil seat moves, 128 seat
}

func (c metaCase) build() (snapshotMeta, logEntry) {
	loc := time.FixedZone("z", c.offsetMin*60)
	created := time.Unix(0, c.created).In(loc)
	if c.year != 0 {
		created = time.Date(c.year, 1, 2, 3, 4, 5, int(c.created%1e9), loc)
	}
	m := snapshotMeta{V: 1, ID: c.id, Game: "go", Variant: c.name, Status: c.reason, Seq: c.seq,
		Created: created, Updated: created.Add(time.Duration(c.seq)), Private: c.seq%2 == 0,
		Watch: c.seq%3 == 0, Seed: uint64(c.created), Moves: c.seq / 2, SeatMoves: []int64{c.seq, -c.seq}, Next: c.next}
	if c.flags&1 != 0 {
		m.Result = &protocol.Result{Reason: c.reason}
		if c.flags&2 != 0 {
			w := c.winner
			m.Result.Winner = &w
		}
	}
	if c.flags&4 != 0 {
		m.Clock = &clockSnap{BaseMs: c.seq, IncMs: c.turnStart % 1000, Running: c.winner, TurnStartMs: c.turnStart}
		if c.seq%2 == 0 {
			m.Clock.LeftMs = []int64{c.seq, c.turnStart}
		}
	}
	if c.flags&8 != 0 {
		m.LastMove = &protocol.LastMove{Seat: c.winner, Move: c.move}
	}
	if c.flags&16 != 0 {
		m.Rematch = []int{c.winner, int(c.seq % 7)}
	}
	if c.flags&32 != 0 {
		m.Seats = seatList{players.Of(c.id, c.name), {Bot: c.bot}, {}}
	}
	if c.flags&64 != 0 {
		m.SeatMoves = nil
	}
	if c.seq%5 != 0 {
		m.Started = created.Add(time.Duration(c.turnStart))
	}
	if c.flags&1 != 0 && c.seq%2 != 0 {
		m.Ended = created.Add(time.Duration(c.seq) * time.Millisecond)
	}
	e := logEntry{Seq: c.seq, Prev: c.seq - 1, Kind: c.reason, Move: c.move, By: c.bot, Player: c.id, At: created}
	if c.flags&128 != 0 {
		s := c.winner
		e.Seat = &s
	}
	return m, e
}

// checkAgainstEncodingJSON fails t unless marshal writes what encoding/json
// writes (or fails where it fails).
func checkAgainstEncodingJSON(t *testing.T, c metaCase) {
	t.Helper()
	m, e := c.build()
	checkEncoders(t, fmt.Sprintf("%+v", c), m, e)
}

// checkEncoders fails t unless m and e are written as encoding/json writes
// them (or refused where it refuses them).
func checkEncoders(t *testing.T, label string, m snapshotMeta, e logEntry) {
	t.Helper()
	for _, tc := range []struct {
		what string
		got  func() ([]byte, error)
		v    any
	}{
		{"snapshotMeta", m.marshal, &m},
		{"logEntry", e.marshal, &e},
	} {
		got, gotErr := tc.got()
		want, wantErr := json.Marshal(tc.v)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("%s %s: error %v, encoding/json's %v", tc.what, label, gotErr, wantErr)
		}
		if gotErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%s %s:\n got %s\nwant %s", tc.what, label, got, want)
		}
	}
}

func TestSnapshotMetaJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    metaCase
	}{
		{"empty", metaCase{}},
		{"every field", metaCase{id: "p1", name: "19", bot: "forte", move: "D4", next: "r2", reason: "resign",
			seq: 42, created: 1_763_900_000_123_456_789, turnStart: 1_763_900_001_000, offsetMin: 90, winner: 1, flags: 255}},
		{"nil seat moves, no clock", metaCase{seq: 7, created: 1, flags: 64 | 32 | 8}},
		{"escapes", metaCase{id: "a\"b\\c", name: "<&>", bot: "é\u2028", move: "\x00\n", next: "x\ty", reason: "ok", flags: 255}},
		{"negative zone, old date", metaCase{created: -1_000_000_000_000_000_000, offsetMin: -330, flags: 1 | 4}},
		{"latest Unix nanosecond", metaCase{created: 1<<63 - 1, flags: 1}},
		{"year past 9999 is refused by both", metaCase{year: 10000, flags: 1}},
		{"year before 0 is refused by both", metaCase{year: -1, created: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkAgainstEncodingJSON(t, tc.c) })
	}
}

func FuzzSnapshotMetaJSON(f *testing.F) {
	f.Add("p1", "9", "facil", "pass", "", "move", int64(3), int64(1_763_900_000_000_000_000), int64(0), 0, 0, 0, uint8(255))
	f.Add("\"", "<", ">", "&", "\u2029", "\xff", int64(-1), int64(-1), int64(-5), 59, 10000, -1, uint8(0))
	f.Fuzz(func(t *testing.T, id, name, bot, move, next, reason string, seq, created, turnStart int64, offsetMin, year, winner int, flags uint8) {
		checkAgainstEncodingJSON(t, metaCase{id: id, name: name, bot: bot, move: move, next: next, reason: reason,
			seq: seq, created: created, turnStart: turnStart, offsetMin: offsetMin % (24 * 60), year: year, winner: winner, flags: flags})
	})
}

// TestHandEncodersWriteEveryField: every field of the structs written by
// hand (snapshotMeta and the seats, clockSnap, Result and LastMove in
// it, logEntry), each set by reflection, is written as encoding/json
// writes it. A field added to one of them without its line in
// snapshotjson.go fails here, whatever the cases above set.
func TestHandEncodersWriteEveryField(t *testing.T) {
	var m snapshotMeta
	codectest.Fill(&m)
	var e logEntry
	codectest.Fill(&e)
	checkEncoders(t, "with every field set", m, e)
}

// TestSnapshotRoundTripsEveryField: a snapshot whose every field is set
// (by reflection) restores to a room that writes the same snapshot back,
// but for what a restore resets on purpose (the clock's running turn, see
// restoredClock) and the save time. A field added to snapshotMeta without
// its line in Room.snapshot or Room.fromSnapshot fails here; a field added
// to snapshotV1 must be added to this test's list, and to Room.snapshot.
func TestSnapshotRoundTripsEveryField(t *testing.T) {
	if got, want := codectest.Fields(snapshotV1{}), append(codectest.Fields(snapshotMeta{}), "Setup", "MoveLog", "MoveMs", "Chat", "ClockMs", "Offers", "ChatState", "Options", "Scoring", "MoveInfo", "Faults", "Engine"); !slices.Equal(got, want) {
		t.Fatalf("snapshotV1 has fields %v, Room.snapshot writes %v", got, want)
	}
	var want snapshotMeta
	codectest.Fill(&want)
	// What a restore checks or takes from elsewhere: a version, a game of
	// the catalog, a clock of two seats.
	want.V, want.Game = 1, race5Game{}.Info().ID
	want.Seats = seatList{players.Of(want.Seats[0].ID, want.Seats[0].Name), {Bot: "one"}}
	want.SeatMoves = []int64{3, 4}
	want.Clock.LeftMs = []int64{1000, 2000}
	want.Clock.Running, want.Clock.TurnStartMs = -1, 0 // a restored clock runs nobody's turn
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{})})
	r := m.newRoom(race5Game{}, &race5{Win: -1})
	seat := 1
	chat := []protocol.ChatLine{{From: "ana", Seat: &seat, Role: ChatRolePlayer, By: "p", Text: "olá", At: 5}}
	chatState := &chatSnap{Mutes: map[string][]string{"a": {"b", "c"}}, Off: []int{1}}
	draw := 1
	offers := &offersSnap{Draw: &draw, Takeback: &protocol.TakebackAsk{Seat: 0, Plies: 2}, DrawAt: []int64{-1, 3}, TakebackAt: []int64{2}}
	options := &optionsSnap{Komi: 6.5, Handicap: 4, Removal: true}
	scoring := &scoringSnap{Proposed: true, Proposal: []string{"B5", "C5"}} // Dead is the engine's: race5 has none
	faults := []faultSnap{{Ply: 1, Seat: 1, Move: "9", Code: "illegal_move", Message: "no", Info: "d3", Ms: 7}}
	if err := r.fromSnapshot(snapshotV1{snapshotMeta: want, Setup: json.RawMessage(`{"x":1}`), MoveLog: []string{"0:1", "1:2"},
		MoveMs: []int64{10, 20}, Chat: chat, ClockMs: []int64{900, 1800}, Offers: offers,
		ChatState: chatState, Options: options, Scoring: scoring, MoveInfo: []string{"", "depth 3"}, Faults: faults}); err != nil {
		t.Fatal(err)
	}
	snap, err := r.snapshot(want.Updated)
	if err != nil {
		t.Fatal(err)
	}
	var got snapshotV1
	if err := json.Unmarshal(snap, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.snapshotMeta, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got.snapshotMeta, want)
	}
	if !slices.Equal(got.MoveLog, []string{"0:1", "1:2"}) {
		t.Errorf("move log %v", got.MoveLog)
	}
	if string(got.Setup) != `{"x":1}` || !slices.Equal(got.MoveMs, []int64{10, 20}) || !reflect.DeepEqual(got.Chat, chat) {
		t.Errorf("record fields: setup %s, move times %v, chat %+v", got.Setup, got.MoveMs, got.Chat)
	}
	if !slices.Equal(got.ClockMs, []int64{900, 1800}) || !reflect.DeepEqual(got.Offers, offers) {
		t.Errorf("rules fields: clock times %v, offers %+v", got.ClockMs, got.Offers)
	}
	if !reflect.DeepEqual(got.ChatState, chatState) {
		t.Errorf("chat state %+v, want %+v", got.ChatState, chatState)
	}
	if !reflect.DeepEqual(got.Options, options) || !reflect.DeepEqual(got.Scoring, scoring) {
		t.Errorf("options %+v, scoring %+v; want %+v, %+v", got.Options, got.Scoring, options, scoring)
	}
	if !slices.Equal(got.MoveInfo, []string{"", "depth 3"}) || !reflect.DeepEqual(got.Faults, faults) {
		t.Errorf("notes: info %q, faults %+v", got.MoveInfo, got.Faults)
	}
}

// TestSnapshotSeatsBefore: a snapshot written before the one player type
// names a seat's player "playerId"; it is read as the seat's id.
func TestSnapshotSeatsBefore(t *testing.T) {
	var l seatList
	if err := json.Unmarshal([]byte(`[{"playerId":"pana","name":"ana"},{"playerId":"bot.xyz","name":"robo"},{"bot":"one","name":"bot"},{}]`), &l); err != nil {
		t.Fatal(err)
	}
	want := seatList{players.Of("pana", "ana"), players.Of("bot.xyz", "robo"), {Bot: "one", Name: "bot"}, {}}
	if !reflect.DeepEqual(l, want) || !l[1].BotAccount {
		t.Fatalf("seats %+v, want %+v", l, want)
	}
}
