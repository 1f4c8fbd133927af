// Bot notes: what a bot account did, move by move (docs/bots-api.md, "What
// your bot did"). A bot account may send a short text (info) with each
// move: its depth, its evaluation, what it printed. The room keeps it
// beside the move's time, and keeps the answers it refused a bot account
// (an illegal move, with the error) and a bot account's own resignation
// for an error of its program (reason bot_error). The record carries them;
// the records API shows the info and the faults to the bot's owner only.

package rooms

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
)

// ReasonBotError is the result reason of a game a bot account resigned
// because its program failed (it raised, answered an illegal move or took
// too long): the other seat wins, as by a resignation.
const ReasonBotError = "bot_error"

// Bounds of the notes a room keeps.
const (
	// MaxInfoBytes bounds a move's info text: a longer one is cut (at a
	// character's boundary), never refused.
	MaxInfoBytes = 200
	// MaxFaults bounds the faults a room keeps: past it the oldest go.
	MaxFaults = 32
)

// botNotes is what bot accounts told the room beside their moves. It
// belongs to the room goroutine.
type botNotes struct {
	// info[i] is the text the mover of Room.history[i] sent with it. It
	// is shorter than the history when the last moves carried none, and
	// nil in a game where no move carried any.
	info []string
	// faults are the answers the room refused bot accounts and their
	// bot_error resignations, oldest first, the last MaxFaults.
	faults []faultSnap
}

// faultSnap is one fault in a snapshot (and in the room's memory).
type faultSnap struct {
	// Ply is the number of moves played before it: the fault was an
	// answer to the position after Ply moves.
	Ply  int    `json:"ply"`
	Seat int    `json:"seat"`
	Move string `json:"move,omitempty"`
	// Code is the error's code (illegal_move), or ReasonBotError for the
	// bot's own resignation; Message the room's error message.
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	Info    string `json:"info,omitempty"`
	// Ms is how long the seat had been to move, by the room's clock.
	Ms int64 `json:"ms"`
}

// CleanInfo is a bot's info text as the room keeps it: CleanText, cut to
// MaxInfoBytes.
func CleanInfo(s string) string {
	s = CleanText(s)
	if len(s) <= MaxInfoBytes {
		return s
	}
	cut := MaxInfoBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut])
}

// noteMove keeps the info of the move just appended to the history.
func (n *botNotes) noteMove(history int, info string) {
	if info == "" {
		return
	}
	for len(n.info) < history-1 {
		n.info = append(n.info, "")
	}
	n.info = append(n.info[:history-1], info)
}

// cut forgets the info of the moves past the first keep.
func (n *botNotes) cut(keep int) {
	n.info = n.info[:min(keep, len(n.info))]
}

// after is the info of the moves past the first keep (nil when none).
func (n *botNotes) after(keep int) []string {
	if keep >= len(n.info) {
		return nil
	}
	return append([]string(nil), n.info[keep:]...)
}

// fault keeps f, dropping the oldest past MaxFaults.
func (n *botNotes) fault(f faultSnap) {
	if len(n.faults) >= MaxFaults {
		n.faults = append(n.faults[:0], n.faults[len(n.faults)-MaxFaults+1:]...)
	}
	n.faults = append(n.faults, f)
}

