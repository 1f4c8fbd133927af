package rooms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
)

// The chat a room keeps (in its snapshot, in the room.state that answers a
// join, and for its rematch): the last ChatKeepLines lines, fewer when they
// would take more than ChatKeepBytes as JSON (docs/protocol.md).
const (
	ChatKeepLines = 100
	ChatKeepBytes = 32 << 10
)

// gameRecord is what a room keeps for its game's record besides the move
// history: the setup it was created with, when the game started and ended,
// the time each move took and the chat. It belongs to the room goroutine.
type gameRecord struct {
	setup          json.RawMessage // compact JSON; nil for the initial position
	started, ended time.Time
	// moveMs[i] is how long Room.history[i] took, in milliseconds; msEnc
	// keeps it encoded between saves.
	moveMs []int64
	msEnc  arrayEncoder[int64]
	// clockMs[i], in a game with a clock, is the time the mover of
	// Room.history[i] had left after it (its increment included): what a
	// takeback sets the clocks back to (rules.go). -1 where it is not
	// known (a room saved before these were kept). clockEnc keeps it
	// encoded between saves.
	clockMs  []int64
	clockEnc arrayEncoder[int64]
	// turnBegan is, per seat, since when it could move: the game's start,
	// the last move (its own in 2048 race, anyone's otherwise) or the
	// room's restart (downtime is never counted, as for clocks).
	turnBegan []time.Time
	chat      chatLog
	// notes are the bot accounts' info and faults (botnotes.go).
	notes botNotes
}

