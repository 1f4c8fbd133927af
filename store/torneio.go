package store

import (
	"context"
	"time"
)

// MaxTorneios bounds the tournaments a store keeps in its index (the most
// recent ones); an older one is dropped from the index and expires.
const MaxTorneios = 1000

// Torneio is one save of a tournament (package torneio encodes it).
type Torneio struct {
	ID string
	// Data is the tournament's complete state.
	Data []byte
	// Finished tournaments expire after the store's retention time,
	// unfinished ones after its idle-room TTL from their last save.
	Finished bool
	// Created orders the index, newest first.
	Created time.Time
}

// Torneios keeps tournaments, so that one survives a restart. Both stores
// implement it.
type Torneios interface {
	// SaveTorneio writes a tournament, replacing its last save.
	SaveTorneio(ctx context.Context, t Torneio) error
	// LoadTorneio returns a tournament's last save, or ErrNotFound.
	LoadTorneio(ctx context.Context, id string) (Torneio, error)
	// TorneioIDs returns up to limit ids of the kept tournaments, newest
	// first (at most MaxTorneios).
	TorneioIDs(ctx context.Context, limit int) ([]string, error)
}
