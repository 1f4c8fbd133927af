package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeStrict decodes exactly one JSON value from data into v, as the
// engines read a setup or a snapshot: unknown fields and anything after the
// value are refused, every error saying "malformed JSON".
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("malformed JSON: trailing data after the object")
	}
	return nil
}

// AppendJSONString appends s as a JSON string, with the bytes
// encoding/json writes for it: as it is when it needs no escape (moves,
// variants, ids and colours do not), through encoding/json otherwise. The
// service's hand-written encoders share it: the engines' snapshots,
// protocol's frames and patches, the rooms' snapshots, the load
// generator's messages.
func AppendJSONString(dst []byte, s string) []byte {
	if out, ok := AppendPlainJSONString(dst, s); ok {
		return out
	}
	enc, _ := json.Marshal(s) // a string always encodes
	return append(dst, enc...)
}

// AppendPlainJSONString appends s quoted when encoding/json would write it
// with no escapes (printable ASCII but for ", \, <, > and &); ok is false,
// and dst unchanged, otherwise.
func AppendPlainJSONString(dst []byte, s string) (_ []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return dst, false
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"'), true
}
