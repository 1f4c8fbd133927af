// The game hook: a room tells Config.OnGame's listeners when its game
// starts and when it ends, with the result: the bot API tells a bot account
// it is seated in a game (GET /api/bot/stream/event); a listener that keeps
// something per game (a rating updater) subscribes the same way, in the
// wiring (internal/server), without a change here.

package rooms

import (
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// GameEvent is a room whose game started (Status StatusPlaying) or ended
// (StatusFinished, with its Result).
type GameEvent struct {
	Room    string
	Game    string
	Variant string
	Status  string
	// Rated marks a rated game (its end changes the players' ratings
	// unless it was aborted: records.Record.RatedScore).
	Rated bool
	// Players are the seats' players, in seat order: people, bot
	// accounts (BotAccount) and the server's bots (Bot, their level).
	Players []players.Player
	// Score is the state's score when the game ended (engine.State's
	// Score: 2048's points per seat), nil for a start.
	Score any
	// Result is how a finished game ended (a winner's seat or none, and
	// why); nil for a start.
	Result *protocol.Result
	// Started and Ended are when the game started and ended (Ended zero
	// for a start).
	Started, Ended time.Time
	// Again marks the end of a game told again: its room, finished, was
	// brought back from the store (after a restart, or asked for again),
	// so a node that died between the end's save and its listeners'
	// work is made up for. A listener that acts once per game keeps what
	// it did by Room and acts on the first event only; a bot's stream
	// ignores these.
	Again bool
}

// noteGame tells the OnGame listeners once per status the room reaches,
// after the change that reached it was saved and broadcast (summaryChanged
// runs last in a broadcast), and when a playing room starts (created with
// every seat taken, or restored) or a finished one is restored (Again).
// Called on the room's goroutine, or before it runs.
func (r *Room) noteGame() {
	if r.told == r.status || len(r.m.cfg.OnGame) == 0 {
		return
	}
	again := r.told == "" && r.status == StatusFinished
	r.told = r.status
	if r.status != StatusPlaying && r.status != StatusFinished {
		return
	}
	ev := GameEvent{Room: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status, Rated: r.rated,
		Players: append([]players.Player(nil), r.seats...), Started: r.rec.started, Again: again}
	if r.status == StatusFinished && r.result != nil {
		res := *r.result
		ev.Result, ev.Ended, ev.Score = &res, r.rec.ended, r.state.Score()
	}
	for _, listen := range r.m.cfg.OnGame {
		listen(ev)
	}
}
