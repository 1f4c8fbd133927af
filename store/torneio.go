package store

import (
	"context"
	"fmt"
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
	// AnswerTorneio records who's answer to tournament id while it waits
	// for its invitations (a word the tournament reads: "accept",
	// "decline", "start"), replacing who's earlier one. The answers are
	// written by any node and read by the one running the tournament;
	// they expire after the idle-room TTL from the last one. The caller
	// bounds who (the invited and the owner: at most MaxTorneioAnswers).
	AnswerTorneio(ctx context.Context, id, who, answer string) error
	// TorneioAnswers returns the answers to tournament id, by who; none
	// is an empty map.
	TorneioAnswers(ctx context.Context, id string) (map[string]string, error)
}

// MaxTorneioAnswers bounds the answers one tournament may have: its
// entrants (torneio.MaxEntrants) and its owner, with room to spare.
const MaxTorneioAnswers = 32

// CheckTorneioAnswer is the argument check both stores' AnswerTorneio
// make.
func CheckTorneioAnswer(ctx context.Context, id, who, answer string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("answer torneio %s: %w", id, err)
	}
	if id == "" || who == "" || answer == "" {
		return fmt.Errorf("answer torneio %q: empty id, player or answer", id)
	}
	return nil
}
