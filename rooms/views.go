// Views: the room.state a room sends, its frames and their broadcast.

package rooms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

func (r *Room) replyErr(mem Member, id json.RawMessage, e *protocol.Error) {
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Errors.WithLabelValues(string(e.Code)).Inc()
	}
	r.send(mem, protocol.ErrorFrame(id, r.id, e))
}

func (r *Room) send(mem Member, f *protocol.Frame) {
	if !mem.Send(f) {
		r.drop(mem)
	}
}

// State builds the room.state message.
func (r *Room) roomState() protocol.RoomState {
	seats := make([]protocol.Player, len(r.seats))
	for i, s := range r.seats {
		if s.Bot != "" && s.Name == "" {
			s.Name = "bot"
		}
		seats[i] = protocol.Player{Seated: players.Seated{Seat: i, Player: s}, Connected: r.connected(i)}
		if r.status == StatusPlaying && i < len(r.goneSince) && !r.goneSince[i].IsZero() {
			seats[i].GoneSince = r.goneSince[i].UnixMilli()
			if at := r.claimableAt(i); !at.IsZero() {
				seats[i].ClaimableAt = at.UnixMilli()
			}
		}
	}
	st := protocol.RoomState{
		Type: protocol.TypeRoomState, Room: r.id, Game: r.info.ID, Variant: r.variant, Seq: r.seq,
		Status: r.status, Players: seats, Spectators: r.spectators(), Board: r.state.Board(),
		LastMove: r.lastMove, Score: r.state.Score(), Clocks: r.clocksView(r.now()), Result: r.result, Private: r.private,
		Watch: r.watch, Rated: r.rated, RatingChanges: r.ratingChanges, Rematch: r.rematch, Next: r.next, Extra: r.state.Extra(), Legal: []string{},
		SpectatorChat: r.spectatorChat(),
	}
	if due := r.abortDue(); !due.IsZero() {
		at := due.UnixMilli()
		st.AbortAt = &at
	}
	st.Abortable = r.abortable()
	if r.inScoring() {
		st.Status = StatusScoring
		if by := r.scoreBy(); !by.IsZero() {
			at := by.UnixMilli()
			st.ScoreBy = &at
		}
	}
	if r.offers.draw >= 0 {
		d := r.offers.draw
		st.DrawOffer = &d
	}
	if t := r.offers.takeback; t != nil {
		c := *t
		st.Takeback = &c
	}
	if r.status == StatusPlaying {
		if t, ok := r.state.Turn(); ok {
			st.Turn = &t
			if l := r.state.Legal(t); l != nil {
				st.Legal = l
			}
		} else if !r.state.Outcome().Over {
			st.LegalBy = map[string][]string{}
			for i := range r.seats {
				st.LegalBy[strconv.Itoa(i)] = r.state.Legal(i)
			}
		}
	}
	return st
}

func (r *Room) stateFrame() *protocol.Frame {
	return r.encodeState(r.roomState())
}

// fullStateFrame is the room.state with the move history, for one member
// that joins or resyncs.
func (r *Room) fullStateFrame(mem Member) *protocol.Frame {
	return r.withHistory(r.roomState(), mem.PlayerID())
}

// withHistory encodes st with the move history and the chat as viewer (a
// player id) reads it (chatFor).
func (r *Room) withHistory(st protocol.RoomState, viewer string) *protocol.Frame {
	st.Moves = r.history
	if st.Moves == nil {
		st.Moves = []protocol.LastMove{}
	}
	st.Chat = r.chatFor(viewer)
	return r.encodeState(st)
}

func (r *Room) encodeState(st protocol.RoomState) *protocol.Frame {
	f, err := protocol.Encode(st)
	if err != nil {
		panic(fmt.Sprintf("encode room.state: %v", err))
	}
	return f
}

// broadcast encodes one room.state (and one room.patch per kind of patch
// member) and hands it to every member.
func (r *Room) broadcast() { r.broadcastWith(nil) }

// broadcastJoin is broadcast after joiner joined: joiner gets the state with
// the move history, the others the usual frames.
func (r *Room) broadcastJoin(joiner Member) {
	r.sendState(joiner)
	r.broadcastWith(joiner)
}

// broadcastWith publishes the state to every member but skip (nil: none).
func (r *Room) broadcastWith(skip Member) {
	start := time.Now()
	r.updated = start.UTC()
	r.m.putSummary(r)
	r.publish(skip)
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Broadcast.Observe(time.Since(start).Seconds())
	}
	r.m.summaryChanged(r)
}

// broadcastHistory sends every member the full room.state with the move
// history, after a takeback: a client cannot build the shortened history
// from lastMove. Patch members then hold this state, and the next patch
// applies to it.
func (r *Room) broadcastHistory() {
	r.updated = time.Now().UTC()
	st := r.roomState()
	if _, _, err := r.patcher.Diff(&st); err != nil {
		panic(fmt.Sprintf("room.patch: %v", err))
	}
	// One frame per view of the chat: the players', the spectators', and
	// one for each person who mutes someone.
	frames := map[string]*protocol.Frame{}
	var slow []Member
	for _, mb := range r.members {
		if mb.patch {
			mb.at = st.Seq
		}
		viewer := mb.m.PlayerID()
		key, _ := r.chatRole(viewer)
		if len(r.chatState.mutes[viewer]) > 0 {
			key = "mutes:" + viewer
		}
		f := frames[key]
		if f == nil {
			f = r.withHistory(st, viewer)
			frames[key] = f
		}
		if !mb.m.Send(f) {
			slow = append(slow, mb.m)
		}
	}
	for _, m := range slow {
		r.drop(m)
	}
	r.presenceTold()
	r.m.setSummary(r)
}

// fanout hands f to every member but skip (nil: none).
func (r *Room) fanout(f *protocol.Frame, skip Member) {
	var slow []Member
	for id, mb := range r.members {
		if skip != nil && id == skip.ConnID() {
			continue
		}
		if !mb.m.Send(f) {
			slow = append(slow, mb.m)
		}
	}
	for _, m := range slow {
		r.drop(m)
	}
}

func (r *Room) summary() protocol.RoomSummary {
	seats := make([]protocol.Player, len(r.seats))
	for i, s := range r.seats {
		seats[i] = protocol.Player{Seated: players.Seated{Seat: i, Player: s}, Connected: r.connected(i)}
	}
	return protocol.RoomSummary{ID: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status,
		Players: seats, Spectators: r.spectators(), Watch: r.watch, Created: r.created.UnixMilli(),
		Adjourned: r.adjournedNow(), Private: r.private, Rated: r.rated}
}
