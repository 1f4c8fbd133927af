package gogame

import "strings"

// This file holds the 3x3 patterns of the MCTS bot's playouts and priors:
// the hand-made shapes of Gelly et al., "Modification of UCT with Patterns
// in Monte-Carlo Go" (2006), as the open-source michi lists them. A pattern
// is the 3x3 neighbourhood of an empty point, the move; it matches in any
// rotation or reflection and with the colors swapped.
//
// In the pictures X and O are stones of either color (O the other one of
// X), '.' empty, ' ' off the board, '?' anything, 'x' anything but X, 'o'
// anything but O.
var pattern3Pictures = [][3]string{
	{"XOX", "...", "???"}, // hane: enclosing hane
	{"XO.", "...", "?.?"}, // hane: non-cutting hane
	{"XO?", "X..", "x.?"}, // hane: magari
	{".O.", "X..", "..."}, // katatsuke or diagonal attachment
	{"XO?", "O.o", "?o?"}, // cut 1: unprotected cut
	{"XO?", "O.X", "???"}, // cut 1: peeped cut
	{"?X?", "O.O", "ooo"}, // cut 2
	{"OX?", "o.O", "???"}, // cut keima
	{"X.?", "O.?", "   "}, // side: chase
	{"OX?", "X.O", "   "}, // side: block side cut
	{"?X?", "x.O", "   "}, // side: block side connection
	{"?XO", "x.x", "   "}, // side: sagari
	{"?OX", "X.O", "   "}, // side: cut
}

// pattern3 holds, for each code of a neighbourhood (see Playout.code3),
// whether it matches one of the patterns. It is built once at start up and
// only read afterwards.
var pattern3 = buildPattern3()

// buildPattern3 expands every picture in its 8 symmetries, both color
// assignments and every value of its wildcards.
func buildPattern3() *[1 << 16]bool {
	var table [1 << 16]bool
	for _, pic := range pattern3Pictures {
		cells := []byte(pic[0] + pic[1] + pic[2])
		for _, sym := range symmetries3(cells) {
			for _, colored := range [][]byte{sym, swapColors3(sym)} {
				expand3(colored, 0, &table)
			}
		}
	}
	return &table
}

// symmetries3 returns the 8 rotations and reflections of a 3x3 picture
// (cells in reading order).
func symmetries3(c []byte) [][]byte {
	rot := func(p []byte) []byte { // 90 degrees clockwise
		out := make([]byte, 9)
		for r := range 3 {
			for col := range 3 {
				out[col*3+(2-r)] = p[r*3+col]
			}
		}
		return out
	}
	flip := func(p []byte) []byte { // left-right mirror
		out := make([]byte, 9)
		for r := range 3 {
			for col := range 3 {
				out[r*3+(2-col)] = p[r*3+col]
			}
		}
		return out
	}
	var out [][]byte
	p := c
	for range 4 {
		out = append(out, p, flip(p))
		p = rot(p)
	}
	return out
}

// swapColors3 exchanges X and O (and x and o) in a picture.
func swapColors3(p []byte) []byte {
	r := strings.NewReplacer("X", "O", "O", "X", "x", "o", "o", "x")
	return []byte(r.Replace(string(p)))
}

// cellValues are the contents a picture character stands for: empty,
// black (X), white (O), off the board.
var cellValues = map[byte][]color{
	'.': {empty},
	'X': {black},
	'O': {white},
	' ': {colorBorder},
	'?': {empty, black, white, colorBorder},
	'x': {empty, white, colorBorder},
	'o': {empty, black, colorBorder},
}

// expand3 marks every code the picture p matches, from cell i on. The
// center (index 4) is the move and is not coded.
func expand3(p []byte, i int, table *[1 << 16]bool) {
	if i == 9 {
		code := 0
		for k, j := range neighbourOrder3 {
			code |= int(cellValues[p[j]][0]) << (2 * k)
		}
		table[code] = true
		return
	}
	if i == 4 || len(cellValues[p[i]]) == 1 {
		expand3(p, i+1, table)
		return
	}
	orig := p[i]
	for _, c := range cellValues[orig] {
		switch c {
		case empty:
			p[i] = '.'
		case black:
			p[i] = 'X'
		case white:
			p[i] = 'O'
		case colorBorder:
			p[i] = ' '
		}
		expand3(p, i+1, table)
	}
	p[i] = orig
}

// neighbourOrder3 are the picture cells (reading order, 4 the center) in
// the order Playout.code3 reads the neighbours.
var neighbourOrder3 = [8]int{0, 1, 2, 3, 5, 6, 7, 8}

// code3 is the code of the 3x3 neighbourhood of v: two bits per neighbour,
// the row above first (in the Playout's own orientation; the patterns hold
// every symmetry, so the orientation does not matter).
func (p *Playout) code3(v int) int {
	s := p.stride
	return int(p.cells[v-s-1]) | int(p.cells[v-s])<<2 | int(p.cells[v-s+1])<<4 |
		int(p.cells[v-1])<<6 | int(p.cells[v+1])<<8 |
		int(p.cells[v+s-1])<<10 | int(p.cells[v+s])<<12 | int(p.cells[v+s+1])<<14
}

// matchesPattern reports whether the empty point v matches a 3x3 pattern.
func (p *Playout) matchesPattern(v int) bool { return pattern3[p.code3(v)] }
