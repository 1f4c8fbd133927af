// Package protocol holds the wire contract of the WebSocket protocol
// (docs/protocol.md): the message types in both directions, the error codes,
// the close codes and an encoder that prepares one frame for many receivers.
//
// The hub, the rooms, the tests and the load generator share it, so a message
// is spelled in one place only.
package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
)

// Code is an error code of the wire contract (docs/protocol.md, "Errors").
// It is engine.Code: the codes an engine returns are wire codes as they
// are, so the list below takes them from package engine and adds the ones
// only the service gives.
type Code = engine.Code

// The error codes of the contract. An error never changes a room. Their
// strings are the contract: they never change (TestCodes).
const (
	CodeBadRequest  Code = "bad_request"
	CodeBadSetup         = engine.CodeBadSetup
	CodeUnknownGame      = engine.CodeUnknownGame
	CodeUnknownRoom Code = "unknown_room"
	CodeNotAPlayer  Code = "not_a_player"
	CodeNotYourTurn      = engine.CodeNotYourTurn
	CodeIllegalMove      = engine.CodeIllegalMove
	CodeRoomFull    Code = "room_full"
	CodeGameOver         = engine.CodeGameOver
	CodeRateLimited Code = "rate_limited"
	CodeTooLarge    Code = "too_large"
	CodeInternal    Code = "internal"
	// CodeBusy (addition): the server is at a capacity limit (its
	// connections, its bot queue); try again after the HTTP Retry-After.
	CodeBusy Code = "busy"
	// CodeUnauthorized (addition): an HTTP request without a token or a
	// session, or with one the server does not know (HTTP 401); a wrong
	// name or password; a hello with a session that ended or with the
	// token of a guest who became an account.
	CodeUnauthorized Code = "unauthorized"
	// CodeForbidden (addition): the token is known but may not do this: a
	// bot account registering bots, a person's token on a bot's path
	// (HTTP 403).
	CodeForbidden Code = "forbidden"
	// CodeNameTaken (addition): an account has the name already, compared
	// without case (POST /api/account, HTTP 409).
	CodeNameTaken Code = "name_taken"
	// CodeNotFound (addition): an HTTP read of something that is not
	// there: a player's profile (HTTP 404).
	CodeNotFound Code = "not_found"
	// CodeConflict (addition): an HTTP request that can be made once and
	// was: a second move of a guest's token into a session (POST
	// /api/guest, HTTP 409).
	CodeConflict Code = "conflict"
)

// Codes lists every error code of the contract.
var Codes = []Code{CodeBadRequest, CodeBadSetup, CodeUnknownGame, CodeUnknownRoom,
	CodeNotAPlayer, CodeNotYourTurn, CodeIllegalMove, CodeRoomFull, CodeGameOver,
	CodeRateLimited, CodeTooLarge, CodeInternal, CodeBusy, CodeUnauthorized, CodeForbidden, CodeNameTaken, CodeNotFound, CodeConflict}

// WebSocket close codes the server uses (RFC 6455, 7.4).
const (
	// ClosePolicy (1008): a client that floods or breaks the protocol, or
	// says no hello in time.
	ClosePolicy = 1008
	// CloseTooLarge (1009): a frame over the read limit.
	CloseTooLarge = 1009
	// CloseRestart (1012): the server is restarting; come back.
	CloseRestart = 1012
	// CloseTryLater (1013): the client could not keep up with its messages.
	CloseTryLater = 1013
)

// Error is a protocol error: a code and a message for the player.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Errorf builds an *Error.
func Errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Msg: fmt.Sprintf(format, args...)}
}

// AsError turns any error into a protocol error: an *Error as is, an engine
// error with its code, anything else as internal.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return &Error{Code: ee.Code, Msg: ee.Msg}
	}
	return &Error{Code: CodeInternal, Msg: "internal error"}
}

