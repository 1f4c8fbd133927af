package ratings

import (
	"fmt"
	"strings"
)

// CheckGame is the check both stores make of a game given to Apply: a room,
// a pool as Pool makes them (game/variant), two different players with ids,
// and a score of 1, 0.5 or 0.
func CheckGame(g Game) error {
	switch {
	case g.Room == "" || strings.IndexByte(g.Pool, '/') <= 0 || strings.HasPrefix(g.Pool, ":"):
		return fmt.Errorf("apply game of room %q in pool %q: no room, or not a pool", g.Room, g.Pool)
	case g.Sides[0].ID == "" || g.Sides[1].ID == "":
		return fmt.Errorf("apply game of room %s: a side without an id", g.Room)
	case g.Sides[0].ID == g.Sides[1].ID:
		return fmt.Errorf("apply game of room %s: %s against themselves", g.Room, g.Sides[0].ID)
	case g.Score != 0 && g.Score != 0.5 && g.Score != 1:
		return fmt.Errorf("apply game of room %s: score %v is not 0, 0.5 or 1", g.Room, g.Score)
	}
	return nil
}

// CheckTally is the check both stores make of a Tally: a room, and players
// with ids and outcomes that are Lost, Drawn or Won.
func CheckTally(room string, outcomes map[string]Outcome) error {
	if room == "" {
		return fmt.Errorf("tally: empty room")
	}
	for id, o := range outcomes {
		if id == "" || o < Lost || o > Won {
			return fmt.Errorf("tally of room %s: player %q with outcome %d", room, id, o)
		}
	}
	return nil
}

// MaxLadders is how many pools' ladders one bot account may be entered in
// at once (JoinLadder refuses more): the pools are few, so only a caller
// that did not check the pool reaches it.
const MaxLadders = 64