// compactSetup is the setup a room keeps: compact JSON, nil for none.
func compactSetup(setup json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(setup)
	if len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// turnsBegin starts every seat's move time at now; the first call of a
// game is its start.
func (r *Room) turnsBegin(now time.Time) {
	if r.status != StatusPlaying {
		return
	}
	if r.rec.started.IsZero() {
		r.rec.started = now
	}
	if len(r.rec.turnBegan) != len(r.seats) {
		r.rec.turnBegan = make([]time.Time, len(r.seats))
	}
	for i := range r.rec.turnBegan {
		r.rec.turnBegan[i] = now
	}
}

// moveTook is how long seat's move at now took, in milliseconds.
func (r *Room) moveTook(seat int, now time.Time) int64 {
	if seat >= len(r.rec.turnBegan) || r.rec.turnBegan[seat].IsZero() {
		return 0
	}
	return max(now.Sub(r.rec.turnBegan[seat]).Milliseconds(), 0)
}

// moveKept starts the move time of the seats that may move after seat's
// move at now: every seat in alternating games, seat itself when both move
// freely.
func (r *Room) moveKept(seat int, now time.Time) {
	if _, ok := r.state.Turn(); ok {
		r.turnsBegin(now)
	} else if seat < len(r.rec.turnBegan) {
		r.rec.turnBegan[seat] = now
	}
}

// chatLog is a room's last chat lines, each with its JSON.
type chatLog struct {
	lines []protocol.ChatLine
	enc   [][]byte
	bytes int // the sum of len(enc[i])
}

// add keeps line, dropping the oldest lines past the limits.
func (c *chatLog) add(line protocol.ChatLine) {
	b, err := json.Marshal(line)
	if err != nil {
		return // strings and numbers: cannot fail
	}
	c.lines, c.enc, c.bytes = append(c.lines, line), append(c.enc, b), c.bytes+len(b)
	drop := 0
	for len(c.lines)-drop > ChatKeepLines || c.bytes > ChatKeepBytes {
		c.bytes -= len(c.enc[drop])
		drop++
	}
	if drop > 0 {
		// Copy down, so that the arrays do not keep the dropped lines.
		c.lines = append(c.lines[:0], c.lines[drop:]...)
		c.enc = append(c.enc[:0], c.enc[drop:]...)
		clear(c.lines[len(c.lines) : len(c.lines)+drop])
		clear(c.enc[len(c.enc) : len(c.enc)+drop])
	}
}

// view is the lines for room.state: [] when there are none.
func (c *chatLog) view() []protocol.ChatLine {
	if len(c.lines) == 0 {
		return []protocol.ChatLine{}
	}
	return c.lines
}

// rotated is the lines for a rematch of a room of seats seats, whose seat
// i becomes seat i+1 (mod seats): each line keeps its writer.
func (c *chatLog) rotated(seats int) []protocol.ChatLine {
	out := make([]protocol.ChatLine, len(c.lines))
	for i, l := range c.lines {
		out[i] = l
		if l.Seat != nil && seats > 0 {
			s := (*l.Seat + 1) % seats
			out[i].Seat = &s
		}
	}
	return out
}

// appendJSON appends the lines as a JSON array.
func (c *chatLog) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, e := range c.enc {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// encodedMoveMs is the JSON array of the move times, nil when there are
// none; valid until the next call.
func (g *gameRecord) encodedMoveMs() []byte {
	if len(g.moveMs) == 0 {
		return nil
	}
	return g.msEnc.encode(g.moveMs, func(b []byte, ms int64) []byte { return strconv.AppendInt(b, ms, 10) })
}

// recordFieldsLen is about what appendRecordFields appends.
func (g *gameRecord) recordFieldsLen(moveMs []byte) int {
	return 32 + len(g.setup) + len(moveMs) + g.chat.bytes + len(g.chat.lines)
}

// appendRecordFields appends the snapshot's record fields (setup, moveMs,
// chat) after its metadata, each only when it has something.
func (r *Room) appendRecordFields(b, moveMs []byte) []byte {
	if len(r.rec.setup) > 0 {
		b = append(b, `,"setup":`...)
		b = append(b, r.rec.setup...)
	}
	if len(moveMs) > 0 {
		b = append(b, `,"moveMs":`...)
		b = append(b, moveMs...)
	}
	if len(r.rec.chat.lines) > 0 {
		b = append(b, `,"chat":`...)
		b = r.rec.chat.appendJSON(b)
	}
	return b
}

// recordFromSnapshot restores the record fields of a snapshot; the move
// history is already restored.
func (r *Room) recordFromSnapshot(s snapshotV1) {
	r.rec.setup, _ = compactSetup(s.Setup) // JSON already: it decoded
	r.rec.started, r.rec.ended = s.Started, s.Ended
	r.rec.moveMs = make([]int64, len(r.history))
	copy(r.rec.moveMs, s.MoveMs) // a snapshot from before move times: zeros
	if r.clock != nil || s.Clock != nil {
		r.rec.clockMs = make([]int64, len(r.history))
		for i := range r.rec.clockMs {
			r.rec.clockMs[i] = -1 // not known: a snapshot from before clock times
			if i < len(s.ClockMs) {
				r.rec.clockMs[i] = s.ClockMs[i]
			}
		}
	}
	for _, l := range s.Chat {
		r.rec.chat.add(l)
	}
}

// RecordOf builds the record of a room's game from the room's snapshot as
// the store keeps it, without running the room. Times are kept to the
// millisecond, in UTC.
func RecordOf(snapshot []byte) (*records.Record, error) {
	var s snapshotV1
	if err := json.Unmarshal(snapshot, &s); err != nil {
		return nil, fmt.Errorf("record of a room snapshot: %w", err)
	}
	history, err := parseMoveLog(s.ID, s.MoveLog, len(s.Seats))
	if err != nil {
		return nil, err
	}
	ms := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return time.UnixMilli(t.UnixMilli()).UTC()
	}
	setup, _ := compactSetup(s.Setup) // JSON already: it decoded
	rec := &records.Record{Room: s.ID, Game: s.Game, Variant: s.Variant, Setup: setup, Seed: s.Seed,
		Status: s.Status, Private: s.Private, Watch: s.Watch, Rated: s.Rated, Created: ms(s.Created), Started: ms(s.Started),
		Ended: ms(s.Ended), Players: s.Seats, Moves: make([]records.Move, len(history))}
	for i, m := range history {
		rec.Moves[i] = records.Move{Seat: m.Seat, Move: m.Move}
		if i < len(s.MoveMs) {
			rec.Moves[i].Ms = max(s.MoveMs[i], 0)
		}
	}
	if o := s.Options; o != nil {
		rec.Komi, rec.Handicap, rec.Removal = o.Komi, o.Handicap, o.Removal
	}
	if sc := s.Scoring; sc != nil && len(sc.Dead) > 0 {
		rec.Dead = sc.Dead
	}
	if c := s.Clock; c != nil {
		rec.Clock = &records.Clock{Base: time.Duration(c.BaseMs) * time.Millisecond, Increment: time.Duration(c.IncMs) * time.Millisecond}
	}
	if res := s.Result; res != nil {
		rec.Result = &records.Result{Winner: -1, Reason: res.Reason}
		if res.Winner != nil {
			rec.Result.Winner = *res.Winner
		}
		if rec.Ended.IsZero() {
			rec.Ended = ms(s.Updated) // a snapshot from before "ended": its last save ended the game
		}
	}
	recordNotes(rec, s)
	for _, l := range s.Chat {
		line := records.ChatLine{From: l.From, Seat: -1, Text: l.Text, At: time.UnixMilli(l.At).UTC()}
		if l.Seat != nil {
			line.Seat = *l.Seat
		}
		rec.Chat = append(rec.Chat, line)
	}
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("record of room %s: %w", s.ID, err)
	}
	return rec, nil
}