// Server to client message types.
const (
	TypeWelcome    = "welcome"
	TypeLobby      = "lobby"
	TypeMatchFound = "match.found"
	TypeRoomJoined = "room.joined"
	TypeRoomState  = "room.state"
	TypeError      = "error"
	// TypeRoomLeft answers room.leave (an addition to the core contract).
	TypeRoomLeft = "room.left"
	// TypeMatchQueued answers match.find and match.cancel (an addition).
	TypeMatchQueued = "match.queued"
	// TypePlayerRenamed answers player.rename (an addition).
	TypePlayerRenamed = "player.renamed"
)

// Welcome answers hello.
type Welcome struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Player players.Player  `json:"player"`
	// Token is a guest's secret token, for a hello again; empty when the
	// connection is the session cookie's (docs/protocol.md, "Accounts").
	Token string   `json:"token"`
	Rooms []string `json:"rooms"`
	// Features are the hello features the server granted (an addition).
	Features []string `json:"features,omitempty"`
}

// RoomSummary is one live room in the lobby and in GET /api/rooms.
type RoomSummary struct {
	ID         string   `json:"id"`
	Game       string   `json:"game"`
	Variant    string   `json:"variant"`
	Status     string   `json:"status"`
	Players    []Player `json:"players"`
	Spectators int      `json:"spectators"`
	Watch      bool     `json:"watch,omitempty"`
	// Created is when the room was made (Unix ms): the order of GET
	// /api/rooms (an addition).
	Created int64 `json:"created"`
	// Adjourned marks a playing game none of whose players has been
	// connected for a while: it is no longer among the lobby's live games
	// (an addition).
	Adjourned bool `json:"adjourned,omitempty"`
	// Private marks a room kept out of the public lists; it is only in its
	// own players' list of their rooms (Lobby.Mine; an addition).
	Private bool `json:"private,omitempty"`
	// Rated marks a rated game (an addition).
	Rated bool `json:"rated,omitempty"`
}

// BotInfo is one bot account online (its event stream open) in GET
// /api/bots (an addition).
type BotInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Games is how many game streams the bot has open.
	Games int `json:"games"`
	// Open: its owner opened it to tournaments.
	Open bool `json:"open,omitempty"`
}

// LobbyCounts are how many public unfinished rooms there are, by what the
// lobby shows of them (an addition).
type LobbyCounts struct {
	// Playing is the live games: playing, not adjourned.
	Playing int `json:"playing"`
	// Waiting is the rooms with a free seat.
	Waiting int `json:"waiting"`
	// Adjourned is the playing games none of whose players is here.
	Adjourned int `json:"adjourned"`
}

// Add adds o's counts to c.
func (c *LobbyCounts) Add(o LobbyCounts) {
	c.Playing += o.Playing
	c.Waiting += o.Waiting
	c.Adjourned += o.Adjourned
}

// Queue is the number of players waiting for a quick match.
type Queue struct {
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Waiting int    `json:"waiting"`
}

// Lobby is the lobby view sent to watchers: a page of rooms, never all of
// them (docs/protocol.md, "The lobby").
type Lobby struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
	// Rooms is the first page of the public rooms: the most watched live
	// games, then the rooms with a free seat.
	Rooms []RoomSummary `json:"rooms"`
	// Counts count every public unfinished room, those in Rooms included
	// (an addition).
	Counts LobbyCounts `json:"counts"`
	// Mine is the watcher's own unfinished rooms, private ones included
	// (an addition).
	Mine   []RoomSummary `json:"mine,omitempty"`
	Queues []Queue       `json:"queues"`
}

// RoomsPage answers GET /api/rooms: a page of the public unfinished rooms,
// newest first; Next, when not empty, is the cursor of the next page.
type RoomsPage struct {
	Rooms  []RoomSummary `json:"rooms"`
	Next   string        `json:"next,omitempty"`
	Counts LobbyCounts   `json:"counts"`
}

// MatchFound tells a player its quick-match (or rematch) room.
type MatchFound struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
	Room string          `json:"room"`
	Seat int             `json:"seat"`
}

