package memstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Torneios = (*Store)(nil)

type torneioEntry struct {
	t store.Torneio
	// expiresAt: retention after a finish, idle-room TTL otherwise.
	expiresAt time.Time
}

// SaveTorneio implements store.Torneios.
func (s *Store) SaveTorneio(_ context.Context, t store.Torneio) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.torneios == nil {
		s.torneios = map[string]torneioEntry{}
	}
	ttl := s.roomTTL
	if t.Finished {
		ttl = s.retention
	}
	t.Data = slices.Clone(t.Data)
	s.torneios[t.ID] = torneioEntry{t: t, expiresAt: s.now().Add(ttl)}
	s.trimTorneios()
	return nil
}

// trimTorneios drops expired tournaments and, past store.MaxTorneios, the
// oldest. s.mu is held.
func (s *Store) trimTorneios() {
	now := s.now()
	for id, e := range s.torneios {
		if !e.expiresAt.After(now) {
			delete(s.torneios, id)
		}
	}
	if len(s.torneios) <= store.MaxTorneios {
		return
	}
	ids := s.sortedTorneios()
	for _, id := range ids[store.MaxTorneios:] {
		delete(s.torneios, id)
	}
}

// sortedTorneios lists the ids newest first. s.mu is held.
func (s *Store) sortedTorneios() []string {
	ids := make([]string, 0, len(s.torneios))
	for id := range s.torneios {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if c := s.torneios[b].t.Created.Compare(s.torneios[a].t.Created); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return ids
}

// LoadTorneio implements store.Torneios.
func (s *Store) LoadTorneio(_ context.Context, id string) (store.Torneio, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.torneios[id]
	if !ok || !e.expiresAt.After(s.now()) {
		return store.Torneio{}, store.ErrNotFound
	}
	t := e.t
	t.Data = slices.Clone(t.Data)
	return t, nil
}

// TorneioIDs implements store.Torneios.
func (s *Store) TorneioIDs(_ context.Context, limit int) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trimTorneios()
	ids := s.sortedTorneios()
	limit = max(limit, 0)
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return ids, nil
}
