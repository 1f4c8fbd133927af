package protocol

import (
	"encoding/json"
	"slices"

	"github.com/tabuleiro/tabuleiro/players"
)

// The client messages: each type is declared here once, with what the
// server checks of it before handling it (Messages), and the hub registers
// one handler for each (hub/handlers.go). Adding a client message is an
// entry in Messages, its handler, and its line in docs/protocol.md
// (docs/architecture.md, "Where to change what").

// Client to server message types.
const (
	TypeHello        = "hello"
	TypeLobbyWatch   = "lobby.watch"
	TypeLobbyUnwatch = "lobby.unwatch"
	TypeMatchFind    = "match.find"
	TypeMatchCancel  = "match.cancel"
	TypeRoomCreate   = "room.create"
	TypeRoomJoin     = "room.join"
	TypeRoomMove     = "room.move"
	TypeRoomResign   = "room.resign"
	TypeRoomLeave    = "room.leave"
	TypeRoomChat     = "room.chat"
	// TypeRoomChatMute and TypeRoomChatUnmute (additions) mute and unmute
	// a person in the sender's own view of a room; TypeRoomChatMuted
	// answers with the sender's mutes. TypeRoomChatSpectators switches
	// the spectators' chat on or off (a seated player's wish).
	TypeRoomChatMute       = "room.chat.mute"
	TypeRoomChatUnmute     = "room.chat.unmute"
	TypeRoomChatMuted      = "room.chat.muted"
	TypeRoomChatSpectators = "room.chat.spectators"
	TypeRoomRematch        = "room.rematch"
	TypeRoomClaim          = "room.claim"
	// The rules of play (additions, docs/protocol.md "Abort, draws and
	// takebacks"): abort a game before both sides have moved, offer,
	// accept or decline a draw, ask for, accept or decline a takeback.
	TypeRoomAbort           = "room.abort"
	TypeRoomDrawOffer       = "room.draw.offer"
	TypeRoomDrawAccept      = "room.draw.accept"
	TypeRoomDrawDecline     = "room.draw.decline"
	TypeRoomTakebackAsk     = "room.takeback.ask"
	TypeRoomTakebackAccept  = "room.takeback.accept"
	TypeRoomTakebackDecline = "room.takeback.decline"
	// The stone-removal phase of go (additions, docs/protocol.md "Komi,
	// handicap and stone removal"): toggle a group dead or alive, accept
	// the marking.
	TypeRoomScoreToggle = "room.score.toggle"
	TypeRoomScoreAccept = "room.score.accept"
	// TypePlayerRename (an addition) changes the sender's name; it is
	// answered by TypePlayerRenamed.
	TypePlayerRename = "player.rename"
)

// The roles room.join's "as" names.
const (
	// RolePlayer takes a free seat, or the sender's own.
	RolePlayer = "player"
	// RoleSpectator watches, counted in the room's spectators.
	RoleSpectator = "spectator"
	// RoleWatcher (an addition) watches without being counted and without
	// connecting a seat (the lobby's live boards).
	RoleWatcher = "watcher"
)

// MessageSpec is what the server checks of one client message type before
// its handler runs.
type MessageSpec struct {
	// Type is the message's "type".
	Type string
	// Anonymous: a connection may send it before it has a player (hello
	// only); every other message needs one.
	Anonymous bool
	// Room: the message is for one room, named by "room" (then required):
	// the hub hands it to the room wherever the room runs.
	Room bool
	// Required are the fields it must carry besides type and room, in the
	// order they are checked.
	Required []Field
	// Check, when set, checks its fields' values once the required ones
	// are there: what can be told from the message alone (the hub checks
	// the rest, the room the rules).
	Check func(*ClientMessage) *Error
}

// Field is a key of a client message and how to tell it was sent.
type Field struct {
	Name string
	sent func(*ClientMessage) bool
}

// The fields a message may require.
var (
	FieldGame    = Field{"game", func(m *ClientMessage) bool { return m.Game != "" }}
	FieldVariant = Field{"variant", func(m *ClientMessage) bool { return m.Variant != "" }}
	FieldAs      = Field{"as", func(m *ClientMessage) bool { return m.As != "" }}
	FieldMove    = Field{"move", func(m *ClientMessage) bool { return m.Move != "" }}
	FieldText    = Field{"text", func(m *ClientMessage) bool { return m.Text != nil }}
	FieldPlayer  = Field{"player", func(m *ClientMessage) bool { return m.Player != "" }}
	FieldOn      = Field{"on", func(m *ClientMessage) bool { return m.On != nil }}
	FieldPoint   = Field{"point", func(m *ClientMessage) bool { return m.Point != "" }}
)

