package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Torneios = (*Store)(nil)

// TorneioKey is the key of a tournament's hash (fields data, finished,
// created).
func (s *Store) TorneioKey(id string) string { return s.prefix + "torneio:" + id }

// TorneioAnswersKey is the key of the answers to a tournament's
// invitations: a hash, player id -> answer.
func (s *Store) TorneioAnswersKey(id string) string { return s.prefix + "torneio:" + id + ":answers" }

// TorneiosKey is the key of the tournament index, a sorted set of ids by
// creation time (milliseconds), trimmed to store.MaxTorneios.
func (s *Store) TorneiosKey() string { return s.prefix + "torneios" }

// SaveTorneio implements store.Torneios: the hash with its expiry, then the
// index (two keys that may live in different cluster slots, so two calls;
// an index entry whose hash expired is skipped by readers).
func (s *Store) SaveTorneio(ctx context.Context, t store.Torneio) error {
	ttl := s.roomTTL
	if t.Finished {
		ttl = s.retention
	}
	fin := "0"
	if t.Finished {
		fin = "1"
	}
	key := s.TorneioKey(t.ID)
	if _, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, key, "data", t.Data, "finished", fin, "created", t.Created.UnixMilli())
		p.Expire(ctx, key, ttl)
		return nil
	}); err != nil {
		return fmt.Errorf("save torneio %s: %w", t.ID, err)
	}
	if _, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, s.TorneiosKey(), redis.Z{Score: float64(t.Created.UnixMilli()), Member: t.ID})
		p.ZRemRangeByRank(ctx, s.TorneiosKey(), 0, -store.MaxTorneios-1)
		return nil
	}); err != nil {
		return fmt.Errorf("index torneio %s: %w", t.ID, err)
	}
	return nil
}

// LoadTorneio implements store.Torneios.
func (s *Store) LoadTorneio(ctx context.Context, id string) (store.Torneio, error) {
	vals, err := s.c.HMGet(ctx, s.TorneioKey(id), "data", "finished").Result()
	if err != nil {
		return store.Torneio{}, fmt.Errorf("load torneio %s: %w", id, err)
	}
	data, ok := vals[0].(string)
	if !ok {
		return store.Torneio{}, store.ErrNotFound
	}
	fin, _ := vals[1].(string)
	return store.Torneio{ID: id, Data: []byte(data), Finished: fin == "1"}, nil
}

// TorneioIDs implements store.Torneios.
func (s *Store) TorneioIDs(ctx context.Context, limit int) ([]string, error) {
	if limit <= 0 {
		return nil, nil
	}
	ids, err := s.c.ZRevRange(ctx, s.TorneiosKey(), 0, int64(min(limit, store.MaxTorneios))-1).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("torneio index: %w", err)
	}
	return ids, nil
}

// AnswerTorneio implements store.Torneios: the field and the hash's expiry
// in one MULTI.
func (s *Store) AnswerTorneio(ctx context.Context, id, who, answer string) error {
	if err := store.CheckTorneioAnswer(ctx, id, who, answer); err != nil {
		return err
	}
	key := s.TorneioAnswersKey(id)
	if _, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, key, who, answer)
		p.PExpire(ctx, key, s.roomTTL)
		return nil
	}); err != nil {
		return fmt.Errorf("answer torneio %s: %w", id, err)
	}
	return nil
}

// TorneioAnswers implements store.Torneios.
func (s *Store) TorneioAnswers(ctx context.Context, id string) (map[string]string, error) {
	m, err := s.c.HGetAll(ctx, s.TorneioAnswersKey(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("torneio %s answers: %w", id, err)
	}
	return m, nil
}
