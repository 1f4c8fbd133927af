package rooms

import (
	"fmt"
	"strconv"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// PatchMember is implemented by members that opted into room.patch frames
// (hello feature "patch"): after the full room.state they get only what
// changed (presence comes apart, in room.presence: presence.go).
type PatchMember interface {
	WantsPatch() bool
}

func wantsPatch(m Member) bool {
	p, ok := m.(PatchMember)
	return ok && p.WantsPatch()
}

// publish sends the room's state to its members: the full room.state to
// those that did not opt into patches, a room.patch to those that did and
// hold the previous state, the full state to the others. skip, when not
// nil, gets nothing (it was sent the state with its history). Every member
// then holds the room's presence too.
func (r *Room) publish(skip Member) {
	st := r.roomState()
	base := r.patcher.Seq()
	var (
		full      *protocol.Frame
		patch     []byte
		patchDone bool
		spect     *protocol.Frame
		// seats: each seat's frame, made once (a game has one or two
		// seats: the array keeps them off the heap).
		seatBuf [2]seatFrame
		seats   = seatBuf[:0]
		slow    []Member
	)
	fullFrame := func() *protocol.Frame {
		if full == nil {
			full = r.encodeState(st)
		}
		return full
	}
	for id, mb := range r.members {
		if skip != nil && id == skip.ConnID() {
			continue
		}
		var f *protocol.Frame
		switch {
		case !mb.patch:
			f = fullFrame()
		case mb.at == st.Seq:
			continue
		default:
			if !patchDone {
				patchDone = true
				p, ok, err := r.patcher.Diff(&st)
				if err != nil {
					panic(fmt.Sprintf("room.patch: %v", err))
				}
				if ok {
					patch = p
				}
			}
			if patch == nil || mb.at != base {
				f = fullFrame()
				break
			}
			if mb.role == RolePlayer {
				for _, sf := range seats {
					if sf.seat == mb.seat {
						f = sf.f
					}
				}
				if f == nil {
					f = r.seatPatch(patch, &st, mb.seat)
					seats = append(seats, seatFrame{mb.seat, f})
				}
				break
			}
			if spect == nil {
				spect = protocol.NewFrame(patch)
			}
			f = spect
		}
		if mb.patch {
			mb.at = st.Seq
		}
		if !mb.m.Send(f) {
			slow = append(slow, mb.m)
		}
	}
	r.presenceTold()
	for _, m := range slow {
		r.drop(m)
	}
}

// seatFrame is the frame publish made for one seat.
type seatFrame struct {
	seat int
	f    *protocol.Frame
}

// seatPatch is the patch for a seated player: the spectators' patch plus
// the seat's own legal moves.
func (r *Room) seatPatch(patch []byte, st *protocol.RoomState, seat int) *protocol.Frame {
	var (
		p   []byte
		err error
	)
	switch {
	case st.LegalBy != nil:
		p, err = protocol.WithField(patch, "legal", orEmpty(st.LegalBy[strconv.Itoa(seat)]))
	case st.Turn != nil && *st.Turn == seat:
		p, err = protocol.WithField(patch, "legal", orEmpty(st.Legal))
	default:
		p, err = protocol.WithField(patch, "legal", []string{})
	}
	if err != nil {
		panic(fmt.Sprintf("room.patch: %v", err))
	}
	return protocol.NewFrame(p)
}

func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// sendState sends the full room.state, with the move history, to one
// member; a patch member then holds the current seq, which the next patch
// may not start from.
func (r *Room) sendState(mem Member) {
	if mb := r.members[mem.ConnID()]; mb != nil && mb.patch {
		mb.at = r.seq
	}
	r.send(mem, r.fullStateFrame(mem))
}
