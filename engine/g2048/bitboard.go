package g2048

import (
	"fmt"
	"math"
	"math/bits"
)

// Bitboard is a 2048 board packed in 64 bits for bots that search many
// positions: 16 cells of 4 bits, each the exponent of its tile (0 empty, 1
// for 2, 2 for 4, ... 15 for 32768). Cell (row, col), both from 0 with
// (0, 0) the top-left corner, sits at bits 4*(4*row+col), so row r is the
// 16 bits from 16*r with its leftmost cell in the lowest nibble.
//
// Moves go through tables precomputed for all 65536 rows and follow the
// rules of the engine exactly, with one limit of the 4-bit cells: two
// 32768 tiles do not merge (a 65536 tile does not fit). Boards with a tile
// above 32768 cannot be represented.
type Bitboard uint64

// MaxBitboardTile is the largest tile a Bitboard holds.
const MaxBitboardTile = 1 << 15

// rowTables holds, for every 16-bit row, the row after a move towards the
// lowest nibble (left, W) and towards the highest (right, E), the points the
// move scores, and the row's share of Bitboard.Evaluate (rounded to an
// integer, so that sums of evaluations are exact and ties are real ties).
type rowTables struct {
	left, right           [1 << 16]uint16
	leftScore, rightScore [1 << 16]uint32
	heuristic             [1 << 16]int32
}

// tables is computed once at start-up and only read afterwards.
var tables = buildRowTables()

// The weights of Bitboard.Evaluate, per row and per column: a bonus for
// every empty cell and for neighbouring equal tiles, a penalty for rows
// that are not monotone and for the size of the tiles (so that merging
// pays).
const (
	heurBase            = 200000.0
	heurEmptyWeight     = 270.0
	heurMergeWeight     = 700.0
	heurMonotonicPower  = 4.0
	heurMonotonicWeight = 47.0
	heurSumPower        = 3.5
	heurSumWeight       = 11.0
)

func buildRowTables() *rowTables {
	t := new(rowTables)
	for row := range 1 << 16 {
		cells := unpackRow(uint16(row))
		moved, score := slideExponents(cells)
		t.left[row] = packRow(moved)
		t.leftScore[row] = score
		t.heuristic[row] = int32(math.Round(rowHeuristic(cells)))
	}
	for row := range 1 << 16 {
		rev := reverseRow(uint16(row))
		t.right[row] = reverseRow(t.left[rev])
		t.rightScore[row] = t.leftScore[rev]
	}
	return t
}

func unpackRow(row uint16) [Size]uint8 {
	var cells [Size]uint8
	for c := range Size {
		cells[c] = uint8(row>>(4*c)) & 0xf
	}
	return cells
}

func packRow(cells [Size]uint8) uint16 {
	var row uint16
	for c := range Size {
		row |= uint16(cells[c]) << (4 * c)
	}
	return row
}

func reverseRow(row uint16) uint16 {
	return row>>12 | (row>>4)&0x00f0 | (row<<4)&0x0f00 | row<<12
}

// slideExponents is slideLine on exponents: the same tile-by-tile slide
// towards index 0, except that two 15s (32768) do not merge.
func slideExponents(cells [Size]uint8) (out [Size]uint8, score uint32) {
	out = cells
	var merged [Size]bool
	for i := range Size {
		e := out[i]
		if e == 0 {
			continue
		}
		out[i] = 0
		j := i
		for j > 0 && out[j-1] == 0 {
			j--
		}
		if j > 0 && out[j-1] == e && !merged[j-1] && e < 15 {
			out[j-1] = e + 1
			merged[j-1] = true
			score += 1 << (e + 1)
			continue
		}
		out[j] = e
	}
	return out, score
}

// rowHeuristic scores one row (or column) for Evaluate.
func rowHeuristic(cells [Size]uint8) float64 {
	var sum, empty, merges float64
	prev, run := uint8(0), 0
	for _, e := range cells {
		sum += math.Pow(float64(e), heurSumPower)
		if e == 0 {
			empty++
			continue
		}
		if e == prev {
			run++
		} else if run > 0 {
			merges += float64(1 + run)
			run = 0
		}
		prev = e
	}
	if run > 0 {
		merges += float64(1 + run)
	}
	var monoLeft, monoRight float64
	for i := 1; i < Size; i++ {
		a := math.Pow(float64(cells[i-1]), heurMonotonicPower)
		b := math.Pow(float64(cells[i]), heurMonotonicPower)
		if cells[i-1] > cells[i] {
			monoLeft += a - b
		} else {
			monoRight += b - a
		}
	}
	return heurBase + heurEmptyWeight*empty + heurMergeWeight*merges -
		heurMonotonicWeight*min(monoLeft, monoRight) - heurSumWeight*sum
}

