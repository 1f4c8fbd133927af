package rooms

import "github.com/tabuleiro/tabuleiro/engine"

// botAcceptsDraw is a bot's answer to a draw offer in s, which it may
// change (a clone of the room's state): it accepts when the game's
// analyser proves the position a draw or lost for the bot with perfect
// play (morris and Orbito-2 from their solved tables, larger orbito boards
// when the search sees to the end), and declines otherwise, also when the
// analyser only estimates (a heuristic verdict is not a proof).
func botAcceptsDraw(g engine.Game, s engine.State, bot int) bool {
	an, ok := g.(engine.Analyser)
	if !ok {
		return false
	}
	turn, ok := s.Turn()
	if !ok {
		return false
	}
	a, err := an.Analyse(s, turn, engine.Budget{})
	if err != nil || a.Outlook == "" {
		return false
	}
	o := a.Outlook
	if turn != bot {
		o = o.Opposite()
	}
	return o == engine.OutlookDraw || o == engine.OutlookLoss
}
