package memstore

import (
	"context"

	"github.com/tabuleiro/tabuleiro/store"
)

// PlayerNames implements store.PlayerNames.
func (s *Store) PlayerNames(ctx context.Context, ids []string) (map[string]string, error) {
	if err := store.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		if g := s.guestLocked(id, now); g != nil {
			out[id] = g.p.Name
		}
	}
	return out, nil
}
