package server_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// TestBotMoveAPISeedExamples asks POST /api/bot/move for the seeds' printed
// bot examples (orbito escolhe_movimento_auto, morris obter_movimento_auto).
func TestBotMoveAPISeedExamples(t *testing.T) {
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = 30 * time.Second })
	orbitoSeed := `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"%s"}`
	orbitoTwice := `{"black":["a2","b2","c2","b4","c4"],"white":["a1","c1","d1","d2","b3"],"toMove":"%s"}`
	sprintf := func(f, side string) json.RawMessage {
		return json.RawMessage(strings.ReplaceAll(f, "%s", side))
	}
	cases := []struct {
		game, level string
		setup       json.RawMessage
		want        string
	}{
		{"orbito", "facil", sprintf(orbitoSeed, "black"), "b2"},
		{"orbito", "facil", sprintf(orbitoSeed, "white"), "b2"},
		{"orbito", "normal", sprintf(orbitoSeed, "black"), "d1"},
		{"orbito", "normal", sprintf(orbitoSeed, "white"), "c4"},
		{"orbito", "normal", sprintf(orbitoTwice, "black"), "d3"},
		{"orbito", "normal", sprintf(orbitoTwice, "white"), "b1"},
		{"morris", "facil", json.RawMessage(`{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"X"}`), "b2"},
		{"morris", "facil", json.RawMessage(`{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`), "a1b1"},
		{"morris", "normal", json.RawMessage(`{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`), "b2a2"},
		{"morris", "normal", json.RawMessage(`{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`), "b2c2"},
		{"morris", "dificil", json.RawMessage(`{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`), "c3c2"},
	}
	variant := map[string]string{"orbito": "2", "morris": "3"}
	for _, c := range cases {
		var out protocol.BotMoveResponse
		code := s.PostJSON(t, "/api/bot/move", protocol.BotMoveRequest{Game: c.game, Variant: variant[c.game], Level: c.level, Setup: c.setup}, &out)
		if code != 200 || out.Move != c.want {
			t.Errorf("%s %s %s: HTTP %d move %q, want %q", c.game, c.level, c.setup, code, out.Move, c.want)
		}
	}
}

// turn is one turn of a seed transcript: a human's move (with the inputs
// the seed shows refused before it) or the move the bot must answer, and
// the board the seed prints after it (rows top first, the seed's '0' as O).
type turn struct {
	bot     bool
	refused []string
	move    string
	board   []string
}

