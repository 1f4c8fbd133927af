package rooms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// A room saves after every move, so the two small records of a save, the
// snapshot's metadata and the log entry, are written here field by field
// instead of through encoding/json's reflection (a quarter of a save's CPU
// in the 200-room profile, docs/PERFORMANCE.md). The bytes are exactly
// those encoding/json writes for the same values: TestSnapshotMetaJSON and
// FuzzSnapshotMetaJSON compare the two, and TestHandEncodersWriteEveryField
// and TestSnapshotRoundTripsEveryField set every field by reflection, so a
// field added to either struct without its line here (or in Room.snapshot
// and Room.fromSnapshot) fails a test.

// marshal encodes s as encoding/json would.
func (s *snapshotMeta) marshal() ([]byte, error) {
	return s.appendJSON(make([]byte, 0, 256))
}

// appendJSON appends s as encoding/json would encode it to b.
func (s *snapshotMeta) appendJSON(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(s.V), 10)
	b = appendKey(b, "id")
	b = engine.AppendJSONString(b, s.ID)
	b = appendKey(b, "game")
	b = engine.AppendJSONString(b, s.Game)
	b = appendKey(b, "variant")
	b = engine.AppendJSONString(b, s.Variant)
	b = appendKey(b, "seats")
	if s.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, st := range s.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSeat(b, st)
		}
		b = append(b, ']')
	}
	b = appendKey(b, "status")
	b = engine.AppendJSONString(b, s.Status)
	b = appendKey(b, "seq")
	b = strconv.AppendInt(b, s.Seq, 10)
	b = appendKey(b, "result")
	if s.Result == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"winner":`...)
		b = appendIntPtr(b, s.Result.Winner)
		b = appendKey(b, "reason")
		b = engine.AppendJSONString(b, s.Result.Reason)
		b = append(b, '}')
	}
	b = appendKey(b, "lastMove")
	b = appendLastMove(b, s.LastMove)
	var err error
	b = appendKey(b, "created")
	if b, err = appendTime(b, s.Created); err != nil {
		return s.appendMarshaled(b[:start]) // a time encoding/json refuses: its error
	}
	b = appendKey(b, "updated")
	if b, err = appendTime(b, s.Updated); err != nil {
		return s.appendMarshaled(b[:start])
	}
	b = appendKey(b, "private")
	b = strconv.AppendBool(b, s.Private)
	b = appendKey(b, "watch")
	b = strconv.AppendBool(b, s.Watch)
	if s.Rated {
		b = append(b, `,"rated":true`...)
	}
	b = appendKey(b, "clock")
	b = s.Clock.appendJSON(b)
	b = appendKey(b, "seed")
	b = strconv.AppendUint(b, s.Seed, 10)
	b = appendKey(b, "moves")
	b = strconv.AppendInt(b, s.Moves, 10)
	b = appendKey(b, "seatMoves")
	b = appendInt64s(b, s.SeatMoves)
	if len(s.Rematch) > 0 {
		b = appendKey(b, "rematch")
		b = append(b, '[')
		for i, n := range s.Rematch {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, ']')
	}
	if s.Next != "" {
		b = appendKey(b, "next")
		b = engine.AppendJSONString(b, s.Next)
	}
	for _, f := range [...]struct {
		key string
		t   time.Time
	}{{"started", s.Started}, {"ended", s.Ended}} {
		if f.t.IsZero() {
			continue
		}
		b = appendKey(b, f.key)
		if b, err = appendTime(b, f.t); err != nil {
			return s.appendMarshaled(b[:start])
		}
	}
	return append(b, '}'), nil
}

// appendMarshaled appends what encoding/json makes of s, and its error.
func (s *snapshotMeta) appendMarshaled(b []byte) ([]byte, error) {
	j, err := json.Marshal(s)
	return append(b, j...), err
}

// appendSeat appends st as encoding/json writes a players.Player.
func appendSeat(b []byte, st players.Player) []byte {
	b = append(b, '{')
	if st.ID != "" {
		b = append(b, `"id":`...)
		b = engine.AppendJSONString(b, st.ID)
		b = append(b, ',')
	}
	b = append(b, `"name":`...)
	b = engine.AppendJSONString(b, st.Name)
	if st.Bot != "" {
		b = append(b, `,"bot":`...)
		b = engine.AppendJSONString(b, st.Bot)
	}
	if st.BotAccount {
		b = append(b, `,"botAccount":true`...)
	}
	if st.Rating != 0 {
		b = append(b, `,"rating":`...)
		b = strconv.AppendInt(b, int64(st.Rating), 10)
	}
	if st.Provisional {
		b = append(b, `,"provisional":true`...)
	}
	return append(b, '}')
}

// appendJSON appends c as encoding/json would; a nil clock is null.
func (c *clockSnap) appendJSON(b []byte) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"baseMs":`...)
	b = strconv.AppendInt(b, c.BaseMs, 10)
	b = appendKey(b, "incMs")
	b = strconv.AppendInt(b, c.IncMs, 10)
	b = appendKey(b, "leftMs")
	b = appendInt64s(b, c.LeftMs)
	b = appendKey(b, "running")
	b = strconv.AppendInt(b, int64(c.Running), 10)
	if c.TurnStartMs != 0 {
		b = appendKey(b, "turnStartMs")
		b = strconv.AppendInt(b, c.TurnStartMs, 10)
	}
	return append(b, '}')
}

// marshal encodes e as encoding/json would.
func (e *logEntry) marshal() ([]byte, error) {
	b := make([]byte, 0, 96)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	b = appendKey(b, "prev")
	b = strconv.AppendInt(b, e.Prev, 10)
	b = appendKey(b, "kind")
	b = engine.AppendJSONString(b, e.Kind)
	if e.Seat != nil {
		b = appendKey(b, "seat")
		b = strconv.AppendInt(b, int64(*e.Seat), 10)
	}
	for _, f := range [...]struct{ key, val string }{{"move", e.Move}, {"by", e.By}, {"player", e.Player}} {
		if f.val != "" {
			b = appendKey(b, f.key)
			b = engine.AppendJSONString(b, f.val)
		}
	}
	if e.Plies != 0 {
		b = appendKey(b, "plies")
		b = strconv.AppendInt(b, int64(e.Plies), 10)
	}
	if e.Ms != 0 {
		b = appendKey(b, "ms")
		b = strconv.AppendInt(b, e.Ms, 10)
	}
	if e.Left != nil {
		b = appendKey(b, "left")
		b = strconv.AppendInt(b, *e.Left, 10)
	}
	if e.Info != "" {
		b = appendKey(b, "info")
		b = engine.AppendJSONString(b, e.Info)
	}
	b = appendKey(b, "at")
	b, err := appendTime(b, e.At)
	if err != nil {
		// A time encoding/json refuses too (a year outside 0-9999).
		return nil, fmt.Errorf("log entry at %v: %w", e.At, err)
	}
	return append(b, '}'), nil
}

// appendKey appends `,"key":` for a key that needs no escaping.
func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

func appendLastMove(b []byte, m *protocol.LastMove) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(m.Seat), 10)
	b = appendKey(b, "move")
	b = engine.AppendJSONString(b, m.Move)
	return append(b, '}')
}

func appendInt64s(b []byte, ns []int64) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return append(b, ']')
}

// appendTime appends t as time.Time's MarshalJSON writes it (RFC 3339 with
// nanoseconds, quoted); the error is MarshalJSON's for a time it refuses.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	b = append(b, '"')
	b, err := t.AppendText(b)
	if err != nil {
		return b, err
	}
	return append(b, '"'), nil
}
