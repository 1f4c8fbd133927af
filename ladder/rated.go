package ladder

import "github.com/tabuleiro/tabuleiro/rooms"

// rated marks a ladder game's spec rated (Config.Rated): every seat is a
// bot account, so the rooms accept it.
func rated(s rooms.Spec, on bool) rooms.Spec {
	s.Rated = on
	return s
}
