package rooms

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// PatchMember is implemented by members that opted into room.patch frames
// (hello feature "patch"): after the full room.state they get only what
// changed, and spectator-count changes reach them at most every patchDelay.
type PatchMember interface {
	WantsPatch() bool
}

func wantsPatch(m Member) bool {
	p, ok := m.(PatchMember)
	return ok && p.WantsPatch()
}

// patchDelay is how long a spectator joining or leaving waits before it
// reaches the members that take patches: a crowd of N joining costs each of
// them one frame a second rather than N frames. (At 100 ms, 5,000
// spectators joining on a loaded machine cost about two million writes of
// these small frames, and the joins slowed down in proportion.)
const patchDelay = time.Second

// publish sends the room's state to its members: the full room.state to
// those that did not opt into patches, a room.patch to those that did and
// hold the previous state, the full state to the others. With coalesce the
// patch members that are in sync wait for the next change or the flush
// timer. With patchOnly the members without patches are skipped (they had
// this state already). skip, when not nil, gets nothing (it was sent the
// state with its history).
func (r *Room) publish(coalesce, patchOnly bool, skip Member) {
	st := r.roomState()
	base := r.patcher.Seq()
	var (
		full      *protocol.Frame
		patch     []byte
		patchDone bool
		spect     *protocol.Frame
		seats     map[int]*protocol.Frame
		slow      []Member
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
			if patchOnly {
				continue
			}
			f = fullFrame()
		case mb.at == st.Seq:
			continue
		case coalesce:
			// A spectator-count change waits for the next move or the
			// flush timer, also for a member that joined since the last
			// diff (it holds a state newer than the patcher's base and
			// gets the full state then, once, not at every join of a
			// crowd).
			r.schedulePatchFlush()
			continue
		default:
			if !coalesce && !patchDone {
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
				if seats == nil {
					seats = map[int]*protocol.Frame{}
				}
				if f = seats[mb.seat]; f == nil {
					f = r.seatPatch(patch, &st, mb.seat)
					seats[mb.seat] = f
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
	for _, m := range slow {
		r.drop(m)
	}
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

// schedulePatchFlush sends the pending spectator-count change to the patch
// members after patchDelay, unless a move carries it first.
func (r *Room) schedulePatchFlush() {
	if r.patchFlush {
		return
	}
	r.patchFlush = true
	r.later(patchDelay, func() {
		r.patchFlush = false
		if r.patcher.Seq() != r.seq {
			r.publish(false, true, nil)
		}
	})
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
