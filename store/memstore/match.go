package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Matcher = (*Store)(nil)

// Match implements store.Matcher.
func (s *Store) Match(ctx context.Context, queue string, e store.MatchEntry) (store.MatchEntry, bool, error) {
	if err := ctx.Err(); err != nil {
		return store.MatchEntry{}, false, fmt.Errorf("match in %s: %w", queue, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.queues == nil {
		s.queues = map[string][]store.MatchEntry{}
	}
	q := s.queues[queue]
	if i := store.Pick(e, q, s.matchNow()); i >= 0 {
		o := q[i]
		s.queues[queue] = slices.Delete(q, i, i+1)
		return o, true, nil
	}
	q = slices.DeleteFunc(q, func(o store.MatchEntry) bool { return o == e })
	s.queues[queue] = append(q, e)
	return store.MatchEntry{}, false, nil
}

// Unqueue implements store.Matcher.
func (s *Store) Unqueue(ctx context.Context, queue string, e store.MatchEntry) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("unqueue from %s: %w", queue, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	was := len(s.queues[queue])
	q := slices.DeleteFunc(s.queues[queue], func(o store.MatchEntry) bool { return o == e })
	removed := len(q) < was
	if len(q) == 0 {
		delete(s.queues, queue)
	} else {
		s.queues[queue] = q
	}
	return removed, nil
}