var seedTranscripts = []struct {
	name, game, variant, level string
	human                      int // the human's seat
	turns                      []turn
	winner                     *int
}{
	{
		name: "orbito Exemplo 1", game: "orbito", variant: "2", level: "facil", human: 1,
		turns: []turn{
			{bot: true, move: "b2", board: []string{"....", "....", ".X..", "...."}},
			{move: "d1", board: []string{"..O.", "....", "..X.", "...."}},
			{bot: true, move: "b2", board: []string{".O..", "..X.", ".X..", "...."}},
			{move: "c1", board: []string{"OO..", ".X..", "..X.", "...."}},
			{bot: true, move: "c2", board: []string{"O...", "OXX.", ".X..", "...."}},
			{move: "b1", board: []string{"O...", "OX..", "OXX.", "...."}},
			{bot: true, move: "c2", board: []string{"....", "OXX.", "OXX.", "O..."}},
			{move: "b4", board: []string{"....", ".XX.", "OXX.", "OOO."}},
			{bot: true, move: "a1", board: []string{"....", "XXX.", ".XX.", "OOOO"}},
		},
		winner: ptr(1), // VITORIA for the human playing O
	},
	{
		name: "orbito Exemplo 2", game: "orbito", variant: "2", level: "normal", human: 0,
		turns: []turn{
			{move: "c2", board: []string{"....", ".X..", "....", "...."}},
			{bot: true, move: "c2", board: []string{"....", ".O..", ".X..", "...."}},
			{move: "a3", board: []string{"....", "....", ".OX.", "X..."}},
			{bot: true, move: "b2", board: []string{"....", "..X.", ".OO.", ".X.."}},
			{move: "b2", board: []string{"....", ".XO.", ".XO.", "..X."}},
			{bot: true, move: "a1", board: []string{"....", "OOO.", ".XX.", "...X"}},
			{refused: []string{"a2"}, move: "a3", board: []string{"....", ".OX.", "OOXX", "X..."}},
			{bot: true, move: "a2", board: []string{"....", ".XXX", "OOO.", "OX.."}},
			{move: "a2", board: []string{"...X", ".XO.", "XXO.", "OOX."}},
			{bot: true, move: "a1", board: []string{"..X.", "OOO.", ".XX.", "XOOX"}},
			{move: "b1", board: []string{"XX..", ".OX.", "OOXX", ".XOO"}},
			{bot: true, move: "a2", board: []string{"X...", "XXXX", "OOOO", "O.XO"}},
		},
		winner: nil, // EMPATE
	},
	{
		name: "morris moinho('[X]', 'facil')", game: "morris", variant: "3", level: "facil", human: 0,
		turns: []turn{
			{move: "a2", board: []string{"...", "X..", "..."}},
			{bot: true, move: "b2", board: []string{"...", "XO.", "..."}},
			{move: "a1", board: []string{"X..", "XO.", "..."}},
			{bot: true, move: "a3", board: []string{"X..", "XO.", "O.."}},
			{move: "c1", board: []string{"X.X", "XO.", "O.."}},
			{bot: true, move: "b1", board: []string{"XOX", "XO.", "O.."}},
			{move: "c1c2", board: []string{"XO.", "XOX", "O.."}},
			{bot: true, move: "b1c1", board: []string{"X.O", "XOX", "O.."}},
			{move: "a1b1", board: []string{".XO", "XOX", "O.."}},
			{bot: true, move: "b2a1", board: []string{"OXO", "X.X", "O.."}},
			{move: "b1b2", board: []string{"O.O", "XXX", "O.."}},
		},
		winner: ptr(0), // '[X]'
	},
}

func ptr(i int) *int { return &i }

// TestSeedTranscriptsOverWebSocket replays the seeds' games against the
// seed bots through the protocol: the human's moves are sent, the bot's
// answers and every printed board are checked, and the result.
func TestSeedTranscriptsOverWebSocket(t *testing.T) {
	// A generous deadline: a fallback move on a loaded machine would not
	// be the seed's.
	s := testserver.Start(t, func(c *server.Config) { c.BotTimeout = 30 * time.Second })
	for _, tr := range seedTranscripts {
		t.Run(tr.name, func(t *testing.T) {
			h := s.Hello(t, "human", "")
			spec := s.Hello(t, "watcher", "")
			h.Send(map[string]any{"type": "room.create", "game": tr.game, "variant": tr.variant,
				"opponent": "bot", "level": tr.level, "seat": tr.human})
			room := h.Wait("room.joined", nil).Room
			spec.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			spec.Wait("room.joined", nil)
			var st testserver.Msg
			for i, tn := range tr.turns {
				if !tn.bot {
					for _, bad := range tn.refused {
						h.Send(map[string]any{"type": "room.move", "room": room, "move": bad, "id": i})
						h.WaitError("illegal_move")
					}
					h.Send(map[string]any{"type": "room.move", "room": room, "move": tn.move})
				}
				seat, after := tr.human, st.Seq
				if tn.bot {
					seat = 1 - tr.human
				}
				st = h.State(room, func(m testserver.Msg) bool {
					return m.Seq > after && m.LastMove != nil && m.LastMove.Seat == seat
				})
				if st.LastMove.Move != tn.move {
					t.Fatalf("turn %d: %s played %q, want %q", i+1, seatName(tn.bot), st.LastMove.Move, tn.move)
				}
				var board []string
				if err := json.Unmarshal(st.Board, &board); err != nil || !slices.Equal(board, tn.board) {
					t.Fatalf("turn %d (%s): board %s, want %q", i+1, tn.move, st.Board, tn.board)
				}
			}
			if st.Status != "finished" || st.Result == nil || !sameWinner(st.Result.Winner, tr.winner) {
				t.Fatalf("final state %s", st.Raw)
			}
			spec.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
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

func sameWinner(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