// Messages is every client message type the server takes, and what each
// needs. The hub's dispatch is derived from it: which types it knows,
// which go to a room, what it checks before handing a message on.
var Messages = []MessageSpec{
	{Type: TypeHello, Anonymous: true},
	{Type: TypeLobbyWatch},
	{Type: TypeLobbyUnwatch},
	{Type: TypeMatchFind, Required: []Field{FieldGame, FieldVariant}},
	{Type: TypeMatchCancel},
	{Type: TypeRoomCreate, Required: []Field{FieldGame, FieldVariant}, Check: checkCreate},
	{Type: TypePlayerRename},
	{Type: TypeRoomJoin, Room: true, Required: []Field{FieldAs}, Check: checkJoin},
	{Type: TypeRoomMove, Room: true, Required: []Field{FieldMove}},
	{Type: TypeRoomResign, Room: true},
	{Type: TypeRoomLeave, Room: true},
	{Type: TypeRoomChat, Room: true, Required: []Field{FieldText}},
	{Type: TypeRoomChatMute, Room: true, Required: []Field{FieldPlayer}},
	{Type: TypeRoomChatUnmute, Room: true, Required: []Field{FieldPlayer}},
	{Type: TypeRoomChatSpectators, Room: true, Required: []Field{FieldOn}},
	{Type: TypeRoomRematch, Room: true},
	{Type: TypeRoomClaim, Room: true},
	{Type: TypeRoomAbort, Room: true},
	{Type: TypeRoomDrawOffer, Room: true},
	{Type: TypeRoomDrawAccept, Room: true},
	{Type: TypeRoomDrawDecline, Room: true},
	{Type: TypeRoomTakebackAsk, Room: true},
	{Type: TypeRoomTakebackAccept, Room: true},
	{Type: TypeRoomTakebackDecline, Room: true},
	{Type: TypeRoomScoreToggle, Room: true, Required: []Field{FieldPoint}},
	{Type: TypeRoomScoreAccept, Room: true},
}

var messageSpecs = func() map[string]*MessageSpec {
	specs := make(map[string]*MessageSpec, len(Messages))
	for i := range Messages {
		specs[Messages[i].Type] = &Messages[i]
	}
	return specs
}()

// Message returns the spec of client message type t; false for a type the
// server does not take.
func Message(t string) (*MessageSpec, bool) {
	s, ok := messageSpecs[t]
	return s, ok
}

// Validate checks m, a message of s's type: its room, its required fields
// in order, then Check. The error is bad_request, naming the first field
// missing.
func (s *MessageSpec) Validate(m *ClientMessage) *Error {
	if s.Room && m.Room == "" {
		return MissingField("room")
	}
	for _, f := range s.Required {
		if !f.sent(m) {
			return MissingField(f.Name)
		}
	}
	if s.Check != nil {
		return s.Check(m)
	}
	return nil
}

// MissingField is the error for a message without a field it needs.
func MissingField(name string) *Error {
	return Errorf(CodeBadRequest, "missing field %q", name)
}

func checkJoin(m *ClientMessage) *Error {
	if m.As != RolePlayer && m.As != RoleSpectator && m.As != RoleWatcher {
		return Errorf(CodeBadRequest, `"as" must be "player", "spectator" or "watcher"`)
	}
	return nil
}

// opponents are room.create's "opponent" values.
var opponents = []string{"human", "bot", "none"}

// checkCreate checks room.create's opponent, which watch (every seat a
// bot) makes needless; the hub checks the rest against the game.
func checkCreate(m *ClientMessage) *Error {
	switch {
	case m.Watch:
	case m.Opponent == "":
		return MissingField("opponent")
	case !slices.Contains(opponents, m.Opponent):
		return Errorf(CodeBadRequest, `"opponent" must be "human", "bot" or "none"`)
	}
	return nil
}

// ClientMessage is any client message: the union of all fields. Unknown
// fields are ignored; which fields are required depends on Type
// (Messages).
type ClientMessage struct {
	Type     string          `json:"type"`
	ID       json.RawMessage `json:"id,omitempty"`
	Name     string          `json:"name,omitempty"`
	Token    string          `json:"token,omitempty"`
	Game     string          `json:"game,omitempty"`
	Variant  string          `json:"variant,omitempty"`
	Opponent string          `json:"opponent,omitempty"`
	Level    string          `json:"level,omitempty"`
	Seat     json.RawMessage `json:"seat,omitempty"`
	Setup    json.RawMessage `json:"setup,omitempty"`
	Private  bool            `json:"private,omitempty"`
	Watch    bool            `json:"watch,omitempty"`
	Clock    json.RawMessage `json:"clock,omitempty"`
	// Komi, Handicap and Removal are room.create's rule options (go;
	// additions): see ParseOptions.
	Komi     json.RawMessage `json:"komi,omitempty"`
	Handicap json.RawMessage `json:"handicap,omitempty"`
	Removal  bool            `json:"removal,omitempty"`
	// Rated asks room.create and match.find for a rated or a casual game
	// (an addition); nil is the default (RatedDefault).
	Rated *bool  `json:"rated,omitempty"`
	Room  string `json:"room,omitempty"`
	As    string `json:"as,omitempty"`
	Move  string `json:"move,omitempty"`
	// Info is a bot account's note on its room.move (an addition: its
	// depth, its evaluation, ...), kept in the game's record.
	Info string  `json:"info,omitempty"`
	Text *string `json:"text,omitempty"`
	// Player names the person room.chat.mute and room.chat.unmute are
	// about; On is room.chat.spectators' switch (additions).
	Player string `json:"player,omitempty"`
	On     *bool  `json:"on,omitempty"`
	// Point is the stone whose group room.score.toggle marks (an
	// addition).
	Point string `json:"point,omitempty"`
	// Features are the optional behaviours a client asks for in hello
	// (an addition): FeaturePatch.
	Features []string `json:"features,omitempty"`
}

// PlayerRenamed answers player.rename (an addition): the player as welcome
// carries it, with its new name.
type PlayerRenamed struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Player players.Player  `json:"player"`
}
