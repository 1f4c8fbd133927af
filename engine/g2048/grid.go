package g2048

import (
	"fmt"
	"strings"
)

// Size is the side of the 2048 grid.
const Size = 4

// maxTile is the largest tile a 4x4 game can ever hold (2^17: every cell
// in a descending chain ending in a spawned 4). Setups and snapshots with a
// larger tile are refused as impossible.
const maxTile = 1 << 17

// maxScore bounds the score accepted in a setup or snapshot, far above any
// reachable score, so that adding merges can never overflow.
const maxScore = 1 << 50

// Direction is one of the four moves of the game, named as the seed names
// them: N (up), S (down), E (right), W (left).
type Direction uint8

// The four directions, in the order Legal lists them (the order of the
// seed's prompt "Introduza uma jogada (N, S, E, W)"): a loop
// "for d := North; d <= West; d++" visits them in that order.
const (
	North Direction = iota
	South
	East
	West
)

// directions lists the four directions in reading order: N, S, E, W.
// It is never written.
var directions = [4]Direction{North, South, East, West}

// String returns the notation of d: "N", "S", "E" or "W".
func (d Direction) String() string {
	switch d {
	case North:
		return "N"
	case South:
		return "S"
	case East:
		return "E"
	case West:
		return "W"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// parseDirection reads a move. Only the four upper-case letters are moves:
// the seed's pede_jogada refuses "1", "a" and even "n".
func parseDirection(move string) (Direction, error) {
	switch move {
	case "N":
		return North, nil
	case "S":
		return South, nil
	case "E":
		return East, nil
	case "W":
		return West, nil
	}
	return 0, fmt.Errorf("%q is not a direction: play N, S, E or W", move)
}

// coord is a position on the grid, as the seed's TAD coordenada: row and
// column both from 1 to 4, (1, 1) the top-left corner.
type coord struct {
	row, col int
}

// newCoord builds the coordinate (row, col), refusing positions off the
// grid (the seed's cria_coordenada).
func newCoord(row, col int) (coord, error) {
	c := coord{row: row, col: col}
	if !c.valid() {
		return coord{}, fmt.Errorf("coordinate (%d, %d) is off the %dx%d grid", row, col, Size, Size)
	}
	return c, nil
}

func (c coord) valid() bool {
	return c.row >= 1 && c.row <= Size && c.col >= 1 && c.col <= Size
}

// grid is one 2048 board with its score, as the seed's TAD tabuleiro.
// cells holds tile values (0 for an empty cell), cells[r][c] being
// row r+1, column c+1; row 0 is the top row. A grid is a value: copying it
// copies the board.
type grid struct {
	cells [Size][Size]int
	score int
}

// at returns the value at c, 0 for an empty cell (tabuleiro_posicao).
func (g *grid) at(c coord) (int, error) {
	if !c.valid() {
		return 0, fmt.Errorf("at: coordinate (%d, %d) is off the grid", c.row, c.col)
	}
	return g.cells[c.row-1][c.col-1], nil
}

// set puts v at c (tabuleiro_preenche_posicao). v must be 0 or a tile
// value.
func (g *grid) set(c coord, v int) error {
	if !c.valid() {
		return fmt.Errorf("set: coordinate (%d, %d) is off the grid", c.row, c.col)
	}
	if v != 0 && !isTile(v) {
		return fmt.Errorf("set: %d is not a tile (a power of two from 2 to %d)", v, maxTile)
	}
	g.cells[c.row-1][c.col-1] = v
	return nil
}

// addScore adds v points (tabuleiro_atualiza_pontuacao): v must be
// non-negative and a multiple of 4, as every merge yields at least 4.
func (g *grid) addScore(v int) error {
	if v < 0 || v%4 != 0 {
		return fmt.Errorf("add score: %d is not a non-negative multiple of 4", v)
	}
	g.score += v
	return nil
}

// empties lists the empty cells in reading order: rows top to bottom, each
// left to right (tabuleiro_posicoes_vazias).
func (g *grid) empties() []coord {
	var out []coord
	for r := range Size {
		for c := range Size {
			if g.cells[r][c] == 0 {
				out = append(out, coord{row: r + 1, col: c + 1})
			}
		}
	}
	return out
}

// lines[d][i] lists the four cells (row, column from 0) of line i for a
// move in direction d, from the cell nearest the wall the tiles slide
// towards to the farthest: for W, row i from the left; for E, row i from the
// right; for N, column i from the top; for S, column i from the bottom.
var lines = buildLines()

func buildLines() (out [4][Size][Size][2]int) {
	for i := range Size {
		for k := range Size {
			out[West][i][k] = [2]int{i, k}
			out[East][i][k] = [2]int{i, Size - 1 - k}
			out[North][i][k] = [2]int{k, i}
			out[South][i][k] = [2]int{Size - 1 - k, i}
		}
	}
	return out
}

// line returns the cells of line i for a move in direction d (see lines).
func line(d Direction, i int) *[Size][2]int {
	return &lines[d][i]
}

// reduce slides and merges every tile in direction d (tabuleiro_reduz),
// adds the merged values to the score and reports whether the board
// changed.
func (g *grid) reduce(d Direction) bool {
	changed := false
	for i := range Size {
		cells := line(d, i)
		var vals [Size]int
		for k, rc := range cells {
			vals[k] = g.cells[rc[0]][rc[1]]
		}
		slid, gained := slideLine(vals)
		if slid != vals {
			changed = true
		}
		for k, rc := range cells {
			g.cells[rc[0]][rc[1]] = slid[k]
		}
		g.score += gained
	}
	return changed
}

// slideLine moves the tiles of one line towards index 0 exactly as the
// seed describes: tiles move one at a time, starting with the one nearest
// the wall, each as far as it can until it hits the wall or another tile; a
// tile that hits a tile of the same value merges with it, unless that tile
// is itself the result of a merge in this move. It returns the new line and
// the sum of the merged values.
func slideLine(vals [Size]int) (out [Size]int, gained int) {
	out = vals
	var merged [Size]bool
	for i := range Size {
		v := out[i]
		if v == 0 {
			continue
		}
		out[i] = 0
		j := i
		for j > 0 && out[j-1] == 0 {
			j--
		}
		if j > 0 && out[j-1] == v && !merged[j-1] {
			out[j-1] = 2 * v
			merged[j-1] = true
			gained += 2 * v
			continue
		}
		out[j] = v
	}
	return out, gained
}

// canMove reports whether reducing in direction d would change the board:
// some line has an empty cell on the wall side of a tile, or two equal
// tiles with only empty cells between them.
func (g *grid) canMove(d Direction) bool {
	for i := range Size {
		prev := 0 // the last tile seen from the wall, 0 before the first
		gap := false
		for _, rc := range line(d, i) {
			v := g.cells[rc[0]][rc[1]]
			switch {
			case v == 0:
				gap = true
			case gap || v == prev:
				return true
			default:
				prev = v
			}
		}
	}
	return false
}

// finished reports whether the board is full and no move changes it
// (tabuleiro_terminado).
func (g *grid) finished() bool {
	for _, d := range directions {
		if g.canMove(d) {
			return false
		}
	}
	return true
}

// equal reports whether g and h hold the same tiles and score
// (tabuleiros_iguais).
func (g *grid) equal(h *grid) bool {
	return *g == *h
}

// maxTileValue returns the largest tile on the board, 0 when it is empty.
func (g *grid) maxTileValue() int {
	m := 0
	for r := range Size {
		for c := range Size {
			m = max(m, g.cells[r][c])
		}
	}
	return m
}

// rows returns the board as a slice of rows, top row first.
func (g *grid) rows() [][]int {
	out := make([][]int, Size)
	for r := range Size {
		out[r] = append([]int(nil), g.cells[r][:]...)
	}
	return out
}

// String writes the board as the seed's escreve_tabuleiro does: one line
// per row, each cell as "[ v ]" separated by spaces, then "Pontuacao: n".
func (g *grid) String() string {
	var b strings.Builder
	for r := range Size {
		for c := range Size {
			if c > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "[ %d ]", g.cells[r][c])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Pontuacao: %d\n", g.score)
	return b.String()
}

// isTile reports whether v is a tile value: a power of two from 2 to
// maxTile.
func isTile(v int) bool {
	return v >= 2 && v <= maxTile && v&(v-1) == 0
}

// gridFromRows builds a grid from rows top to bottom, checking the shape,
// the tile values and the score.
func gridFromRows(rows [][]int64, score int64) (grid, error) {
	var g grid
	if len(rows) != Size {
		return g, fmt.Errorf("board has %d rows, want %d", len(rows), Size)
	}
	tiles := 0
	for r, row := range rows {
		if len(row) != Size {
			return g, fmt.Errorf("board row %d has %d cells, want %d", r+1, len(row), Size)
		}
		for c, v := range row {
			if v != 0 && (v < 2 || v > maxTile || v&(v-1) != 0) {
				return g, fmt.Errorf("board (%d, %d) holds %d: a cell is 0 or a power of two from 2 to %d", r+1, c+1, v, maxTile)
			}
			if v != 0 {
				tiles++
			}
			g.cells[r][c] = int(v)
		}
	}
	if tiles == 0 {
		// An empty board is not a position of the game: every game holds
		// at least two tiles, and no move could ever change it.
		return g, fmt.Errorf("board has no tiles")
	}
	if score < 0 || score > maxScore || score%4 != 0 {
		return g, fmt.Errorf("score %d is not a non-negative multiple of 4 up to %d", score, int64(maxScore))
	}
	g.score = int(score)
	return g, nil
}
