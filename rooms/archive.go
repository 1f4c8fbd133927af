// The record of a finished game, written to the records store (issue 16).

package rooms

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
)

// Defaults of the records' writes.
const (
	// DefaultRecordTimeout bounds one write of a record.
	DefaultRecordTimeout = 5 * time.Second
	// recordRetries is how many times a failed write is tried again, a
	// recordRetryEvery apart; past them the record is written when the
	// room is next restored or its record is next asked for.
	recordRetries    = 5
	recordRetryEvery = 5 * time.Second
)

// archiver is the write of a finished room's record to Config.Records. It
// belongs to the room goroutine.
type archiver struct {
	// snap is the saved snapshot whose record is still to be written, nil
	// when there is none.
	snap  []byte
	tries int
	timer wakeup
}

// archiveSaved asks for the record of the snapshot just saved to be
// written, when the game is over: on the room goroutine once the command
// under way is done (its broadcast first), within Config.RecordTimeout.
// Every save of a finished room (a chat line after the end, say) writes
// the record again: the write is idempotent.
func (r *Room) archiveSaved(snap []byte) {
	if r.m.cfg.Records == nil || r.status != StatusFinished {
		return
	}
	r.arch.snap, r.arch.tries = snap, 0
	r.arch.timer.arm(r, 0, r.writeRecord)
}

// writeRecord writes the pending record; a failure is tried again later.
func (r *Room) writeRecord() {
	snap := r.arch.snap
	if snap == nil {
		return
	}
	err := r.m.WriteRecord(context.Background(), snap)
	if err == nil {
		r.arch.snap = nil
		return
	}
	r.arch.tries++
	r.log.Warn("record: write failed", zap.String("room", r.id), zap.Int("try", r.arch.tries), zap.Error(err))
	if r.arch.tries <= recordRetries {
		r.arch.timer.arm(r, recordRetryEvery, r.writeRecord)
	}
}

// WriteRecord writes the record of a finished room's saved snapshot to the
// records store, within Config.RecordTimeout. It is what the room does at
// the end of a game, and what repairs a record whose write was lost (a
// crash between the last save and the record's write).
func (m *Manager) WriteRecord(ctx context.Context, snapshot []byte) error {
	if m.cfg.Records == nil {
		return errors.New("write record: no records store")
	}
	rec, err := RecordOf(snapshot)
	if err != nil {
		return err
	}
	if rec.Status != records.StatusFinished {
		return errors.New("write record: the game of room " + rec.Room + " is not over")
	}
	data, err := records.Encode(rec)
	if err != nil {
		return err
	}
	var players []string
	for _, p := range rec.Players {
		if p.ID != "" && p.Bot == "" {
			players = append(players, p.ID)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.RecordTimeout)
	defer cancel()
	return m.cfg.Records.PutRecord(ctx, store.RecordEntry{Room: rec.Room, Data: data, Players: players, Ended: rec.Ended})
}

// archiveRestored writes the record of a finished room being restored when
// the records store does not have it (its write was lost), each store call
// within Config.RecordTimeout. It needs nothing of the room but its
// snapshot.
func (m *Manager) archiveRestored(id string, snapshot []byte) {
	if m.cfg.Records == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.RecordTimeout)
	_, err := m.cfg.Records.Record(ctx, id)
	cancel()
	if !errors.Is(err, store.ErrNotFound) {
		return
	}
	if err := m.WriteRecord(context.Background(), snapshot); err != nil {
		m.log.Warn("record: write on restore failed", zap.String("room", id), zap.Error(err))
	}
}
