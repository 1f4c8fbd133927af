package redisstore

// PendingSaves is the number of saves queued for the next pipeline.
func (s *Store) PendingSaves() int {
	s.saves.mu.Lock()
	defer s.saves.mu.Unlock()
	return len(s.saves.pending)
}
