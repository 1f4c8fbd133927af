package rooms

import "time"

// wakeup is one of a room's timers (the flag, the abort of a first move
// that does not come, the adjournment). It only wakes the room goroutine,
// which then reads its own state again; it belongs to that goroutine.
type wakeup struct {
	t *time.Timer
	// gen changes with every arm and disarm: a timer that fires after
	// either, its function already posted, does nothing.
	gen int
}

// arm runs f on r's goroutine after d, in place of whatever was armed.
func (w *wakeup) arm(r *Room, d time.Duration, f func()) {
	w.disarm()
	gen := w.gen
	w.t = time.AfterFunc(d, func() {
		r.post(func() {
			if gen != w.gen {
				return
			}
			w.t = nil
			f()
		})
	})
}

// disarm stops the timer; what it would run never runs.
func (w *wakeup) disarm() {
	w.gen++
	if w.t != nil {
		w.t.Stop()
		w.t = nil
	}
}

// armed reports whether the timer is set and has not fired.
func (w *wakeup) armed() bool { return w.t != nil }
