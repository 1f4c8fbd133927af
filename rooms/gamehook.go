// The game hook: a room tells Config.OnGame when its game starts and when
// it ends, so that the bot API can tell a bot account it is seated in a
// game (GET /api/bot/stream/event).

package rooms

// GameEvent is a room whose game started (Status StatusPlaying) or ended
// (StatusFinished).
type GameEvent struct {
	Room    string
	Game    string
	Variant string
	Status  string
	// Players are the player ids of the seats, in seat order ("" for a
	// seat of the server's bots).
	Players []string
}

// noteGame calls OnGame once per status the room reaches, after the change
// that reached it was saved and broadcast (summaryChanged runs last in
// a broadcast), and when a playing room starts (created with every seat
// taken, or restored). Called on the room's goroutine, or before it runs.
func (r *Room) noteGame() {
	if r.told == r.status || r.m.cfg.OnGame == nil {
		return
	}
	r.told = r.status
	if r.status != StatusPlaying && r.status != StatusFinished {
		return
	}
	ev := GameEvent{Room: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status, Players: make([]string, len(r.seats))}
	for i, s := range r.seats {
		if s.Bot == "" {
			ev.Players[i] = s.PlayerID
		}
	}
	r.m.cfg.OnGame(ev)
}
