// The record of a finished game, written to the records store (issue 16)
// by the save that finishes it.

package rooms

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
)

// DefaultRecordTimeout bounds one write of a record outside a save (a
// record a crash of an older version left unwritten, written on restore or
// on read).
const DefaultRecordTimeout = 5 * time.Second

// recordEntry is the records store's entry for the finished game of a
// room's snapshot: what the save that finishes the game writes with it
// (store.Room.Record), so that no game whose end was saved is ever missing
// from its players' games, whatever happens to the room after (its players
// leave at once, the process is killed).
func recordEntry(snapshot []byte) (*store.RecordEntry, error) {
	rec, err := RecordOf(snapshot)
	if err != nil {
		return nil, err
	}
	if rec.Status != records.StatusFinished {
		return nil, errors.New("record: the game of room " + rec.Room + " is not over")
	}
	data, err := records.Encode(rec)
	if err != nil {
		return nil, err
	}
	var players []string
	for _, p := range rec.Players {
		if p.ID != "" && p.Bot == "" {
			players = append(players, p.ID)
		}
	}
	_, rated := rec.RatedScore() // an aborted game is not owed a rating
	return &store.RecordEntry{Room: rec.Room, Data: data, Players: players, Ended: rec.Ended, Private: rec.Private,
		Rated: rated}, nil
}

// WriteRecord writes the record of a finished room's saved snapshot to the
// records store, within Config.RecordTimeout. A room's saves write it
// themselves; this repairs a record a store of an older version left
// unwritten (a crash between the last save and the record's write).
func (m *Manager) WriteRecord(ctx context.Context, snapshot []byte) error {
	if m.cfg.Store == nil {
		return errors.New("write record: no store")
	}
	e, err := recordEntry(snapshot)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.RecordTimeout)
	defer cancel()
	return m.cfg.Store.Records().PutRecord(ctx, *e)
}

// archiveRestored writes the record of a finished room being restored when
// the records store does not have it, each store call within
// Config.RecordTimeout. A room's finishing save writes its record, so
// only a room saved by an older version can lack one.
func (m *Manager) archiveRestored(id string, snapshot []byte) {
	if m.cfg.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.RecordTimeout)
	_, err := m.cfg.Store.Records().Record(ctx, id)
	cancel()
	if !errors.Is(err, store.ErrNotFound) {
		return
	}
	if err := m.WriteRecord(context.Background(), snapshot); err != nil {
		m.log.Warn("record: write on restore failed", zap.String("room", id), zap.Error(err))
	}
}
