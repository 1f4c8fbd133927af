package protocol

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
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
	have bool
	prev RoomState
	// prevASCII: prev's board is a list of rows that need no JSON escape
	// (cells can be written for it), found when it was cur.
	prevASCII bool
	// raw holds the encoded values of the fields compared as JSON (score,
	// clocks, a board that is not a list of rows, the extra fields); spare
	// is the map of the Diff before, whose bytes the next Diff writes over
	// (the two take turns, so a Diff allocates no map and, once the
	// values' sizes settle, no bytes for them).
	raw, spare map[string]json.RawMessage
	// rows are prev's board rows when its board is a list of rows (nil
	// otherwise: prev.Board then holds it), players prev's players; like
	// raw, each has a spare, the copy the Diff before made, whose array
	// the next Diff writes over.
	rows, spareRows       []string
	players, sparePlayers []Player
	// keys, cells and scratch are space kept between Diffs.
	keys           []string
	cells, scratch []byte
}

// Seq is the seq of the state the next patch applies to (0 before the
// first Diff).
func (p *Patcher) Seq() int64 { return p.prev.Seq }

// Diff encodes the room.patch that turns the last state into cur, leaving
// out "legal" and "legalBySeat" (see WithField), and remembers cur. ok is
// false when there is no earlier state or the change cannot be expressed as
// a patch (a field or a nested key disappeared): the caller then sends the
// full room.state.
func (p *Patcher) Diff(cur *RoomState) (patch []byte, ok bool, err error) {
	raw, err := rawFields(cur, p.spare)
	if err != nil {
		return nil, false, err
	}
	prev, prevRaw, had, prevASCII := p.prev, p.raw, p.have, p.prevASCII
	prevRows, prevPlayers := p.rows, p.players
	p.prev, p.raw, p.spare, p.have = *cur, raw, prevRaw, true
	p.players, p.sparePlayers = append(p.sparePlayers[:0], cur.Players...), prevPlayers
	p.prev.Players = p.players
	p.prev.Rematch = slices.Clone(cur.Rematch)
	p.prev.AbortAt, p.prev.DrawOffer = clonePtr(cur.AbortAt), clonePtr(cur.DrawOffer)
	p.prev.Takeback = clonePtr(cur.Takeback)
	p.prev.ScoreBy = clonePtr(cur.ScoreBy)
	rows, rowsBoard := cur.Board.([]string)
	var known []string // rows already found plain
	if prevASCII {
		known = prevRows
	}
	curASCII := rowsBoard && asciiRows(rows, known)
	p.prevASCII = curASCII
	if rowsBoard {
		// The engine's rows are valid until its next move: they are
		// copied, into the array of the Diff before last.
		p.rows, p.spareRows = append(p.spareRows[:0], rows...), prevRows
		p.prev.Board = nil
	} else {
		p.rows = nil
	}
	if !had {
		return nil, false, nil
	}
	// Fields that vanish (omitempty, extras) need the full state.
	if prev.Private && !cur.Private || prev.Watch && !cur.Watch || len(prev.Rematch) > 0 && len(cur.Rematch) == 0 ||
		prev.Next != "" && cur.Next == "" ||
		prev.DrawOffer != nil && cur.DrawOffer == nil || prev.Takeback != nil && cur.Takeback == nil ||
		prev.ScoreBy != nil && cur.ScoreBy == nil {
		return nil, false, nil
	}
	for k := range prevRaw {
		if _, ok := raw[k]; !ok {
			return nil, false, nil
		}
	}
	b := bytes.NewBuffer(make([]byte, 0, 256))
	b.WriteString(`{"type":"room.patch","room":`)
	writeJSONString(b, cur.Room)
	if prev.Seq != cur.Seq-1 {
		b.WriteString(`,"base":`)
		b.WriteString(strconv.FormatInt(prev.Seq, 10))
	}
	b.WriteString(`,"seq":`)
	b.WriteString(strconv.FormatInt(cur.Seq, 10))
	// field writes one member of the patch; the first error is kept.
	var ferr error
	field := func(k string, v any) {
		enc, err := appendValue(p.scratch[:0], v)
		if err != nil {
			ferr = cmp.Or(ferr, fmt.Errorf("encode %s: %w", k, err))
			return
		}
		p.scratch = enc
		b.WriteString(`,"`)
		b.WriteString(k)
		b.WriteString(`":`)
		b.Write(enc)
	}
	if cur.Game != prev.Game {
		field("game", cur.Game)
	}
	if cur.Variant != prev.Variant {
		field("variant", cur.Variant)
	}
	if cur.Status != prev.Status {
		field("status", cur.Status)
	}
	if !slices.Equal(cur.Players, prev.Players) {
		field("players", cur.Players)
	}
	if cur.Spectators != prev.Spectators {
		field("spectators", cur.Spectators)
	}
	if !equalPtr(cur.Turn, prev.Turn) {
		field("turn", cur.Turn)
	}
	if !equalPtr(cur.LastMove, prev.LastMove) {
		field("lastMove", cur.LastMove)
	}
	if !equalResult(cur.Result, prev.Result) {
		field("result", cur.Result)
	}
	if !equalPtr(cur.AbortAt, prev.AbortAt) {
		field("abortAt", cur.AbortAt)
	}
	if cur.Abortable != prev.Abortable {
		field("abortable", cur.Abortable)
	}
	if !equalPtr(cur.DrawOffer, prev.DrawOffer) {
		field("drawOffer", cur.DrawOffer)
	}
	if !equalPtr(cur.Takeback, prev.Takeback) {
		field("takeback", cur.Takeback)
	}
	if !equalPtr(cur.ScoreBy, prev.ScoreBy) {
		field("scoreBy", cur.ScoreBy)
	}
	if cur.SpectatorChat != prev.SpectatorChat {
		field("spectatorChat", cur.SpectatorChat)
	}
	if cur.Private != prev.Private {
		field("private", cur.Private)
	}
	if cur.Watch != prev.Watch {
		field("watch", cur.Watch)
	}
	if cur.Rated != prev.Rated {
		field("rated", cur.Rated)
	}
	if !slices.Equal(cur.RatingChanges, prev.RatingChanges) {
		field("ratingChanges", cur.RatingChanges)
	}
	if !slices.Equal(cur.Rematch, prev.Rematch) {
		field("rematch", cur.Rematch)
	}
	if cur.Next != prev.Next {
		field("next", cur.Next)
	}
	if ferr != nil {
		return nil, false, ferr
	}
	if rowsBoard {
		if old := prevRows; old != nil && curASCII && prevASCII {
			if cells, ok := diffCells(p.cells[:0], old, rows); ok {
				p.cells = cells
				b.WriteString(`,"cells":`)
				b.Write(cells)
			} else if !slices.Equal(rows, old) {
				field("board", rows)
			}
		} else {
			field("board", rows)
		}
		if ferr != nil {
			return nil, false, ferr
		}
	}
	p.keys = p.keys[:0]
	for k := range raw {
		p.keys = append(p.keys, k)
	}
	slices.Sort(p.keys)
	for _, k := range p.keys {
		v := raw[k]
		old, had := prevRaw[k]
		if had && bytes.Equal(old, v) {
			continue
		}
		b.WriteByte(',')
		writeJSONString(b, k)
		b.WriteByte(':')
		if had {
			merged, err := mergeObject(b.AvailableBuffer(), old, v)
			if errors.Is(err, errNoPatch) {
				return nil, false, nil
			}
			if err == nil {
				b.Write(merged)
				continue
			}
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), true, nil
}

// errNoPatch says that the change cannot be written as a patch (a nested
// key disappeared); the receivers need the full room.state.
var errNoPatch = errors.New("change needs a full room.state")

// clonePtr is a pointer to a copy of *p, nil for nil: what the patcher
// keeps of a state must not change with the room's own values.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

func equalPtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

func equalResult(a, b *Result) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Reason == b.Reason && equalPtr(a.Winner, b.Winner)
}