// NewBitboard packs rows (top row first, 0 for an empty cell). It refuses
// values that are not 0 or a power of two from 2 to MaxBitboardTile.
func NewBitboard(rows [Size][Size]int) (Bitboard, error) {
	var b Bitboard
	for r := range Size {
		for c := range Size {
			v := rows[r][c]
			if v == 0 {
				continue
			}
			if v < 2 || v > MaxBitboardTile || v&(v-1) != 0 {
				return 0, fmt.Errorf("bitboard: cell (%d, %d) holds %d, not a power of two from 2 to %d", r, c, v, MaxBitboardTile)
			}
			b = b.WithExponent(r, c, uint8(bits.TrailingZeros(uint(v))))
		}
	}
	return b, nil
}

// Rows unpacks the board: tile values, top row first.
func (b Bitboard) Rows() [Size][Size]int {
	var rows [Size][Size]int
	for r := range Size {
		for c := range Size {
			if e := b.Exponent(r, c); e != 0 {
				rows[r][c] = 1 << e
			}
		}
	}
	return rows
}

// Exponent returns the exponent at (row, col), both from 0: 0 for an
// empty cell, 1 for 2, 2 for 4, ...
func (b Bitboard) Exponent(row, col int) uint8 {
	return uint8(b>>(4*(Size*row+col))) & 0xf
}

// WithExponent returns b with the exponent e (0..15) at (row, col).
func (b Bitboard) WithExponent(row, col int, e uint8) Bitboard {
	shift := 4 * (Size*row + col)
	return b&^(0xf<<shift) | Bitboard(e&0xf)<<shift
}

// Transpose mirrors the board on its main diagonal: (r, c) goes to (c, r).
func (b Bitboard) Transpose() Bitboard {
	x := uint64(b)
	a1 := x & 0xF0F00F0FF0F00F0F
	a2 := x & 0x0000F0F00000F0F0
	a3 := x & 0x0F0F00000F0F0000
	a := a1 | a2<<12 | a3>>12
	b1 := a & 0xFF00FF0000FF00FF
	b2 := a & 0x00FF00FF00000000
	b3 := a & 0x00000000FF00FF00
	return Bitboard(b1 | b2>>24 | b3<<24)
}

// Move slides and merges the board in direction d and returns the new
// board and the points scored. The board changed iff next != b. No tile is
// added.
func (b Bitboard) Move(d Direction) (next Bitboard, score int) {
	switch d {
	case West:
		return b.moveRows(&tables.left, &tables.leftScore)
	case East:
		return b.moveRows(&tables.right, &tables.rightScore)
	case North:
		n, s := b.Transpose().moveRows(&tables.left, &tables.leftScore)
		return n.Transpose(), s
	case South:
		n, s := b.Transpose().moveRows(&tables.right, &tables.rightScore)
		return n.Transpose(), s
	}
	return b, 0
}

func (b Bitboard) moveRows(rows *[1 << 16]uint16, scores *[1 << 16]uint32) (Bitboard, int) {
	var out Bitboard
	var score uint32
	for r := range Size {
		row := uint16(b >> (16 * r))
		out |= Bitboard(rows[row]) << (16 * r)
		score += scores[row]
	}
	return out, int(score)
}

// CanMove reports whether moving in direction d changes the board.
func (b Bitboard) CanMove(d Direction) bool {
	next, _ := b.Move(d)
	return next != b
}

// EmptyCells counts the empty cells.
func (b Bitboard) EmptyCells() int {
	n := 0
	for i := 0; i < 64; i += 4 {
		if (b>>i)&0xf == 0 {
			n++
		}
	}
	return n
}

// Evaluate is a heuristic value of the position for search (higher is
// better), in integer points: per row and per column, a bonus for empty
// cells and equal neighbours, a penalty for rows and columns that are not
// monotone and for large tiles left unmerged. Its magnitude stays below
// 10^8.
func (b Bitboard) Evaluate() int64 {
	t := b.Transpose()
	var sum int64
	for r := range Size {
		sum += int64(tables.heuristic[uint16(b>>(16*r))])
		sum += int64(tables.heuristic[uint16(t>>(16*r))])
	}
	return sum
}
