package morris

import (
	"fmt"
	"strings"
)

// point is a position of the 3x3 board as its index in the seed's reading
// order (left to right, then top to bottom): a1=0, b1=1, c1=2, a2=3, b2=4,
// c2=5, a3=6, b3=7, c3=8.
type point int8

// numPoints is the number of positions of the board.
const numPoints = 9

// center is b2, the only point the diagonals pass through.
const center point = 4

// pointOf returns the point at column col (0..2 for a..c) and row row (0..2
// for 1..3).
func pointOf(col, row int) point { return point(row*3 + col) }

// col is the column of p, 0..2 for a..c.
func (p point) col() int { return int(p) % 3 }

// row is the row of p, 0..2 for 1..3.
func (p point) row() int { return int(p) / 3 }

// String names p as the seed does: column letter then row digit, "b2".
func (p point) String() string {
	return string([]byte{byte('a' + p.col()), byte('1' + p.row())})
}

// parsePoint reads a point named as the seed names it ("a1" to "c3",
// lowercase, nothing else), the seed's cria_posicao.
func parsePoint(s string) (point, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'c' || s[1] < '1' || s[1] > '3' {
		return 0, false
	}
	return pointOf(int(s[0]-'a'), int(s[1]-'1')), true
}

// isCorner reports whether p is a1, c1, a3 or c3.
func (p point) isCorner() bool { return p.col() != 1 && p.row() != 1 }

// adjacent lists, for each point, the points joined to it by a horizontal,
// vertical or diagonal line of the board, in reading order (the seed's
// obter_posicoes_adjacentes). Diagonals run only through the centre, so a
// corner touches b2 and the sides do not touch each other.
var adjacent = func() [numPoints][]point {
	var adj [numPoints][]point
	for p := range point(numPoints) {
		for q := range point(numPoints) {
			if p != q && joined(p, q) {
				adj[p] = append(adj[p], q)
			}
		}
	}
	return adj
}()

