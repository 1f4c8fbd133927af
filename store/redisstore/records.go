package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

// Records is the Redis store.Records, on a Store's client and prefix. Keys
// (P is the prefix):
//
//	P record:{<room>}          string: the encoded record, expiring (PX retention)
//	P player:<id>:records      sorted set: room ids by end time (ms), trimmed to
//	                           store.MaxPlayerRecords, expiring with the newest record
//
// A write is one pipeline (the keys live in different slots, so it is not a
// transaction): the record first, then the indexes, so that an index never
// names a record that was not written; a record whose index write was lost
// is still found by its room id, and the next write of it repairs the index.
type Records struct {
	c         redis.UniversalClient
	prefix    string
	retention time.Duration
	now       func() time.Time
}

var _ store.Records = (*Records)(nil)

// RecordsOption configures a Records.
type RecordsOption func(*Records)

// WithRecordRetention sets how long a record is kept after its last write;
// default store.DefaultRecordRetention.
func WithRecordRetention(d time.Duration) RecordsOption {
	return func(r *Records) {
		if d > 0 {
			r.retention = d
		}
	}
}

// Records returns the records store on s's client (closed with s).
func (s *Store) Records(opts ...RecordsOption) *Records {
	r := &Records{c: s.c, prefix: s.prefix, retention: store.DefaultRecordRetention, now: time.Now}
	for _, o := range opts {
		o(r)
	}
	return r
}

// RecordKey is the key of a room's record.
func (r *Records) RecordKey(room string) string { return r.prefix + "record:{" + room + "}" }

// PlayerRecordsKey is the key of a player's index of games.
func (r *Records) PlayerRecordsKey(player string) string {
	return r.prefix + "player:" + player + ":records"
}

// PutRecord implements store.Records.
func (r *Records) PutRecord(ctx context.Context, e store.RecordEntry) error {
	if e.Room == "" || len(e.Data) == 0 {
		return fmt.Errorf("put record: room id and data are required")
	}
	ended := e.Ended.UnixMilli()
	oldest := strconv.FormatInt(r.now().Add(-r.retention).UnixMilli(), 10)
	_, err := r.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, r.RecordKey(e.Room), e.Data, r.retention)
		for _, id := range e.Players {
			k := r.PlayerRecordsKey(id)
			p.ZAdd(ctx, k, redis.Z{Score: float64(ended), Member: e.Room})
			p.ZRemRangeByRank(ctx, k, 0, -int64(store.MaxPlayerRecords)-1)
			p.ZRemRangeByScore(ctx, k, "-inf", "("+oldest)
			p.PExpire(ctx, k, r.retention)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("put record %s: %w", e.Room, err)
	}
	return nil
}

// Record implements store.Records.
func (r *Records) Record(ctx context.Context, room string) ([]byte, error) {
	b, err := r.c.Get(ctx, r.RecordKey(room)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("record %s: %w", room, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", room, err)
	}
	return b, nil
}

// PlayerRecords implements store.Records. Games whose record has expired
// are left out (an index entry may outlive its record by less than the
// time between two of the player's games).
func (r *Records) PlayerRecords(ctx context.Context, player string, before time.Time, limit int) ([]store.RecordRef, error) {
	if limit <= 0 {
		return nil, nil
	}
	max := "+inf"
	if !before.IsZero() {
		max = "(" + strconv.FormatInt(before.UnixMilli(), 10)
	}
	min := "(" + strconv.FormatInt(r.now().Add(-r.retention).UnixMilli(), 10)
	zs, err := r.c.ZRevRangeByScoreWithScores(ctx, r.PlayerRecordsKey(player), &redis.ZRangeBy{
		Max: max, Min: min, Count: int64(limit)}).Result()
	if err != nil {
		return nil, fmt.Errorf("records of player %s: %w", player, err)
	}
	out := make([]store.RecordRef, 0, len(zs))
	for _, z := range zs {
		id, _ := z.Member.(string)
		out = append(out, store.RecordRef{Room: id, Ended: time.UnixMilli(int64(z.Score)).UTC()})
	}
	return out, nil
}

var _ store.RecordAnalyses = (*Records)(nil)

// AnalysisKey is the key of a room's game analysis: P record:{<room>}:analysis,
// a string expiring with the retention from its write.
func (r *Records) AnalysisKey(room string) string { return r.RecordKey(room) + ":analysis" }

// PutAnalysis implements store.RecordAnalyses.
func (r *Records) PutAnalysis(ctx context.Context, room string, data []byte) error {
	if err := r.c.Set(ctx, r.AnalysisKey(room), data, r.retention).Err(); err != nil {
		return fmt.Errorf("put analysis %s: %w", room, err)
	}
	return nil
}

// Analysis implements store.RecordAnalyses.
func (r *Records) Analysis(ctx context.Context, room string) ([]byte, error) {
	b, err := r.c.Get(ctx, r.AnalysisKey(room)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("analysis %s: %w", room, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("analysis %s: %w", room, err)
	}
	return b, nil
}
