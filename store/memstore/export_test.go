package memstore

// RoomCount is the number of rooms held, expired or not, for tests.
func RoomCount(s *Store) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rooms)
}

// PlayerCount is the number of identities held, expired or not, for tests.
func PlayerCount(s *Store) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.players.byID)
}
