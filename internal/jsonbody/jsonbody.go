// Package jsonbody reads the JSON bodies of the HTTP API, all of them the
// same way: at most a limit of bytes, read within the request's deadline,
// holding exactly one JSON value with nothing but JSON whitespace after it.
// A body with data after its value ("{...} x", "{...}}", two objects) is
// refused, never half read.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
)

// Errors of Read and ReadAll besides a malformed body (ErrMalformed).
var (
	// ErrTooLarge: the body is longer than the limit.
	ErrTooLarge = errors.New("body too large")
	// ErrTooSlow: the body did not arrive within the request's read
	// deadline.
	ErrTooSlow = errors.New("the body came too slowly")
	// ErrMalformed wraps every decoding error: not JSON, not the value
	// expected, data after the value.
	// The decoder's own error is wrapped too (a *json.SyntaxError, say).
	ErrMalformed = errors.New("malformed JSON body")
	// ErrEmpty (with ErrMalformed): the body holds no JSON value.
	ErrEmpty = errors.New("no JSON value")
	// ErrTrailing (with ErrMalformed): data follows the JSON value.
	ErrTrailing = errors.New("data after the JSON value")
)

// Decode decodes data into v: data must be exactly one JSON value, with
// only JSON whitespace (space, tab, CR, LF) around it. It accepts what
// json.Valid accepts and nothing else. (The engines' setups and snapshots
// have their own strict reading, engine.DecodeStrict, which refuses
// unknown fields too.)
func Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			err = ErrEmpty
		}
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return fmt.Errorf("%w: %w at byte %d", ErrMalformed, ErrTrailing, len(data)-len(rest))
	}
	return nil
}

// ReadAll reads r's body, at most limit bytes (a longer one is ErrTooLarge,
// and the connection is closed after the answer, http.MaxBytesReader).
func ReadAll(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, ErrTooLarge
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, ErrTooSlow
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return data, nil
}

// Read reads r's body (ReadAll) and decodes it into v (Decode).
func Read(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	data, err := ReadAll(w, r, limit)
	if err != nil {
		return err
	}
	return Decode(data, v)
}
