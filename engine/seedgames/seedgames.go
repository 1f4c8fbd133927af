// Package seedgames holds the complete games printed in the seed rule books
// (../shared/seeds), as data: each human move, each bot answer, the inputs
// the seed shows refused, the board printed after every turn and the result.
//
// The engines' tests replay them against the rules and the seed bots, and the
// server's tests replay them over WebSocket; both read them from here so a
// transcript is typed once.
package seedgames

import (
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Turn is one turn of a transcript.
type Turn struct {
	// Bot is true when the seed's bot plays this turn: Move is then the move
	// the bot must choose, not an input.
	Bot bool
	// Refused are the inputs the seed shows rejected before Move.
	Refused []string
	// Move is the move played.
	Move string
	// Board is the board printed after the turn, rows top first, 'X', 'O'
	// (the seed's '0' in orbito) and '.'.
	Board []string
}

// Transcript is one complete printed game.
type Transcript struct {
	// Name names the seed's example.
	Name string
	// Game and Variant are the engine's ids.
	Game, Variant string
	// Level is the seed bot's level, "" for a game between two people.
	Level string
	// BotSeat is the bot's seat when Level is set.
	BotSeat int
	// Turns are the turns in order, from the empty board.
	Turns []Turn
	// Outcome is the result the seed prints.
	Outcome engine.Outcome
}

// Transcripts are the seeds' printed games: orbito Exemplos 1-3 and the
// morris game moinho('[X]', 'facil') of section 2.2.3.
var Transcripts = []Transcript{
	{
		Name: "orbito Exemplo 1 facil, human O", Game: "orbito", Variant: "2", Level: "facil", BotSeat: 0,
		Turns: []Turn{
			{Bot: true, Move: "b2", Board: []string{"....", "....", ".X..", "...."}},
			{Move: "d1", Board: []string{"..O.", "....", "..X.", "...."}},
			{Bot: true, Move: "b2", Board: []string{".O..", "..X.", ".X..", "...."}},
			{Move: "c1", Board: []string{"OO..", ".X..", "..X.", "...."}},
			{Bot: true, Move: "c2", Board: []string{"O...", "OXX.", ".X..", "...."}},
			{Move: "b1", Board: []string{"O...", "OX..", "OXX.", "...."}},
			{Bot: true, Move: "c2", Board: []string{"....", "OXX.", "OXX.", "O..."}},
			{Move: "b4", Board: []string{"....", ".XX.", "OXX.", "OOO."}},
			{Bot: true, Move: "a1", Board: []string{"....", "XXX.", ".XX.", "OOOO"}},
		},
		Outcome: engine.Outcome{Over: true, Winner: 1, Reason: "line"}, // VITORIA for O, -1
	},
	{
		Name: "orbito Exemplo 2 normal, human X", Game: "orbito", Variant: "2", Level: "normal", BotSeat: 1,
		Turns: []Turn{
			{Move: "c2", Board: []string{"....", ".X..", "....", "...."}},
			{Bot: true, Move: "c2", Board: []string{"....", ".O..", ".X..", "...."}},
			{Move: "a3", Board: []string{"....", "....", ".OX.", "X..."}},
			{Bot: true, Move: "b2", Board: []string{"....", "..X.", ".OO.", ".X.."}},
			{Move: "b2", Board: []string{"....", ".XO.", ".XO.", "..X."}},
			{Bot: true, Move: "a1", Board: []string{"....", "OOO.", ".XX.", "...X"}},
			{Refused: []string{"a2"}, Move: "a3", Board: []string{"....", ".OX.", "OOXX", "X..."}},
			{Bot: true, Move: "a2", Board: []string{"....", ".XXX", "OOO.", "OX.."}},
			{Move: "a2", Board: []string{"...X", ".XO.", "XXO.", "OOX."}},
			{Bot: true, Move: "a1", Board: []string{"..X.", "OOO.", ".XX.", "XOOX"}},
			{Move: "b1", Board: []string{"XX..", ".OX.", "OOXX", ".XOO"}},
			{Bot: true, Move: "a2", Board: []string{"X...", "XXXX", "OOOO", "O.XO"}},
		},
		Outcome: engine.Outcome{Over: true, Winner: -1, Reason: "both_lines"}, // EMPATE, 0
	},
	{
		Name: "orbito Exemplo 3 two players", Game: "orbito", Variant: "2",
		Turns: []Turn{
			{Move: "a1", Board: []string{"....", "X...", "....", "...."}},
			{Move: "b2", Board: []string{"....", "....", "XO..", "...."}},
			{Move: "a4", Board: []string{"....", "....", "..O.", "XX.."}},
			{Move: "c4", Board: []string{"....", "..O.", "....", ".XXO"}},
			{Move: "a4", Board: []string{"....", ".O..", "...O", ".XXX"}},
			{Move: "b3", Board: []string{"....", "...O", ".OOX", "..XX"}},
			{Move: "b4", Board: []string{"...O", "..OX", "..OX", "..XX"}},
			{Move: "a3", Board: []string{"..OX", ".OOX", "...X", "O..X"}},
		},
		Outcome: engine.Outcome{Over: true, Winner: 0, Reason: "line"}, // VITORIA DO JOGADOR 'X', 1
	},
	{
		Name: "morris moinho('[X]', 'facil')", Game: "morris", Variant: "3", Level: "facil", BotSeat: 1,
		Turns: []Turn{
			{Move: "a2", Board: []string{"...", "X..", "..."}},
			{Bot: true, Move: "b2", Board: []string{"...", "XO.", "..."}},
			{Move: "a1", Board: []string{"X..", "XO.", "..."}},
			{Bot: true, Move: "a3", Board: []string{"X..", "XO.", "O.."}},
			{Move: "c1", Board: []string{"X.X", "XO.", "O.."}},
			{Bot: true, Move: "b1", Board: []string{"XOX", "XO.", "O.."}},
			{Move: "c1c2", Board: []string{"XO.", "XOX", "O.."}},
			{Bot: true, Move: "b1c1", Board: []string{"X.O", "XOX", "O.."}},
			{Move: "a1b1", Board: []string{".XO", "XOX", "O.."}},
			{Bot: true, Move: "b2a1", Board: []string{"OXO", "X.X", "O.."}},
			{Move: "b1b2", Board: []string{"O.O", "XXX", "O.."}},
		},
		Outcome: engine.Outcome{Over: true, Winner: 0, Reason: "line"}, // '[X]'
	},
}

// Of returns the transcripts of one game, in the order above.
func Of(game string) []Transcript {
	var out []Transcript
	for _, t := range Transcripts {
		if t.Game == game {
			out = append(out, t)
		}
	}
	return out
}

// BotExample is a position printed in a seed with the move its bot must
// choose there.
type BotExample struct {
	// Game, Variant and Level name the bot.
	Game, Variant, Level string
	// Setup is the position as PROTOCOL.md's setup object (what POST
	// /api/bot/move receives).
	Setup string
	// Board is the position as the seed prints it, rows top first, when it
	// does; empty otherwise.
	Board []string
	// Seat is the side to move, which the bot plays.
	Seat int
	// Want is the seed's answer.
	Want string
}

const (
	orbitoSeed  = `{"black":["a3","a4","b1","b3","c3"],"white":["c1","c2","d2","d3","d4"],"toMove":"%s"}`
	orbitoTwice = `{"black":["a2","b2","c2","b4","c4"],"white":["a1","c1","d1","d2","b3"],"toMove":"%s"}`
)

var (
	orbitoSeedBoard  = []string{".XO.", "..OO", "XXXO", "X..O"}
	orbitoTwiceBoard = []string{"O.OO", "XXXO", ".O..", ".XX."}
)

// BotExamples are the seeds' printed bot choices: orbito
// escolhe_movimento_auto and morris obter_movimento_auto.
var BotExamples = []BotExample{
	{"orbito", "2", "facil", side(orbitoSeed, "black"), orbitoSeedBoard, 0, "b2"},
	{"orbito", "2", "facil", side(orbitoSeed, "white"), orbitoSeedBoard, 1, "b2"},
	{"orbito", "2", "normal", side(orbitoSeed, "black"), orbitoSeedBoard, 0, "d1"},
	{"orbito", "2", "normal", side(orbitoSeed, "white"), orbitoSeedBoard, 1, "c4"},
	{"orbito", "2", "normal", side(orbitoTwice, "black"), orbitoTwiceBoard, 0, "d3"},
	{"orbito", "2", "normal", side(orbitoTwice, "white"), orbitoTwiceBoard, 1, "b1"},
	{"morris", "3", "facil", `{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"X"}`, nil, 0, "b2"},
	{"morris", "3", "facil", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`, nil, 0, "a1b1"},
	{"morris", "3", "normal", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`, nil, 0, "b2a2"},
	{"morris", "3", "normal", `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`, nil, 0, "b2c2"},
	{"morris", "3", "dificil", `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`, nil, 0, "c3c2"},
}

// side fills the side to move into a setup template.
func side(setup, toMove string) string { return strings.ReplaceAll(setup, "%s", toMove) }

// BotExamplesOf returns the bot examples of one game, in the order above.
func BotExamplesOf(game string) []BotExample {
	var out []BotExample
	for _, e := range BotExamples {
		if e.Game == game {
			out = append(out, e)
		}
	}
	return out
}
