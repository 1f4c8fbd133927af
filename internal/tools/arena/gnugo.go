package arena

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// gnugoPlayer is GNU Go over GTP, keeping its own board in step with the
// game: every move of both sides is sent to it with "play", except the ones
// it generated itself.
type gnugoPlayer struct {
	c     *gtp.Client
	n     int
	seat  int
	color string // "black" or "white"
	// generated is the move genmove just gave (already on GNU Go's board).
	generated string
	// refused counts GNU Go moves our rules refused (positional superko,
	// which GNU Go does not apply), replaced by passes.
	refused int
}

// gnugoError is a failure of GNU Go itself (the process or the protocol),
// which stops the match rather than forfeiting a game.
type gnugoError struct{ err error }

func (e *gnugoError) Error() string { return "gnugo: " + e.err.Error() }
func (e *gnugoError) Unwrap() error { return e.err }

// startGnuGo starts GNU Go for seat of the go game s (an empty board of the
// variant's size), with area (Chinese) rules and komi 0.5, so that, as in
// our rules, white wins a tied count.
func startGnuGo(cfg Config, s engine.State, seat int, seed uint64) (*gnugoPlayer, error) {
	n, err := strconv.Atoi(s.Variant())
	if err != nil {
		return nil, fmt.Errorf("gnugo plays go only, not variant %q", s.Variant())
	}
	c, err := gtp.Start(cfg.GnuGoPath, "--mode", "gtp", "--chinese-rules", "--komi", "0.5",
		"--level", strconv.Itoa(cfg.GnuGoLevel), "--seed", strconv.FormatUint(seed%(1<<31), 10))
	if err != nil {
		return nil, &gnugoError{fmt.Errorf("%w (install Debian's gnugo package, or give -gnugo-path)", err)}
	}
	p := &gnugoPlayer{c: c, n: n, seat: seat, color: colorName(seat)}
	for _, cmd := range [][]string{{"boardsize", strconv.Itoa(n)}, {"clear_board"}, {"komi", "0.5"}} {
		if _, err := c.Command(cmd[0], cmd[1:]...); err != nil {
			_ = c.Close()
			return nil, &gnugoError{err}
		}
	}
	return p, nil
}

func colorName(seat int) string {
	if seat == 0 {
		return "black"
	}
	return "white"
}

// move asks GNU Go for its move. A move our rules refuse (a superko
// repetition) is taken back on GNU Go's board and replaced by a pass; a
// resignation is returned as an error, which forfeits the game.
func (p *gnugoPlayer) move(s engine.State, seat, _ int) (string, error) {
	vertex, err := p.c.Command("genmove", p.color)
	if err != nil {
		return "", &gnugoError{err}
	}
	if strings.EqualFold(vertex, "resign") {
		return "", fmt.Errorf("GNU Go resigned")
	}
	move, err := gtp.FromGTP(vertex, p.n)
	if err != nil {
		return "", &gnugoError{fmt.Errorf("genmove answered %q: %w", vertex, err)}
	}
	if !slices.Contains(s.Legal(seat), move) {
		if _, err := p.c.Command("undo"); err != nil {
			return "", &gnugoError{err}
		}
		p.refused++
		return "pass", nil
	}
	p.generated = move
	return move, nil
}

// played sends a move to GNU Go's board unless GNU Go generated it.
func (p *gnugoPlayer) played(seat int, move string) error {
	if seat == p.seat && p.generated != "" {
		if move != p.generated {
			return &gnugoError{fmt.Errorf("played %s where GNU Go generated %s", move, p.generated)}
		}
		p.generated = ""
		return nil
	}
	vertex, err := gtp.ToGTP(move, p.n)
	if err != nil {
		return &gnugoError{err}
	}
	if _, err := p.c.Command("play", colorName(seat), vertex); err != nil {
		return &gnugoError{err}
	}
	return nil
}

// referee asks GNU Go's count of the final position (it removes the stones
// it judges dead, which our rules never do) and whether its winner is ours.
func (p *gnugoPlayer) referee(winner int) (string, bool, error) {
	score, err := p.c.Command("final_score")
	if err != nil {
		return "", false, &gnugoError{err}
	}
	gnuWinner := -2
	switch {
	case strings.HasPrefix(score, "B+"):
		gnuWinner = 0
	case strings.HasPrefix(score, "W+"):
		gnuWinner = 1
	}
	return score, gnuWinner == winner, nil
}

func (p *gnugoPlayer) close() error {
	if err := p.c.Close(); err != nil {
		return &gnugoError{err}
	}
	return nil
}
