package protocol

// TypeRoomPresence is the message that carries a room's spectator count and
// its seats' connection flags (an addition, docs/protocol.md "Presence").
// It is not a change of the room's state: it has no seq and moves none.
const TypeRoomPresence = "room.presence"

// RoomPresence is room.presence: who is here, sent to every member of a
// room, at most about once a second, when it differs from what the members
// were last told (by a room.state, a room.patch or a room.presence).
type RoomPresence struct {
	Type       string     `json:"type"`
	Room       string     `json:"room"`
	Spectators int        `json:"spectators"`
	Players    []SeatHere `json:"players"`
}

// SeatHere is one seat's connection flags in room.presence: the same
// values as the seat's entry in room.state's players.
type SeatHere struct {
	Seat        int   `json:"seat"`
	Connected   bool  `json:"connected"`
	GoneSince   int64 `json:"goneSince,omitempty"`
	ClaimableAt int64 `json:"claimableAt,omitempty"`
}
