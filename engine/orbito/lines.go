package orbito

import "github.com/tabuleiro/tabuleiro/engine"

// lines lists every winning line on b (k stones of one colour in a row):
// black's first, then white's; for each colour the rows top to bottom, the
// columns left to right, the diagonal, then the anti-diagonal, each line's
// squares in the seed's order along it (obtem_linha_horizontal: left to
// right; obtem_linha_vertical: top to bottom; obtem_linhas_diagonais: the
// diagonal descending and the anti-diagonal ascending, left to right).
func (b board) lines(g *geometry) []engine.Line {
	n := g.size
	candidates := make([][]int, 0, 2*n+2)
	for r := range n {
		candidates = append(candidates, g.lines[r*n][0])
	}
	for c := range n {
		candidates = append(candidates, g.lines[c][1])
	}
	candidates = append(candidates, g.lines[0][2], g.lines[(n-1)*n][3])
	var out []engine.Line
	for _, s := range [2]stone{black, white} {
		for _, line := range candidates {
			full := true
			for _, sq := range line {
				full = full && b[sq] == s
			}
			if !full {
				continue
			}
			cells := make([]string, len(line))
			for i, sq := range line {
				cells[i] = g.names[sq]
			}
			out = append(out, engine.Line{Seat: s.seat(), Cells: cells})
		}
	}
	return out
}
