package records

import (
	"strconv"
	"strings"
)

// A moveCodec numbers the moves of one game so that the encoding stores a
// small integer instead of the move's text: a 19x19 go move costs two bytes
// with its seat instead of four or five. Every move a codec does not number
// (a notation a later engine adds) is stored as text, so the encoding is
// total; a codec only numbers a move whose number decodes back to the same
// text (see codeOf).
type moveCodec struct {
	// number returns the move's number, false when the codec has none.
	number func(variant, move string) (uint64, bool)
	// text returns the move numbered v, false when v names none.
	text func(variant string, v uint64) (string, bool)
}

// codecs are the games' codecs by game id.
var codecs = map[string]moveCodec{
	"go":     {goNumber, goText},
	"orbito": {orbitoNumber, orbitoText},
	"morris": {morrisNumber, morrisText},
	"2048":   {dirNumber, dirText},
	"queens": {queensNumber, queensText},
}

// codeOf returns the number of a move of game, false when it is stored as
// text.
func codeOf(game, variant, move string) (uint64, bool) {
	c, ok := codecs[game]
	if !ok {
		return 0, false
	}
	v, ok := c.number(variant, move)
	if !ok {
		return 0, false
	}
	if back, ok := c.text(variant, v); !ok || back != move {
		return 0, false
	}
	return v, true
}

// moveOf is the move of game numbered v.
func moveOf(game, variant string, v uint64) (string, bool) {
	c, ok := codecs[game]
	if !ok {
		return "", false
	}
	return c.text(variant, v)
}

// goColumns are the go engine's column letters, I included.
const goColumns = "ABCDEFGHIJKLMNOPQRS"

// goSize is the board size of a go variant ("9", "13", "19").
func goSize(variant string) (int, bool) {
	n, err := strconv.Atoi(variant)
	return n, err == nil && n >= 2 && n <= len(goColumns)
}

// goNumber: an intersection is (row-1)*n + column, the pass n*n.
func goNumber(variant, move string) (uint64, bool) {
	n, ok := goSize(variant)
	if !ok {
		return 0, false
	}
	if move == "pass" {
		return uint64(n * n), true
	}
	col, row, ok := square(move, goColumns[:n], n)
	if !ok {
		return 0, false
	}
	return uint64((row-1)*n + col), true
}

func goText(variant string, v uint64) (string, bool) {
	n, ok := goSize(variant)
	switch {
	case !ok || v > uint64(n*n):
		return "", false
	case v == uint64(n*n):
		return "pass", true
	}
	return goColumns[int(v)%n:int(v)%n+1] + strconv.Itoa(int(v)/n+1), true
}

// orbitoSize is the side of an orbito board: twice the orbits.
func orbitoSize(variant string) (int, bool) {
	n, err := strconv.Atoi(variant)
	return 2 * n, err == nil && n >= 2 && n <= 5
}

const lowerColumns = "abcdefghijklmnopqrstuvwxyz"

// orbitoNumber: a square is (row-1)*size + column.
func orbitoNumber(variant, move string) (uint64, bool) {
	n, ok := orbitoSize(variant)
	if !ok {
		return 0, false
	}
	col, row, ok := square(move, lowerColumns[:n], n)
	if !ok {
		return 0, false
	}
	return uint64((row-1)*n + col), true
}

func orbitoText(variant string, v uint64) (string, bool) {
	n, ok := orbitoSize(variant)
	if !ok || v >= uint64(n*n) {
		return "", false
	}
	return lowerColumns[int(v)%n:int(v)%n+1] + strconv.Itoa(int(v)/n+1), true
}

// morrisNumber: a placement is its point (0..8, reading order), a
// movement (or a blocked pass, a1a1) 9 + from*9 + to.
func morrisNumber(_, move string) (uint64, bool) {
	point := func(s string) (int, bool) {
		col, row, ok := square(s, "abc", 3)
		return (row-1)*3 + col, ok
	}
	switch len(move) {
	case 2:
		p, ok := point(move)
		return uint64(p), ok
	case 4:
		from, ok1 := point(move[:2])
		to, ok2 := point(move[2:])
		return uint64(9 + from*9 + to), ok1 && ok2
	}
	return 0, false
}

func morrisText(_ string, v uint64) (string, bool) {
	name := func(p int) string { return "abc"[p%3:p%3+1] + strconv.Itoa(p/3+1) }
	switch {
	case v < 9:
		return name(int(v)), true
	case v < 90:
		return name(int(v-9)/9) + name(int(v-9)%9), true
	}
	return "", false
}

const directions = "NSEW"

func dirNumber(_, move string) (uint64, bool) {
	i := strings.Index(directions, move)
	return uint64(i), len(move) == 1 && i >= 0
}

func dirText(_ string, v uint64) (string, bool) {
	if v >= uint64(len(directions)) {
		return "", false
	}
	return directions[v : v+1], true
}

// queensSizes are the board sides of the queens modalities.
var queensSizes = map[string]int{"tradicional": 8, "grande": 20, "impar": 13, "x-random": 8}

const queensPieces = "RDTBC"

// queensNumber: piece@row,col is piece*n*n + row*n + col.
func queensNumber(variant, move string) (uint64, bool) {
	n, ok := queensSizes[variant]
	if !ok || len(move) < 5 || move[1] != '@' {
		return 0, false
	}
	piece := strings.IndexByte(queensPieces, move[0])
	r, c, ok := strings.Cut(move[2:], ",")
	if piece < 0 || !ok {
		return 0, false
	}
	row, err1 := strconv.Atoi(r)
	col, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil || row < 0 || row >= n || col < 0 || col >= n {
		return 0, false
	}
	return uint64(piece*n*n + row*n + col), true
}

func queensText(variant string, v uint64) (string, bool) {
	n, ok := queensSizes[variant]
	if !ok || v >= uint64(len(queensPieces)*n*n) {
		return "", false
	}
	p, sq := int(v)/(n*n), int(v)%(n*n)
	return queensPieces[p:p+1] + "@" + strconv.Itoa(sq/n) + "," + strconv.Itoa(sq%n), true
}

// square reads a column letter of columns and a row 1..n written without
// leading zero; col counts from 0.
func square(s, columns string, n int) (col, row int, ok bool) {
	if len(s) < 2 || len(s) > 3 || s[1] < '1' || s[1] > '9' {
		return 0, 0, false
	}
	col = strings.IndexByte(columns, s[0])
	row, err := strconv.Atoi(s[1:])
	if col < 0 || err != nil || row < 1 || row > n {
		return 0, 0, false
	}
	return col, row, true
}
