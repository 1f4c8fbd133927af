package morris

import "github.com/tabuleiro/tabuleiro/engine"

// lines lists every winning line on b (a row or a column of three pieces
// of one player), the seat of X first, each seat's rows 1..3 then columns
// a..c, the points of each in reading order ("a1","b1","c1"; "a1","a2","a3").
func (b *board) lines() []engine.Line {
	var out []engine.Line
	for _, pc := range [2]piece{pieceX, pieceO} {
		for _, l := range winLines {
			if b[l[0]] != pc || b[l[1]] != pc || b[l[2]] != pc {
				continue
			}
			out = append(out, engine.Line{Seat: pc.seat(), Cells: []string{l[0].String(), l[1].String(), l[2].String()}})
		}
	}
	return out
}
