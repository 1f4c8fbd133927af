package httpapi

import (
	"net/http"
	"time"
)

// ndjson starts a long-lived NDJSON answer: the server's write deadline is
// lifted (each write sets its own) and the headers are sent.
func ndjson(w http.ResponseWriter) *http.ResponseController {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	return rc
}

var newline = []byte{'\n'}

// streamWriteWait bounds each write of a stream.
const streamWriteWait = 10 * time.Second

// writeLine writes one line and flushes it within streamWriteWait.
func writeLine(w http.ResponseWriter, rc *http.ResponseController, line []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(streamWriteWait))
	// line is shared (one event, several streams; a frame, several
	// members): written as it is, never appended to.
	if _, err := w.Write(line); err != nil {
		return err
	}
	if _, err := w.Write(newline); err != nil {
		return err
	}
	return rc.Flush()
}
