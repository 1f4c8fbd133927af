package engine

import (
	"errors"
	"fmt"
)

// Code classifies an engine error. The values are the wire protocol's error
// codes, so the rooms pass them through unchanged.
type Code string

// The codes an engine produces.
const (
	// CodeBadSetup: a setup that is malformed or not a legal position.
	CodeBadSetup Code = "bad_setup"
	// CodeIllegalMove: a move that is malformed or breaks the rules.
	CodeIllegalMove Code = "illegal_move"
	// CodeNotYourTurn: a seat that is not to move tried to move.
	CodeNotYourTurn Code = "not_your_turn"
	// CodeGameOver: a move after the game ended.
	CodeGameOver Code = "game_over"
	// CodeUnknownGame: an unknown game, variant or bot level.
	CodeUnknownGame Code = "unknown_game"
)

// Error is an error with a protocol code and a message meant for the player.
type Error struct {
	Code Code
	Msg  string
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Is makes errors.Is(err, &Error{Code: c}) match any *Error with code c.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Msg == "" || t.Msg == e.Msg)
}

// Errorf returns an *Error with code c and a formatted message.
func Errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Msg: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Error in err's chain, or "" when
// there is none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
