package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/gorilla/websocket"
)

// FeaturePatch is the hello feature that opts a connection into room.patch
// frames (docs/protocol.md, "Compact updates").
const FeaturePatch = "patch"

// TypeRoomPatch is the compact update sent instead of room.state to a
// connection that opted in (an addition to the core contract).
const TypeRoomPatch = "room.patch"

// Patcher turns consecutive room states of one room into room.patch frames.
// It remembers the last state it diffed against; it is owned by the room's
// goroutine and is not safe for concurrent use.
type Patcher struct {
	have   bool
	seq    int64
	fields map[string]json.RawMessage // the last state, one encoded value per top-level key
	board  []string                   // the last board, when it is a list of ASCII rows
}

// Seq is the seq of the state the next patch applies to (0 before the
// first Diff).
func (p *Patcher) Seq() int64 { return p.seq }

// errNoPatch says that the change cannot be written as a patch (a field or
// a nested key disappeared); the receivers need the full room.state.
var errNoPatch = errors.New("change needs a full room.state")

// Diff encodes the room.patch that turns the last state into cur, leaving
// out "legal" and "legalBySeat" (see WithLegal), and remembers cur. ok is
// false when there is no earlier state or the change cannot be expressed as
// a patch: the caller then sends the full room.state.
func (p *Patcher) Diff(cur *RoomState) (patch []byte, ok bool, err error) {
	fields, board, err := stateFields(cur)
	if err != nil {
		return nil, false, err
	}
	prev, prevBoard, had, base := p.fields, p.board, p.have, p.seq
	p.fields, p.board, p.have, p.seq = fields, board, true, cur.Seq
	if !had {
		return nil, false, nil
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"room.patch","room":`)
	writeJSONString(&b, cur.Room)
	if base != cur.Seq-1 {
		b.WriteString(`,"base":`)
		b.WriteString(strconv.FormatInt(base, 10))
	}
	b.WriteString(`,"seq":`)
	b.WriteString(strconv.FormatInt(cur.Seq, 10))
	for k := range prev {
		if _, ok := fields[k]; !ok {
			return nil, false, nil // a field disappeared
		}
	}
	for _, k := range sortedKeys(fields) {
		if k == "type" || k == "room" || k == "seq" {
			continue
		}
		v := fields[k]
		old, had := prev[k]
		if had && bytes.Equal(old, v) {
			continue
		}
		if k == "board" && board != nil && prevBoard != nil {
			if cells, ok := diffCells(prevBoard, board); ok {
				b.WriteString(`,"cells":`)
				b.Write(cells)
				continue
			}
		}
		if had {
			merged, err := mergeObject(old, v)
			if errors.Is(err, errNoPatch) {
				return nil, false, nil
			}
			if err == nil {
				v = merged
			}
		}
		b.WriteByte(',')
		writeJSONString(&b, k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), true, nil
}

// WithField returns a copy of the patch with one more top-level field: the
// frame of a seat adds "legal" (its moves, [] when it is not its turn) to
// the patch every spectator gets.
func WithField(patch []byte, key string, v any) ([]byte, error) {
	l, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", key, err)
	}
	out := make([]byte, 0, len(patch)+len(key)+len(l)+4)
	out = append(out, patch[:len(patch)-1]...)
	out = append(out, ',', '"')
	out = append(out, key...)
	out = append(out, '"', ':')
	out = append(out, l...)
	return append(out, '}'), nil
}

// RawFrame wraps an already-encoded JSON message as a prepared text frame.
func RawFrame(b []byte) (*Frame, error) {
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, b)
	if err != nil {
		return nil, fmt.Errorf("prepare frame: %w", err)
	}
	return &Frame{Data: b, pm: pm}, nil
}

// stateFields encodes cur once and splits it into its top-level values,
// leaving out the per-seat legal moves.
func stateFields(cur *RoomState) (map[string]json.RawMessage, []string, error) {
	c := *cur
	c.Legal, c.LegalBy = nil, nil
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, nil, fmt.Errorf("encode room.state: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, nil, fmt.Errorf("split room.state: %w", err)
	}
	delete(fields, "legal")
	var board []string
	if rows, ok := cur.Board.([]string); ok && asciiRows(rows) {
		board = slices.Clone(rows)
	}
	return fields, board, nil
}

func asciiRows(rows []string) bool {
	for _, r := range rows {
		for i := 0; i < len(r); i++ {
			if r[i] >= 0x80 || r[i] == '"' || r[i] == '\\' || r[i] < 0x20 {
				return false
			}
		}
	}
	return true
}

// diffCells lists the changed cells as [row, column, "c"]; false when the
// shapes differ or most of the board changed (the whole board is shorter).
func diffCells(prev, cur []string) ([]byte, bool) {
	if len(prev) != len(cur) {
		return nil, false
	}
	var b bytes.Buffer
	b.WriteByte('[')
	n, total := 0, 0
	for r := range cur {
		if len(prev[r]) != len(cur[r]) {
			return nil, false
		}
		total += len(cur[r])
		for c := 0; c < len(cur[r]); c++ {
			if prev[r][c] == cur[r][c] {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			fmt.Fprintf(&b, `[%d,%d,"%c"]`, r, c, cur[r][c])
		}
	}
	b.WriteByte(']')
	if n == 0 || n*2 > total {
		return nil, false
	}
	return b.Bytes(), true
}

// mergeObject returns the keys of cur whose values differ from old when
// both are objects with the same keys; errNoPatch when both are objects
// and a key disappeared; any other error means "send cur whole".
func mergeObject(old, cur json.RawMessage) (json.RawMessage, error) {
	if len(old) == 0 || old[0] != '{' || len(cur) == 0 || cur[0] != '{' {
		return nil, errors.New("not two objects")
	}
	var o, c map[string]json.RawMessage
	if err := json.Unmarshal(old, &o); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(cur, &c); err != nil {
		return nil, err
	}
	for k := range o {
		if _, ok := c[k]; !ok {
			return nil, errNoPatch
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, k := range sortedKeys(c) {
		if ov, ok := o[k]; ok && bytes.Equal(ov, c[k]) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		writeJSONString(&b, k)
		b.WriteByte(':')
		b.Write(c[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always encodes
	b.Write(q)
}

// ApplyPatch applies a room.patch to a room.state held as decoded JSON
// (what a client keeps): cells into "board", object values merged one level
// deep into object values, every other field replaced; the state's "seq"
// becomes the patch's. It refuses a patch for another room or whose base is
// not the state's seq (the client then joins the room again for a full
// room.state), and changes nothing then.
func ApplyPatch(state map[string]any, patch []byte) error {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil {
		return fmt.Errorf("room.patch: %w", err)
	}
	var typ, room string
	var seq int64
	if err := json.Unmarshal(p["type"], &typ); err != nil || typ != TypeRoomPatch {
		return fmt.Errorf("room.patch: type is not %q", TypeRoomPatch)
	}
	if err := json.Unmarshal(p["room"], &room); err != nil || room != state["room"] {
		return fmt.Errorf("room.patch: room %q is not the state's", room)
	}
	if err := json.Unmarshal(p["seq"], &seq); err != nil {
		return fmt.Errorf("room.patch: bad seq")
	}
	base := seq - 1
	if raw, ok := p["base"]; ok {
		if err := json.Unmarshal(raw, &base); err != nil {
			return fmt.Errorf("room.patch: bad base")
		}
	}
	have, ok := state["seq"].(float64)
	if !ok || int64(have) != base {
		return fmt.Errorf("room.patch: base %d is not the state's seq %v", base, state["seq"])
	}
	// Check everything before changing anything.
	next := maps.Clone(state)
	for k, raw := range p {
		switch k {
		case "type", "room", "base":
			continue
		case "cells":
			board, err := applyCells(state["board"], raw)
			if err != nil {
				return err
			}
			next["board"] = board
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("room.patch: field %q: %w", k, err)
		}
		if nv, ok := v.(map[string]any); ok {
			if ov, ok := state[k].(map[string]any); ok {
				m := maps.Clone(ov)
				maps.Copy(m, nv)
				v = m
			}
		}
		next[k] = v
	}
	clear(state)
	maps.Copy(state, next)
	return nil
}

func applyCells(board any, raw json.RawMessage) ([]any, error) {
	rows, ok := board.([]any)
	if !ok {
		return nil, errors.New("room.patch: cells for a board that is not a list of rows")
	}
	var cells [][3]json.RawMessage
	if err := json.Unmarshal(raw, &cells); err != nil {
		return nil, fmt.Errorf("room.patch: cells: %w", err)
	}
	out := slices.Clone(rows)
	for _, c := range cells {
		var r, col int
		var ch string
		if json.Unmarshal(c[0], &r) != nil || json.Unmarshal(c[1], &col) != nil || json.Unmarshal(c[2], &ch) != nil ||
			len(ch) != 1 || r < 0 || r >= len(out) {
			return nil, fmt.Errorf("room.patch: bad cell %s", c)
		}
		row, ok := out[r].(string)
		if !ok || col < 0 || col >= len(row) {
			return nil, fmt.Errorf("room.patch: cell %d,%d off the board", r, col)
		}
		out[r] = row[:col] + ch + row[col+1:]
	}
	return out, nil
}
