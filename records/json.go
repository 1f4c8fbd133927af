package records

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
)

// The record as JSON (GET /api/records/{room}, docs/protocol.md): times
// are Unix milliseconds, null when not yet; the clock in seconds as in
// room.create; the seed (a decimal string: it does not fit a JavaScript
// number) only once the game is over, since it fixes the coming 2048 tiles.

type recordJSON struct {
	Room      string           `json:"room"`
	Game      string           `json:"game"`
	Variant   string           `json:"variant"`
	Status    string           `json:"status"`
	Setup     json.RawMessage  `json:"setup"`
	Seed      string           `json:"seed,omitempty"`
	Private   bool             `json:"private,omitempty"`
	Watch     bool             `json:"watch,omitempty"`
	Rated     bool             `json:"rated,omitempty"`
	Players   []players.Seated `json:"players"`
	Clock     *clockJSON       `json:"clock"`
	Komi      float64          `json:"komi,omitempty"`
	Handicap  int              `json:"handicap,omitempty"`
	Removal   bool             `json:"removal,omitempty"`
	Dead      []string         `json:"dead,omitempty"`
	Moves     []moveJSON       `json:"moves"`
	Result    *resultJSON      `json:"result"`
	Chat      []chatJSON       `json:"chat"`
	Faults    []faultJSON      `json:"faults,omitempty"`
	Created   *int64           `json:"created"`
	Started   *int64           `json:"started"`
	Ended     *int64           `json:"ended"`
	Positions []Position       `json:"positions,omitempty"`
}

type clockJSON struct {
	Base      float64 `json:"base"`
	Increment float64 `json:"increment"`
}

type moveJSON struct {
	Seat int    `json:"seat"`
	Move string `json:"move"`
	Ms   int64  `json:"ms"`
	Info string `json:"info,omitempty"`
}

type faultJSON struct {
	Ply     int    `json:"ply"`
	Seat    int    `json:"seat"`
	Move    string `json:"move,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	Info    string `json:"info,omitempty"`
	Ms      int64  `json:"ms"`
}

type resultJSON struct {
	Winner *int   `json:"winner"`
	Reason string `json:"reason"`
}

type chatJSON struct {
	From string `json:"from"`
	Seat *int   `json:"seat,omitempty"`
	Role string `json:"role"`
	Text string `json:"text"`
	At   int64  `json:"at"`
}

// MarshalJSON writes the record as GET /api/records/{room} serves it.
func (r *Record) MarshalJSON() ([]byte, error) { return JSON(r, nil) }

// JSON writes the record as GET /api/records/{room} serves it, with
// "positions" when positions is not nil (?positions=1).
func JSON(r *Record, positions []Position) ([]byte, error) {
	v := recordJSON{Room: r.Room, Game: r.Game, Variant: r.Variant, Status: r.Status, Setup: r.Setup,
		Private: r.Private, Watch: r.Watch, Rated: r.Rated, Players: make([]players.Seated, len(r.Players)),
		Komi: r.Komi, Handicap: r.Handicap, Removal: r.Removal, Dead: r.Dead,
		Moves: make([]moveJSON, len(r.Moves)), Chat: make([]chatJSON, len(r.Chat)),
		Created: unixMs(r.Created), Started: unixMs(r.Started), Ended: unixMs(r.Ended), Positions: positions}
	if len(v.Setup) == 0 {
		v.Setup = json.RawMessage("null")
	}
	if r.Finished() {
		v.Seed = strconv.FormatUint(r.Seed, 10)
	}
	for i, p := range r.Players {
		p.Name = r.DisplayName(i)
		if p.Free() {
			p.Name = ""
		}
		v.Players[i] = players.Seated{Seat: i, Player: p}
	}
	if c := r.Clock; c != nil {
		v.Clock = &clockJSON{Base: c.Base.Seconds(), Increment: c.Increment.Seconds()}
	}
	for i, m := range r.Moves {
		v.Moves[i] = moveJSON(m)
	}
	for _, f := range r.Faults {
		v.Faults = append(v.Faults, faultJSON(f))
	}
	if res := r.Result; res != nil {
		v.Result = &resultJSON{Reason: res.Reason}
		if res.Winner >= 0 {
			w := res.Winner
			v.Result.Winner = &w
		}
	}
	for i, c := range r.Chat {
		v.Chat[i] = chatJSON{From: c.From, Role: c.Role(), Text: c.Text, At: c.At.UnixMilli()}
		if c.Seat >= 0 {
			s := c.Seat
			v.Chat[i].Seat = &s
		}
	}
	return json.Marshal(v)
}

func unixMs(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}

func itoa(n int) string { return strconv.Itoa(n) }
