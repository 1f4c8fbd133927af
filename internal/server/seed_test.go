package server_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// TestBotMoveAPISeedExamples asks POST /api/bot/move for the seeds' printed
// bot examples (orbito escolhe_movimento_auto, morris obter_movimento_auto).
func TestBotMoveAPISeedExamples(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = 30 * time.Second })
	for _, ex := range seedgames.BotExamples {
		var out protocol.BotMoveResponse
		code := s.PostJSON(t, "/api/bot/move", protocol.BotMoveRequest{Game: ex.Game, Variant: ex.Variant, Level: ex.Level,
			Setup: json.RawMessage(ex.Setup)}, &out)
		if code != 200 || out.Move != ex.Want {
			t.Errorf("%s %s %s: HTTP %d move %q, want %q", ex.Game, ex.Level, ex.Setup, code, out.Move, ex.Want)
		}
	}
}

// TestSeedTranscriptsOverWebSocket replays the seeds' games through the
// protocol: against the seed bot, the human's moves are sent and the bot's
// answers checked; between two people, each plays from their own
// connection. Every printed board and the result are checked, and a
// spectator sees every seq.
func TestSeedTranscriptsOverWebSocket(t *testing.T) {
	t.Parallel()
	// A generous deadline: a fallback move on a loaded machine would not
	// be the seed's.
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = 30 * time.Second })
	for _, tr := range seedgames.Transcripts {
		t.Run(tr.Name, func(t *testing.T) {
			var clients [2]*testserver.Client // by seat; nil for the bot
			var room string
			first := 1 - tr.BotSeat
			if tr.Level == "" {
				first = 0
			}
			clients[first] = s.Hello(t, "first", "")
			create := map[string]any{"type": "room.create", "game": tr.Game, "variant": tr.Variant, "seat": first,
				"opponent": "human"}
			if tr.Level != "" {
				create["opponent"], create["level"] = "bot", tr.Level
			}
			clients[first].Send(create)
			room = clients[first].Wait("room.joined", nil).Room
			if tr.Level == "" {
				clients[1] = s.Hello(t, "second", "")
				clients[1].Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
				clients[1].Wait("room.joined", nil)
			}
			spec := s.Hello(t, "watcher", "")
			spec.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			spec.Wait("room.joined", nil)
			var st testserver.Msg
			for i, tn := range tr.Turns {
				seat := 1 - tr.BotSeat
				switch {
				case tr.Level == "":
					seat = i % 2
				case tn.Bot:
					seat = tr.BotSeat
				}
				if !tn.Bot {
					for _, bad := range tn.Refused {
						clients[seat].Send(map[string]any{"type": "room.move", "room": room, "move": bad, "id": i})
						clients[seat].WaitError("illegal_move")
					}
					clients[seat].Send(map[string]any{"type": "room.move", "room": room, "move": tn.Move})
				}
				after := st.Seq
				st = spec.State(room, func(m testserver.Msg) bool {
					return m.Seq > after && m.LastMove != nil && m.LastMove.Seat == seat
				})
				if st.LastMove.Move != tn.Move {
					t.Fatalf("turn %d: %s played %q, want %q", i+1, seatName(tn.Bot), st.LastMove.Move, tn.Move)
				}
				var board []string
				if err := json.Unmarshal(st.Board, &board); err != nil || !slices.Equal(board, tn.Board) {
					t.Fatalf("turn %d (%s): board %s, want %q", i+1, tn.Move, st.Board, tn.Board)
				}
			}
			if st.Status != "finished" || st.Result == nil || !sameWinner(st.Result.Winner, tr.Outcome) ||
				st.Result.Reason != tr.Outcome.Reason {
				t.Fatalf("final state %s, want %+v", st.Raw, tr.Outcome)
			}
			for _, c := range clients {
				if c != nil {
					c.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
				}
			}
			checkSeqs(t, "spectator", spec, room)
		})
	}
}

func seatName(bot bool) string {
	if bot {
		return "the bot"
	}
	return "the human"
}

// sameWinner compares a result's winner (nil for a draw) with an engine
// outcome's (-1 for a draw).
func sameWinner(got *int, want engine.Outcome) bool {
	if got == nil {
		return want.Winner == -1
	}
	return *got == want.Winner
}
