package redisstore

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

// PlayerNames implements store.PlayerNames in one pipeline: the name and
// token of each id's identity hash (PlayerKey), kept when the token gives
// back the id (a person's or a bot account's) (a key by token hash or a stray hash is not a match).
func (s *Store) PlayerNames(ctx context.Context, ids []string) (map[string]string, error) {
	if err := store.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.SliceCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HMGet(ctx, s.PlayerKey(id), "token", "name")
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("player names: %w", err)
	}
	for i, id := range ids {
		v := cmds[i].Val()
		if len(v) != 2 {
			continue
		}
		token, _ := v[0].(string)
		name, _ := v[1].(string)
		if token != "" && derivedID(id, token) {
			out[id] = name
		}
	}
	return out, nil
}
