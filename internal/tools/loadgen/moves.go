package loadgen

import (
	"strconv"
)

// goLetters are the column letters of go boards (I included, as the seed).
const goLetters = "ABCDEFGHIJKLMNOPQRS"

// goNames[x][y] is the name of the go point in column x, row y+1.
var goNames = func() (t [len(goLetters)][len(goLetters)]string) {
	for x := range t {
		for y := range t[x] {
			t[x][y] = goLetters[x:x+1] + strconv.Itoa(y+1)
		}
	}
	return t
}()

// goMoveName is the string of a go move written as the server writes it
// (a point such as "D4", or "pass"), without allocating.
func goMoveName(b []byte) (string, bool) {
	if string(b) == "pass" {
		return "pass", true
	}
	if len(b) < 2 || len(b) > 3 || b[0] < 'A' || b[0] > 'S' || b[1] < '1' || b[1] > '9' {
		return "", false
	}
	y := int(b[1] - '0')
	if len(b) == 3 {
		if b[2] < '0' || b[2] > '9' {
			return "", false
		}
		y = y*10 + int(b[2]-'0')
	}
	if y > len(goLetters) {
		return "", false
	}
	return goNames[b[0]-'A'][y-1], true
}

// ChooseMove picks the k-th move of a room from its legal moves, never a
// pass. On a go board of the given size it follows the Colyseus workload:
// the k-th move goes on point k mod size², row-major from A1, or on the
// next legal point after it; other games take legal[k mod len]. It returns
// "" when there is no move but a pass.
func ChooseMove(game string, size int, legal Moves, k int) string {
	if game != "go" || size <= 0 || size > len(goLetters) {
		n := 0
		for m := range legal.each() {
			if string(m) != "pass" {
				n++
			}
		}
		if n == 0 {
			return ""
		}
		want := k % n
		for m := range legal.each() {
			if string(m) == "pass" {
				continue
			}
			if want == 0 {
				if s, ok := goMoveName(m); ok {
					return s
				}
				return string(m)
			}
			want--
		}
		return ""
	}
	// The first legal point at or after k mod n, wrapping around: the one
	// at the smallest distance forward.
	n := size * size
	k %= n
	best, bestD := -1, n
	// consider says when m is point k itself: nothing can be nearer.
	consider := func(m []byte) bool {
		p, ok := goPoint(m, size)
		if !ok {
			return false
		}
		d := p - k
		if d < 0 {
			d += n
		}
		if d < bestD {
			best, bestD = p, d
		}
		return d == 0
	}
	// legal was checked as an array of strings and nulls, so a quote
	// opens or closes a string unless it is escaped; escapes (which the
	// server never writes in a move) take the decoding path.
	plain := true
	for i := 0; i < len(legal); i++ {
		if legal[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(legal) && legal[j] != '"' && legal[j] != '\\' {
			j++
		}
		if j >= len(legal) || legal[j] == '\\' {
			plain = false
			break
		}
		if consider(legal[i+1 : j]) {
			break
		}
		i = j
	}
	if !plain {
		best, bestD = -1, n
		for m := range legal.each() {
			if consider(m) {
				break
			}
		}
	}
	if best < 0 {
		return ""
	}
	return goNames[best%size][best/size]
}

// goPoint is the index of the go point m on a board of the given size
// (row-major from A1). The row is read as strconv.Atoi reads it.
func goPoint(m []byte, size int) (int, bool) {
	if len(m) < 2 || len(m) > 3 {
		return 0, false
	}
	x := int(m[0] - 'A')
	y, ok := atoiShort(m[1:])
	if x >= size || !ok || y < 1 || y > size {
		return 0, false
	}
	return (y-1)*size + x, true
}

// atoiShort is strconv.Atoi of one or two bytes: an optional sign, then at
// least one digit.
func atoiShort(s []byte) (int, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
