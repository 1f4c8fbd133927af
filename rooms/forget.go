// A closed account leaves its rooms for good (DELETE /api/account).

package rooms

import "errors"

// Forget takes a closed account out of the room: its unfinished game ends
// as if it resigned, and every seat it held shows name from now on, in the
// room's state, its snapshot and so its game's record, which the save of a
// finished room writes again (archive.go). done, when not nil, is called
// on the room's goroutine with the outcome of the save. false when the
// room has closed.
func (r *Room) Forget(playerID, name string, done func(error)) bool {
	return r.post(func() {
		err := r.forget(playerID, name)
		if done != nil {
			done(err)
		}
	})
}

func (r *Room) forget(playerID, name string) error {
	seat := r.seatOf(playerID)
	if seat < 0 {
		return nil // not seated: nothing of the account here
	}
	perr := r.change(logEntry{Kind: "forget", Seat: &seat}, func() {
		for i, s := range r.seats {
			if s.Bot == "" && s.ID == playerID {
				r.seats[i].Name = name
			}
		}
		if r.status != StatusFinished {
			r.finish(r.resignation(seat))
		}
	})
	if perr != nil {
		return errors.New(perr.Msg)
	}
	return nil
}