// joined reports whether a line of the board joins p and q directly.
func joined(p, q point) bool {
	dc, dr := abs(p.col()-q.col()), abs(p.row()-q.row())
	switch {
	case dc+dr == 1: // a horizontal or vertical neighbour
		return true
	case dc == 1 && dr == 1: // a diagonal neighbour: only to or from the centre
		return p == center || q == center
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// isAdjacent reports whether p and q are adjacent.
func isAdjacent(p, q point) bool {
	for _, a := range adjacent[p] {
		if a == q {
			return true
		}
	}
	return false
}

// winLines are the lines of three that win: the rows 1..3 and the columns
// a..c. Diagonals do not win (section 1.2 of the seed: "numa linha vertical
// ou horizontal").
var winLines = [6][3]point{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, // rows 1, 2, 3
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8}, // columns a, b, c
}

// piece is what occupies a point: the seed's peca_para_inteiro values, 1
// for X, -1 for O and 0 for a free point.
type piece int8

// The pieces.
const (
	free   piece = 0
	pieceX piece = 1
	pieceO piece = -1
)

// other is the opponent's piece.
func (pc piece) other() piece { return -pc }

// seat is the seat that plays pc: X is seat 0, O seat 1.
func (pc piece) seat() int {
	if pc == pieceO {
		return 1
	}
	return 0
}

// pieceOfSeat is the piece that seat plays.
func pieceOfSeat(seat int) piece {
	if seat == 1 {
		return pieceO
	}
	return pieceX
}

// letter is the board-view letter of pc: 'X', 'O' or '.'.
func (pc piece) letter() byte {
	switch pc {
	case pieceX:
		return 'X'
	case pieceO:
		return 'O'
	}
	return '.'
}

// String names the player of pc, "X" or "O", and " " for a free point (the
// seed's cria_peca argument).
func (pc piece) String() string {
	switch pc {
	case pieceX:
		return "X"
	case pieceO:
		return "O"
	}
	return " "
}

// board holds the piece on every point, in reading order.
type board [numPoints]piece

// winner is the piece with three in a row or column, or free when nobody
// has one (the seed's obter_ganhador). A legal position has at most one.
func (b *board) winner() piece {
	for _, l := range winLines {
		if pc := b[l[0]]; pc != free && b[l[1]] == pc && b[l[2]] == pc {
			return pc
		}
	}
	return free
}

// winners reports whether X and whether O has a winning line, for setup
// validation.
func (b *board) winners() (x, o bool) {
	for _, l := range winLines {
		if pc := b[l[0]]; pc != free && b[l[1]] == pc && b[l[2]] == pc {
			x = x || pc == pieceX
			o = o || pc == pieceO
		}
	}
	return x, o
}

// count is the number of pieces pc has on the board.
func (b *board) count(pc piece) int {
	n := 0
	for _, q := range b {
		if q == pc {
			n++
		}
	}
	return n
}

// points lists the points holding pc in reading order (the seed's
// obter_posicoes_jogador, and obter_posicoes_livres for pc == free).
func (b *board) points(pc piece) []point {
	var ps []point
	for p, q := range b {
		if q == pc {
			ps = append(ps, point(p))
		}
	}
	return ps
}

// blocked reports whether no piece of pc has a free adjacent point.
func (b *board) blocked(pc piece) bool {
	for p, q := range b {
		if q != pc {
			continue
		}
		for _, a := range adjacent[p] {
			if b[a] == free {
				return false
			}
		}
	}
	return true
}

// vector returns the pieces of the row ("1".."3") or column ("a".."c")
// named by s, top to bottom or left to right (the seed's obter_vetor).
func (b *board) vector(s string) ([3]piece, bool) {
	var v [3]piece
	if len(s) != 1 {
		return v, false
	}
	switch c := s[0]; {
	case c >= 'a' && c <= 'c':
		for r := range 3 {
			v[r] = b[pointOf(int(c-'a'), r)]
		}
	case c >= '1' && c <= '3':
		for col := range 3 {
			v[col] = b[pointOf(col, int(c-'1'))]
		}
	default:
		return v, false
	}
	return v, true
}

// rows is the board view of the protocol: one string a row, rows 1..3 top
// to bottom, columns a..c, 'X', 'O' or '.'.
func (b *board) rows() []string {
	out := make([]string, 3)
	for r := range 3 {
		row := make([]byte, 3)
		for c := range 3 {
			row[c] = b[pointOf(c, r)].letter()
		}
		out[r] = string(row)
	}
	return out
}

// key packs the board as a base-3 number (0 free, 1 X, 2 O) in reading
// order, a1 the most significant digit.
func (b *board) key() uint16 {
	k := uint16(0)
	for _, q := range b {
		d := uint16(q)
		if q == pieceO {
			d = 2
		}
		k = k*3 + d
	}
	return k
}

// boardFromRows reads the protocol's board view back (as written by rows).
func boardFromRows(rows []string) (board, error) {
	var b board
	if len(rows) != 3 {
		return b, fmt.Errorf("board has %d rows, want 3", len(rows))
	}
	for r, row := range rows {
		if len(row) != 3 {
			return b, fmt.Errorf("board row %d is %q, want 3 of 'X', 'O', '.'", r+1, row)
		}
		for c := range 3 {
			switch row[c] {
			case 'X':
				b[pointOf(c, r)] = pieceX
			case 'O':
				b[pointOf(c, r)] = pieceO
			case '.':
			default:
				return b, fmt.Errorf("board row %d is %q, want 3 of 'X', 'O', '.'", r+1, row)
			}
		}
	}
	return b, nil
}

// String draws the board as the seed's tabuleiro_para_str does: column
// letters above the points, "[X]", "[O]" or "[ ]" joined by the lines of the
// board, the diagonals through the centre.
func (b *board) String() string {
	var sb strings.Builder
	sb.WriteString("   a   b   c\n")
	connectors := [2]string{"   | \\ | / |\n", "   | / | \\ |\n"}
	for r := range 3 {
		fmt.Fprintf(&sb, "%d ", r+1)
		for c := range 3 {
			if c > 0 {
				sb.WriteByte('-')
			}
			pc := b[pointOf(c, r)]
			if pc == free {
				sb.WriteString("[ ]")
			} else {
				sb.WriteString("[" + pc.String() + "]")
			}
		}
		if r < 2 {
			sb.WriteString("\n" + connectors[r])
		}
	}
	return sb.String()
}