// MatchQueued answers match.find (queued true) and match.cancel (false).
type MatchQueued struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Game    string          `json:"game,omitempty"`
	Variant string          `json:"variant,omitempty"`
	Queued  bool            `json:"queued"`
}

// RoomJoined answers room.join and room.create.
type RoomJoined struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
	Room string          `json:"room"`
	Role string          `json:"role"`
	Seat *int            `json:"seat,omitempty"`
}

// RoomLeft answers room.leave.
type RoomLeft struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
	Room string          `json:"room"`
}

// Player is one seat in room.state and the lobby: the seated player (the
// one public player type, players.Player: its botAccount is an addition)
// and its connection.
type Player struct {
	players.Seated
	Connected bool `json:"connected"`
	// GoneSince (Unix ms) is set in room.state while a human seat of a
	// playing game has no connection (an addition).
	GoneSince int64 `json:"goneSince,omitempty"`
	// ClaimableAt (Unix ms) is when the opponent may claim the win with
	// room.claim, in two-seat games (an addition).
	ClaimableAt int64 `json:"claimableAt,omitempty"`
}

// RatingChange is one seat's change of rating by a rated game, in
// room.state's ratingChanges (an addition): the rounded ratings before and
// after, their difference, and whether the new one is provisional.
type RatingChange struct {
	Seat        int    `json:"seat"`
	ID          string `json:"id"`
	Before      int    `json:"before"`
	After       int    `json:"after"`
	Diff        int    `json:"diff"`
	Provisional bool   `json:"provisional,omitempty"`
}

// LastMove is the last move played in a room.
type LastMove struct {
	Seat int    `json:"seat"`
	Move string `json:"move"`
}

// TakebackAsk is a standing takeback request in room.state (an addition):
// Seat asks to take back Plies plies, its own last move and the
// opponent's reply if there was one, so that it is Seat's turn again.
type TakebackAsk struct {
	Seat  int `json:"seat"`
	Plies int `json:"plies"`
}

// Result is the end of a game.
type Result struct {
	Winner *int   `json:"winner"`
	Reason string `json:"reason"`
}

// RoomState is the whole state of a room, sent on join and after every
// change. Extra game-specific fields (queens' "owners") are merged into the
// object by the encoder. Moves, the move history from the start of the game
// (an addition), is set only in the room.state that answers a join (or a
// create, or a resuming hello), never in broadcasts, which carry LastMove;
// nil leaves it out, an empty slice sends []. Chat, the room's last chat
// lines (an addition), goes with Moves.
type RoomState struct {
	Type       string              `json:"type"`
	Room       string              `json:"room"`
	Game       string              `json:"game"`
	Variant    string              `json:"variant"`
	Seq        int64               `json:"seq"`
	Status     string              `json:"status"`
	Players    []Player            `json:"players"`
	Spectators int                 `json:"spectators"`
	Turn       *int                `json:"turn"`
	Board      any                 `json:"board"`
	Legal      []string            `json:"legal"`
	LegalBy    map[string][]string `json:"legalBySeat,omitempty"`
	LastMove   *LastMove           `json:"lastMove"`
	Score      any                 `json:"score"`
	Clocks     any                 `json:"clocks"`
	Result     *Result             `json:"result"`
	// AbortAt (Unix ms, null when none) is when the game is aborted
	// unless the seat in turn makes its first move; Abortable is set while
	// a player may abort (room.abort); both are always present, so that a
	// patch can carry their changes. DrawOffer is the seat whose draw
	// offer stands, Takeback the standing takeback request (additions).
	AbortAt   *int64       `json:"abortAt"`
	Abortable bool         `json:"abortable"`
	DrawOffer *int         `json:"drawOffer,omitempty"`
	Takeback  *TakebackAsk `json:"takeback,omitempty"`
	// ScoreBy (Unix ms) is, in a go game's stone-removal phase under a
	// clock, when the room counts the game with the server's proposal
	// unless both players accepted a marking before (an addition).
	ScoreBy *int64 `json:"scoreBy,omitempty"`
	// SpectatorChat is false while the players have switched the
	// spectators' chat off (an addition; always present).
	SpectatorChat bool `json:"spectatorChat"`
	Private       bool `json:"private,omitempty"`
	Watch         bool `json:"watch,omitempty"`
	// Rated marks a rated game, and RatingChanges are its seats' rating
	// changes once the game was rated (additions).
	Rated         bool           `json:"rated,omitempty"`
	RatingChanges []RatingChange `json:"ratingChanges,omitempty"`
	Rematch       []int          `json:"rematch,omitempty"`
	Next          string         `json:"next,omitempty"`
	Moves         []LastMove     `json:"moves,omitzero"` // the history; only in answers to a join
	Chat          []ChatLine     `json:"chat,omitzero"`  // the last chat lines; only with Moves
	Extra         map[string]any `json:"-"`
}