// coreKeys are the room.state keys of RoomState itself: an extra field
// with one of these names is not sent (the core field wins).
var coreKeys = map[string]bool{"type": true, "room": true, "game": true, "variant": true, "seq": true,
	"status": true, "players": true, "spectators": true, "turn": true, "board": true, "legal": true,
	"legalBySeat": true, "lastMove": true, "score": true, "clocks": true, "result": true, "abortAt": true,
	"abortable": true, "drawOffer": true, "takeback": true, "private": true, "watch": true, "rated": true, "ratingChanges": true, "rematch": true, "next": true,
	"spectatorChat": true}

// rawFields encodes the fields compared as JSON: score, clocks, a board
// that is not a list of rows, and the extra fields. It writes them into
// reuse, cleared, and its values' bytes when it has any (nil: a new map).
func rawFields(cur *RoomState, reuse map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	raw := reuse
	if raw == nil {
		raw = make(map[string]json.RawMessage, 4+len(cur.Extra))
	}
	for k, v := range raw {
		raw[k] = v[:0] // keeps the bytes for the same key below
	}
	put := func(k string, v any) error {
		enc, err := appendValue(raw[k], v)
		if err != nil {
			return fmt.Errorf("encode room.state %s: %w", k, err)
		}
		raw[k] = enc
		return nil
	}
	if err := put("score", cur.Score); err != nil {
		return nil, err
	}
	if err := put("clocks", cur.Clocks); err != nil {
		return nil, err
	}
	if _, rows := cur.Board.([]string); !rows {
		if err := put("board", cur.Board); err != nil {
			return nil, err
		}
	}
	for k, v := range cur.Extra {
		if coreKeys[k] {
			continue
		}
		if err := put(k, v); err != nil {
			return nil, err
		}
	}
	for k, v := range raw {
		if len(v) == 0 { // a key of the state before that cur has not
			delete(raw, k)
		}
	}
	return raw, nil
}

