package loadgen

import (
	"strconv"
)

// goLetters are the column letters of go boards (I included, as the seed).
const goLetters = "ABCDEFGHIJKLMNOPQRS"

// ChooseMove picks the k-th move of a room from the legal moves, never a
// pass. On a go board of the given size it follows the Colyseus workload:
// the k-th move goes on point k mod size², row-major from A1, or on the
// next legal point after it; other games take legal[k mod len]. It returns
// "" when there is no move but a pass.
func ChooseMove(game string, size int, legal []string, k int) string {
	if game != "go" || size <= 0 || size > len(goLetters) {
		var moves []string
		for _, m := range legal {
			if m != "pass" {
				moves = append(moves, m)
			}
		}
		if len(moves) == 0 {
			return ""
		}
		return moves[k%len(moves)]
	}
	n := size * size
	free := make([]bool, n)
	found := false
	for _, m := range legal {
		if p, ok := goPoint(m, size); ok {
			free[p] = true
			found = true
		}
	}
	if !found {
		return ""
	}
	for i := 0; i < n; i++ {
		p := (k + i) % n
		if free[p] {
			return goName(p, size)
		}
	}
	return ""
}

func goPoint(m string, size int) (int, bool) {
	if len(m) < 2 || len(m) > 3 {
		return 0, false
	}
	x := int(m[0] - 'A')
	y, err := strconv.Atoi(m[1:])
	if x < 0 || x >= size || err != nil || y < 1 || y > size {
		return 0, false
	}
	return (y-1)*size + x, true
}

func goName(p, size int) string {
	return string(goLetters[p%size]) + strconv.Itoa(p/size+1)
}