// MarshalJSON merges Extra into the object; the core fields win.
func (s RoomState) MarshalJSON() ([]byte, error) {
	type plain RoomState
	b, err := json.Marshal(plain(s))
	if err != nil || len(s.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range s.Extra {
		if _, taken := m[k]; taken {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// Chat is a chat line in a room. Role (an addition) is "player" for a
// line of a player who holds a seat (Seat is that seat) and "spectator"
// for anyone else's; By (an addition) is the speaker's player id, for
// room.chat.mute.
type Chat struct {
	Type string `json:"type"`
	Room string `json:"room"`
	From string `json:"from"`
	Seat *int   `json:"seat,omitempty"`
	Role string `json:"role,omitempty"`
	By   string `json:"by,omitempty"`
	Text string `json:"text"`
	At   int64  `json:"at"`
}

// ChatLine is a chat line as a room keeps it (room.state "chat"): a
// room.chat message without its type and room.
type ChatLine struct {
	From string `json:"from"`
	Seat *int   `json:"seat,omitempty"`
	Role string `json:"role,omitempty"`
	By   string `json:"by,omitempty"`
	Text string `json:"text"`
	At   int64  `json:"at"`
}

// ChatMuted answers room.chat.mute and room.chat.unmute: the people the
// player mutes in the room (an addition).
type ChatMuted struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Room  string          `json:"room"`
	Muted []string        `json:"muted"`
}

// ErrorMessage is an error sent to a client.
type ErrorMessage struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Room    string          `json:"room,omitempty"`
	Code    Code            `json:"code"`
	Message string          `json:"message"`
}

// Frame is one encoded server message, ready to be written to many
// connections: the JSON bytes, written as they are to a connection without
// compression, and what the transport makes of them once for every
// connection (Prepared: the hub's WebSocket message deflated once for
// every connection with permessage-deflate). Data is never modified after
// the frame is made; a Frame is safe for concurrent use.
type Frame struct {
	Data []byte

	once     sync.Once
	prepared any
}

// Prepared returns what prepare makes of the frame's bytes, calling it on
// the first call only: every connection that writes the frame shares it.
// A transport passes the same prepare at every call (package protocol
// knows no transport).
func (f *Frame) Prepared(prepare func(data []byte) any) any {
	f.once.Do(func() { f.prepared = prepare(f.Data) })
	return f.prepared
}

// NewFrame wraps already-encoded JSON as a text frame.
func NewFrame(b []byte) *Frame { return &Frame{Data: b} }

// Encode encodes v once as a text frame.
func Encode(v any) (*Frame, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return NewFrame(b), nil
}

// MustEncode is Encode for values that always encode (the protocol's own
// message structs); it panics otherwise.
func MustEncode(v any) *Frame {
	f, err := Encode(v)
	if err != nil {
		panic(err)
	}
	return f
}

// ErrorFrame encodes an error message.
func ErrorFrame(id json.RawMessage, room string, e *Error) *Frame {
	return MustEncode(ErrorMessage{Type: TypeError, ID: id, Room: room, Code: e.Code, Message: e.Msg})
}

// HTTPError is the body of an HTTP API error.
type HTTPError struct {
	Error struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// BotMoveRequest is the body of POST /api/bot/move.
type BotMoveRequest struct {
	Game    string          `json:"game"`
	Variant string          `json:"variant"`
	Level   string          `json:"level"`
	Setup   json.RawMessage `json:"setup"`
}

// BotMoveResponse answers POST /api/bot/move.
type BotMoveResponse struct {
	Move string `json:"move"`
}

// Limits of a time control, in seconds.
const (
	MaxClockBase      = 10800
	MaxClockIncrement = 180
)

// TimeControl is a Fischer time control: each side starts with Base seconds
// and gains Increment seconds with each of its moves.
type TimeControl struct {
	Base      int `json:"base"`
	Increment int `json:"increment"`
}

// ParseOptions parses room.create's rule options (go): "komi", absent or
// null for the seed's rule (white wins ties, a komi of one half), else a
// number; "handicap", absent or null for none, else a whole number; and
// "removal". Whether the game takes them, and the ranges, are the
// engine's to say (engine.CheckOptions, at the room's creation). A komi
// or handicap that is not a number is a bad_request error.
func ParseOptions(komi, handicap json.RawMessage, removal bool) (engine.Options, *Error) {
	opts := engine.Options{Removal: removal}
	number := func(name string, raw json.RawMessage) (float64, bool, *Error) {
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || string(t) == "null" {
			return 0, false, nil
		}
		var v float64
		if err := json.Unmarshal(t, &v); err != nil {
			return 0, false, Errorf(CodeBadRequest, "%q must be a number", name)
		}
		return v, true, nil
	}
	k, set, perr := number("komi", komi)
	if perr != nil {
		return opts, perr
	}
	if set {
		if k == 0 {
			return opts, Errorf(CodeBadRequest, `"komi" must be a half-integer (0.5, 6.5, 7.5, -0.5, ...): a komi of 0 would allow draws`)
		}
		if k != 0.5 { // 0.5 is the seed's rule, the zero Options
			opts.Komi = k
		}
	}
	h, set, perr := number("handicap", handicap)
	if perr != nil {
		return opts, perr
	}
	if set {
		if h != math.Trunc(h) || h < -1e9 || h > 1e9 {
			return opts, Errorf(CodeBadRequest, `"handicap" must be a whole number of stones`)
		}
		opts.Handicap = int(h)
	}
	return opts, nil
}

// ParseClock parses the "clock" of room.create: absent or null is no clock
// (nil); otherwise an object with a whole "base" of 1..MaxClockBase seconds
// and an optional whole "increment" of 0..MaxClockIncrement seconds, and no
// other field. Anything else is a bad_request error.
func ParseClock(raw json.RawMessage) (*TimeControl, *Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, nil
	}
	bad := func(format string, args ...any) (*TimeControl, *Error) {
		return nil, Errorf(CodeBadRequest, "clock: "+format, args...)
	}
	var v struct {
		Base      *float64 `json:"base"`
		Increment *float64 `json:"increment"`
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	// Nothing may follow the object (More says false before a '}').
	if err := dec.Decode(&v); err != nil || dec.InputOffset() != int64(len(trimmed)) {
		return bad(`want {"base":seconds,"increment":seconds}`)
	}
	if v.Base == nil {
		return bad(`missing "base" (seconds)`)
	}
	inc := 0.0
	if v.Increment != nil {
		inc = *v.Increment
	}
	if b := *v.Base; b != math.Trunc(b) || b < 1 || b > MaxClockBase {
		return bad(`"base" must be a whole number of seconds from 1 to %d`, MaxClockBase)
	}
	if inc != math.Trunc(inc) || inc < 0 || inc > MaxClockIncrement {
		return bad(`"increment" must be a whole number of seconds from 0 to %d`, MaxClockIncrement)
	}
	return &TimeControl{Base: int(*v.Base), Increment: int(inc)}, nil
}