// MoveInfo plays move in the seat mem's player holds, with info, a bot
// account's note on it (kept only for bot accounts; "" for none). A move a
// bot account plays that the room refuses as illegal is kept as a fault.
func (r *Room) MoveInfo(mem Member, move, info string, id json.RawMessage) bool {
	return r.post(func() {
		seat, perr := r.playerSeat(mem)
		if perr == nil {
			note := ""
			if players.IsBotID(mem.PlayerID()) {
				note = CleanInfo(info)
			}
			perr = r.playNoted(seat, move, "human", note)
			if perr != nil && perr.Code == protocol.CodeIllegalMove && players.IsBotID(mem.PlayerID()) {
				r.noteFault(seat, move, perr.Code, perr.Msg, note)
			}
		}
		if perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// noteFault keeps a bot account's refused answer, saved with the room's
// next change.
func (r *Room) noteFault(seat int, move string, code protocol.Code, msg, info string) {
	if len(move) > records.MaxMoveLen {
		move = move[:records.MaxMoveLen]
	}
	move = strings.ToValidUTF8(move, "")
	r.rec.notes.fault(faultSnap{Ply: len(r.history), Seat: seat, Move: move, Code: string(code),
		Message: CleanInfo(msg), Info: info, Ms: r.moveTook(seat, r.now())})
	r.persist.forceSnap = true // saved with the room's next change, which so writes the snapshot
}

// ResignBotError is a bot account's resignation because its program failed
// (docs/bots-api.md): the game ends as by a resignation, with reason
// bot_error, and info (what failed) is kept as the bot's fault, shown to its
// owner. Only a bot account may give this reason.
func (r *Room) ResignBotError(mem Member, info string, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.resignBotError(mem, info); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

func (r *Room) resignBotError(mem Member, info string) *protocol.Error {
	if !players.IsBotID(mem.PlayerID()) {
		return protocol.Errorf(protocol.CodeBadRequest, "only a bot account resigns with reason %s", ReasonBotError)
	}
	kept := false
	return r.resignFor(mem, ReasonBotError, func(seat int) {
		switch {
		case seat >= 0:
			r.rec.notes.fault(faultSnap{Ply: len(r.history), Seat: seat, Code: ReasonBotError, Info: CleanInfo(info), Ms: r.moveTook(seat, r.now())})
			kept = true
		case kept: // the resignation was rolled back: so is its fault
			r.rec.notes.faults = r.rec.notes.faults[:len(r.rec.notes.faults)-1]
		}
	})
}

// appendNotesFields appends the snapshot's notes fields (moveInfo,
// faults), each only when it has something.
func (r *Room) appendNotesFields(b []byte) ([]byte, error) {
	n := &r.rec.notes
	if len(n.info) > 0 {
		b = append(b, `,"moveInfo":[`...)
		for i, s := range n.info {
			if i > 0 {
				b = append(b, ',')
			}
			b = engine.AppendJSONString(b, s)
		}
		b = append(b, ']')
	}
	if len(n.faults) > 0 {
		j, err := json.Marshal(n.faults) // rare: only after a bot's fault
		if err != nil {
			return nil, err
		}
		b = append(b, `,"faults":`...)
		b = append(b, j...)
	}
	return b, nil
}

// notesFromSnapshot restores the notes of a snapshot whose history is
// restored.
func (r *Room) notesFromSnapshot(s snapshotV1) error {
	if len(s.MoveInfo) > len(r.history) {
		return fmt.Errorf("snapshot of room %s: info for %d moves of %d", s.ID, len(s.MoveInfo), len(r.history))
	}
	r.rec.notes.info = s.MoveInfo
	for _, f := range s.Faults {
		if f.Seat < 0 || f.Seat >= len(r.seats) || f.Ply < 0 {
			return fmt.Errorf("snapshot of room %s: fault of seat %d at ply %d", s.ID, f.Seat, f.Ply)
		}
		r.rec.notes.fault(f)
	}
	return nil
}

// recordNotes fills rec's notes from the snapshot s.
func recordNotes(rec *records.Record, s snapshotV1) {
	for i, info := range s.MoveInfo {
		if i < len(rec.Moves) {
			rec.Moves[i].Info = info
		}
	}
	for _, f := range s.Faults {
		if f.Seat < 0 || f.Seat >= len(rec.Players) || f.Ply < 0 || f.Ply > len(rec.Moves) {
			continue
		}
		rec.Faults = append(rec.Faults, records.Fault{Ply: f.Ply, Seat: f.Seat, Move: f.Move, Code: f.Code,
			Message: f.Message, Info: f.Info, Ms: max(f.Ms, 0)})
	}
}