// WithField returns a copy of the patch with one more top-level field: the
// frame of a seat adds "legal" (its moves, [] when it is not its turn) to
// the patch every spectator gets.
func WithField(patch []byte, key string, v any) ([]byte, error) {
	if len(patch) < 2 || patch[len(patch)-1] != '}' {
		return nil, fmt.Errorf("add %s: %q is not a JSON object", key, patch)
	}
	head := func(extra int) []byte {
		out := make([]byte, 0, len(patch)+len(key)+extra+4)
		out = append(out, patch[:len(patch)-1]...)
		out = append(out, ',', '"')
		out = append(out, key...)
		return append(out, '"', ':')
	}
	if ss, ok := v.([]string); ok {
		// A list of moves is written straight into the frame: one
		// allocation, which a 19x19 legal list (2 KB) makes count.
		size := 2
		for _, s := range ss {
			size += len(s) + 3
		}
		if l, ok := appendPlainStrings(head(size), ss); ok {
			return append(l, '}'), nil
		}
	}
	l, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", key, err)
	}
	return append(append(head(len(l)), l...), '}'), nil
}

// asciiRows reports whether every row can be written as a JSON string as
// it is (no byte to escape, none outside ASCII). known, when it has as
// many rows, holds rows already found plain (the
// board before): a row equal to its own there is not looked at again, so a
// move on 19x19 scans the one or few rows it changed, not all 361 cells.
func asciiRows(rows, known []string) bool {
	if len(known) != len(rows) {
		known = nil
	}
	for n, r := range rows {
		if known != nil && known[n] == r {
			continue
		}
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
// The cells are appended to dst.
func diffCells(dst []byte, prev, cur []string) ([]byte, bool) {
	if len(prev) != len(cur) {
		return dst, false
	}
	b := append(dst, '[')
	n, total := 0, 0
	for r := range cur {
		if len(prev[r]) != len(cur[r]) {
			return dst, false
		}
		total += len(cur[r])
		if prev[r] == cur[r] {
			continue
		}
		for c := 0; c < len(cur[r]); c++ {
			if prev[r][c] == cur[r][c] {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(r), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, ',', '"', cur[r][c], '"', ']')
		}
	}
	b = append(b, ']')
	if n == 0 || n*2 > total {
		return b, false
	}
	return b, true
}

// mergeObject appends to dst the keys of cur whose values differ from old
// when both are objects with the same keys; errNoPatch when both are
// objects and a key disappeared; any other error means "send cur whole".
func mergeObject(dst []byte, old, cur json.RawMessage) (json.RawMessage, error) {
	if len(old) == 0 || old[0] != '{' || len(cur) == 0 || cur[0] != '{' {
		return nil, errors.New("not two objects")
	}
	var ob, cb [8]flatMember
	if fo, ok := splitFlat(old, ob[:0]); ok {
		if fc, ok := splitFlat(cur, cb[:0]); ok {
			return mergeFlat(dst, fo, fc)
		}
	}
	return mergeDecoded(old, cur)
}

// mergeDecoded is mergeObject through encoding/json, for any two objects.
func mergeDecoded(old, cur json.RawMessage) (json.RawMessage, error) {
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

// mergeFlat is mergeObject for two flat objects (see splitFlat), appending
// to dst.
func mergeFlat(dst []byte, o, c []flatMember) (json.RawMessage, error) {
	find := func(ms []flatMember, k []byte) ([]byte, bool) {
		for _, m := range ms {
			if bytes.Equal(m.key, k) {
				return m.val, true
			}
		}
		return nil, false
	}
	for _, m := range o {
		if _, ok := find(c, m.key); !ok {
			return nil, errNoPatch
		}
	}
	slices.SortFunc(c, func(a, b flatMember) int { return bytes.Compare(a.key, b.key) })
	out := append(dst, '{')
	n := 0
	for _, m := range c {
		if ov, ok := find(o, m.key); ok && bytes.Equal(ov, m.val) {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		n++
		out = append(out, '"')
		out = append(out, m.key...)
		out = append(out, '"', ':')
		out = append(out, m.val...)
	}
	return append(out, '}'), nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func writeJSONString(b *bytes.Buffer, s string) {
	if q, ok := engine.AppendPlainJSONString(b.AvailableBuffer(), s); ok {
		b.Write(q)
		return
	}
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
