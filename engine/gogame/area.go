package gogame

// area is the seed's area scoring (calcula_pontos) by a flood fill of the
// whole board: the final area view, and the reference the score the board
// keeps move by move (regions.go) is tested against: for each player, the stones of that player plus the empty
// regions (territories) whose border holds only that player's stones. A
// region without any border (the empty board) belongs to nobody. When owner
// is not nil (one entry an intersection, indexed like cells) it also
// writes who each intersection counts for: black, white, or empty for
// nobody.
func (b *board) area(owner []color) (scoreBlack, scoreWhite int) {
	return b.areaOf(b.cells, b.nb, b.nw, owner)
}

// areaOf is area for the stones cells (of b's size) holding nb black and
// nw white stones: the board less the stones marked dead, say.
func (b *board) areaOf(cells []color, nb, nw int, owner []color) (scoreBlack, scoreWhite int) {
	scoreBlack, scoreWhite = nb, nw
	if owner != nil {
		copy(owner, cells)
	}
	// One visited set for all the territories (they are disjoint) and the
	// region's list live on the goroutine's stack, which is hot in the
	// cache, not in the board, which is cold when a room's move comes.
	var seen pointSet
	var buf [maxPoints]int16
	for p, c := range cells {
		if c != empty || seen.has(p) {
			continue
		}
		seen.add(p)
		region := append(buf[:0], int16(p))
		borders := color(0)
		for i := 0; i < len(region); i++ {
			for _, r := range b.geo.adj[region[i]] {
				switch cr := cells[r]; {
				case cr != empty:
					borders |= cr
				case !seen.has(r):
					seen.add(r)
					region = append(region, int16(r))
				}
			}
		}
		switch borders {
		case black:
			scoreBlack += len(region)
		case white:
			scoreWhite += len(region)
		default:
			continue
		}
		if owner != nil {
			for _, q := range region {
				owner[q] = borders
			}
		}
	}
	return scoreBlack, scoreWhite
}

// areaRows is the area view of the board: one string a row, top row (row
// n) first like rows, 'X' for an intersection in black's area (a stone or
// territory), 'O' for white's and '.' for neither.
func (b *board) areaRows() []string {
	owner := make([]color, len(b.cells))
	b.area(owner)
	return b.ownerRows(owner)
}

// ownerRows writes who each intersection counts for (owner, indexed like
// cells) as rows, top row first: 'X', 'O' or '.'.
func (b *board) ownerRows(owner []color) []string {
	n := b.geo.n
	out := make([]string, n)
	line := make([]byte, n)
	for r := n - 1; r >= 0; r-- {
		for i, c := range owner[r*n : (r+1)*n] {
			line[i] = symbols[c]
		}
		out[n-1-r] = string(line)
	}
	return out
}
