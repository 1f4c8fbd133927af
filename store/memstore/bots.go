package memstore

import (
	"context"
	"fmt"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Bots = (*Store)(nil)

// botList is a player's bot accounts; it expires with the guest TTL after
// its last change.
type botList struct {
	bots    []store.Bot
	expires time.Time
}

// AddBot implements store.Bots.
func (s *Store) AddBot(ctx context.Context, owner string, b store.Bot, max int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, err)
	}
	if owner == "" || b.ID == "" {
		return fmt.Errorf("add bot %q of %q: empty id", b.ID, owner)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bots == nil {
		s.bots = map[string]*botList{}
	}
	for o, l := range s.bots { // registrations are rare: sweep them all
		if !now.Before(l.expires) {
			delete(s.bots, o)
		}
	}
	l := s.bots[owner]
	if l == nil {
		l = &botList{}
		s.bots[owner] = l
	}
	n := 0
	for _, o := range l.bots {
		if o.Turma == b.Turma {
			n++
		}
	}
	if n >= max {
		return fmt.Errorf("add bot of %s: %w", owner, store.ErrTooManyBots)
	}
	l.bots = append(l.bots, b)
	l.expires = now.Add(s.guestTTL)
	return nil
}

// OwnerBots implements store.Bots.
func (s *Store) OwnerBots(ctx context.Context, owner string) ([]store.Bot, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bots of %s: %w", owner, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.bots[owner]
	if l == nil || !now.Before(l.expires) {
		return []store.Bot{}, nil
	}
	return append([]store.Bot{}, l.bots...), nil
}

// guestLocked returns the live identity kept under player id, or nil. s.mu
// is held.
func (s *Store) guestLocked(id string, now time.Time) *guest {
	hash, ok := s.tokenOf[id]
	if !ok {
		return nil
	}
	if g, ok := s.byToken[hash]; ok && now.Before(g.expires) && g.p.ID == id {
		return g
	}
	return nil
}

// SetBotOpen implements store.Bots.
func (s *Store) SetBotOpen(ctx context.Context, id string, open bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("set bot %s open: %w", id, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guestLocked(id, now)
	if g == nil {
		return fmt.Errorf("set bot %s open: %w", id, store.ErrNotFound)
	}
	g.open = open
	return nil
}

// BotsOpen implements store.Bots.
func (s *Store) BotsOpen(ctx context.Context, ids []string) (map[string]bool, error) {
	if err := store.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		if g := s.guestLocked(id, now); g != nil && g.open && store.IsBotID(id) {
			out[id] = true
		}
	}
	return out, nil
}
