package queens

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// maxSize is the largest board side the seed allows (n <= 20).
const maxSize = 20

// bitsetWords is the number of 64-bit words that hold one bit per square of
// the largest board.
const bitsetWords = (maxSize*maxSize + 63) / 64

// squares is a set of squares, one bit per square index row*size+col.
type squares [bitsetWords]uint64

func (s *squares) add(sq int)      { s[sq>>6] |= 1 << (sq & 63) }
func (s *squares) has(sq int) bool { return s[sq>>6]&(1<<(sq&63)) != 0 }
func (s *squares) union(o *squares) {
	for i := range s {
		s[i] |= o[i]
	}
}
func (s *squares) meets(o *squares) bool {
	for i := range s {
		if s[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// count is the number of squares in s.
func (s *squares) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// countNew is the number of squares in s that are not in old.
func (s *squares) countNew(old *squares) int {
	n := 0
	for i, w := range s {
		n += bits.OnesCount64(w &^ old[i])
	}
	return n
}

// pieceLetters are the seed's pieces in the order it lists them: R (rei,
// king), D (dama, queen), T (torre, rook), B (bispo, bishop), C (cavalo,
// knight).
const pieceLetters = "RDTBC"

// pieceIndex returns the index of letter in pieceLetters, or -1.
func pieceIndex(letter byte) int { return strings.IndexByte(pieceLetters, letter) }

// geometry holds, for one board size, the squares each piece attacks from
// each square. It is built once per size and only read afterwards.
type geometry struct {
	size    int
	attacks [len(pieceLetters)][]squares // [piece][square]
}

// geometries holds the geometry of every board size a variant uses.
var geometries = func() map[int]*geometry {
	m := make(map[int]*geometry)
	for _, v := range variants {
		if m[v.size] == nil {
			m[v.size] = newGeometry(v.size)
		}
	}
	return m
}()

func newGeometry(size int) *geometry {
	g := &geometry{size: size}
	for p := range pieceLetters {
		g.attacks[p] = make([]squares, size*size)
		for r := range size {
			for c := range size {
				for _, a := range attackedBy(pieceLetters[p], r, c, size) {
					g.attacks[p][r*size+c].add(a[0]*size + a[1])
				}
			}
		}
	}
	return g
}

// attackedBy lists the squares (row, col) that a piece attacks from (row,
// col) on a size x size board, the square itself excluded, exactly as the
// seed's pos_atacadas_por: attacks are not blocked by other pieces. The
// squares come in ascending (row, col) order.
func attackedBy(piece byte, row, col, size int) [][2]int {
	var out [][2]int
	for r := range size {
		for c := range size {
			dr, dc := abs(r-row), abs(c-col)
			if dr == 0 && dc == 0 {
				continue
			}
			var hit bool
			switch piece {
			case 'R':
				hit = dr <= 1 && dc <= 1
			case 'D':
				hit = dr == 0 || dc == 0 || dr == dc
			case 'T':
				hit = dr == 0 || dc == 0
			case 'B':
				hit = dr == dc
			case 'C':
				hit = dr == 1 && dc == 2 || dr == 2 && dc == 1
			}
			if hit {
				out = append(out, [2]int{r, c})
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// squareName is the seed's name of a square, "row,col".
func squareName(sq, size int) string {
	return strconv.Itoa(sq/size) + "," + strconv.Itoa(sq%size)
}

// parseSquare parses "row,col" (decimal, no sign, no leading zeros, no
// spaces) on a size x size board and returns the square index.
func parseSquare(s string, size int) (int, error) {
	rs, cs, ok := strings.Cut(s, ",")
	if !ok {
		return 0, fmt.Errorf("square %q is not row,col", s)
	}
	r, err := parseCoord(rs)
	if err != nil {
		return 0, fmt.Errorf("square %q: row %w", s, err)
	}
	c, err := parseCoord(cs)
	if err != nil {
		return 0, fmt.Errorf("square %q: column %w", s, err)
	}
	if r >= size || c >= size {
		return 0, fmt.Errorf("square %s is off the %dx%d board", s, size, size)
	}
	return r*size + c, nil
}

// parseCoord parses a row or column number: decimal digits without a sign or
// leading zeros, at most two digits (the board has at most 20 rows).
func parseCoord(s string) (int, error) {
	if s == "" || len(s) > 2 || (len(s) > 1 && s[0] == '0') {
		return 0, fmt.Errorf("%q is not a number from 0 to %d", s, maxSize-1)
	}
	n := 0
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a number from 0 to %d", s, maxSize-1)
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, nil
}
