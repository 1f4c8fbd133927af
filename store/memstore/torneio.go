package memstore

import (
	"context"
	"fmt"
	"maps"
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

// trimTorneios drops expired tournaments and answers and, past
// store.MaxTorneios, the oldest tournaments. s.mu is held.
func (s *Store) trimTorneios() {
	now := s.now()
	for id, e := range s.torneios {
		if !e.expiresAt.After(now) {
			delete(s.torneios, id)
		}
	}
	for id, a := range s.answers {
		if !a.expiresAt.After(now) {
			delete(s.answers, id)
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

// torneioAnswers are the answers to one tournament's invitations.
type torneioAnswers struct {
	by        map[string]string
	expiresAt time.Time // idle-room TTL after the last answer
}

// AnswerTorneio implements store.Torneios.
func (s *Store) AnswerTorneio(ctx context.Context, id, who, answer string) error {
	if err := store.CheckTorneioAnswer(ctx, id, who, answer); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trimTorneios()
	if s.answers == nil {
		s.answers = map[string]*torneioAnswers{}
	}
	a := s.answers[id]
	if a == nil {
		a = &torneioAnswers{by: map[string]string{}}
		s.answers[id] = a
	}
	a.by[who] = answer
	a.expiresAt = s.now().Add(s.roomTTL)
	return nil
}

// TorneioAnswers implements store.Torneios.
func (s *Store) TorneioAnswers(ctx context.Context, id string) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("torneio %s answers: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.answers[id]
	if a == nil || !a.expiresAt.After(s.now()) {
		return map[string]string{}, nil
	}
	return maps.Clone(a.by), nil
}
