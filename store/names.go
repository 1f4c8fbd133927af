package store

import (
	"context"
	"fmt"
)

// MaxNameLookups bounds the ids of one PlayerNames call (a tournament's
// entrants: torneio.MaxEntrants).
const MaxNameLookups = 64

// PlayerNames finds display names by player id, for pages that list
// players by id (a tournament's entrants). Both stores implement it.
type PlayerNames interface {
	// PlayerNames returns the display name of each id whose identity is
	// kept under it (a person's id derived from its token, PlayerID); ids
	// it does not know are left out. At most MaxNameLookups ids, in one
	// round trip; it does not renew the identities.
	PlayerNames(ctx context.Context, ids []string) (map[string]string, error)
}

// CheckNameLookup is the argument check both stores' PlayerNames make: a
// live ctx and at most MaxNameLookups ids.
func CheckNameLookup(ctx context.Context, ids []string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("player names: %w", err)
	}
	if len(ids) > MaxNameLookups {
		return fmt.Errorf("player names: %d ids, at most %d", len(ids), MaxNameLookups)
	}
	return nil
}
