package rooms

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

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
		m.Seats = []seatSnap{{PlayerID: c.id, Name: c.name}, {Bot: c.bot}, {}}
	}
	if c.flags&64 != 0 {
		m.SeatMoves = nil
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
			t.Fatalf("%s %+v: error %v, encoding/json's %v", tc.what, c, gotErr, wantErr)
		}
		if gotErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%s %+v:\n got %s\nwant %s", tc.what, c, got, want)
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
