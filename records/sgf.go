package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// SGFRules is the SGF RU of our go: the seed's rules. With area scores
// (whole numbers) "white wins ties" is exactly a komi of one half, which is
// what KM says, so a program that scores the game with KM finds our winner.
const SGFRules = "Tabuleiro: area scoring of the board as it stands (no dead stones removed), " +
	"positional superko, suicide illegal, white wins ties (komi 0.5)"

// SGFRulesKomi is the SGF RU of a game under the seed's rules but with a
// komi of its own, which KM says.
const SGFRulesKomi = "Tabuleiro: area scoring of the board as it stands (no dead stones removed), " +
	"positional superko, suicide illegal"

// SGFRulesRemoval is the SGF RU of a game with a stone-removal phase; its
// komi is in KM.
const SGFRulesRemoval = "Tabuleiro: area scoring with the dead stones removed as both players accepted, " +
	"positional superko, suicide illegal"

// SGFKomi is the SGF KM of our go under the seed's rules (see SGFRules).
const SGFKomi = "0.5"

// sgfRules is the RU of rec's game: SGFRules for the seed's rules,
// SGFRulesKomi with another komi, SGFRulesRemoval with stone removal.
func sgfRules(rec *Record) string {
	switch {
	case rec.Removal:
		return SGFRulesRemoval
	case rec.Komi != 0:
		return SGFRulesKomi
	}
	return SGFRules
}

// sgfKomi is the KM of rec's game.
func sgfKomi(rec *Record) string {
	if rec.Komi == 0 {
		return SGFKomi
	}
	return strconv.FormatFloat(rec.Komi, 'f', -1, 64)
}

// ErrNotGo is returned by SGF for a game that is not go.
var ErrNotGo = errors.New("records: SGF is for go games only")

// SGF returns a go game as SGF (FF[4], docs/records.md): the root node
// with the board size, our rules (RU, KM, HA for a handicap), the players
// (PB, PW), the date (DT), the time control (TM, OT), the result (RE, when
// the game is over), the setup or handicap stones (AB, AW) and the side to
// move first (PL, when white), then one node a move, a pass written B[] or
// W[]; a game counted after its stone-removal phase has on its last node
// the territory of each color (TB, TW), the points of the stones marked
// dead among them. The moves are replayed through the engine first, so a
// record the rules refuse is refused here.
func SGF(ctx context.Context, cat *engine.Catalog, rec *Record) ([]byte, error) {
	if rec.Game != "go" {
		return nil, fmt.Errorf("%w (room %s is %s)", ErrNotGo, rec.Room, rec.Game)
	}
	n, ok := goSize(rec.Variant)
	if !ok {
		return nil, fmt.Errorf("records: go variant %q", rec.Variant)
	}
	var start []string
	black := true // the color to move first
	final, err := replay(ctx, cat, rec, func(i int, st engine.State) error {
		if i == 0 {
			var err error
			start, err = rowsOf(st.Board(), n)
			if t, ok := st.Turn(); ok {
				black = t == 0
			}
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("(;FF[4]GM[1]CA[UTF-8]AP[Tabuleiro]SZ[")
	b.WriteString(strconv.Itoa(n))
	b.WriteString("]\n")
	prop(&b, "RU", sgfRules(rec))
	b.WriteString("KM[" + sgfKomi(rec) + "]\n")
	if rec.Handicap > 0 {
		b.WriteString("HA[" + strconv.Itoa(rec.Handicap) + "]\n")
	}
	prop(&b, "PC", "Tabuleiro, room "+rec.Room)
	prop(&b, "PB", rec.DisplayName(0))
	prop(&b, "PW", rec.DisplayName(1))
	date := rec.Started
	if date.IsZero() {
		date = rec.Created
	}
	if !date.IsZero() {
		prop(&b, "DT", date.UTC().Format(time.DateOnly))
	}
	if c := rec.Clock; c != nil {
		b.WriteString("TM[" + strconv.FormatFloat(c.Base.Seconds(), 'f', -1, 64) + "]")
		if c.Increment > 0 {
			prop(&b, "OT", "Fischer +"+strconv.FormatFloat(c.Increment.Seconds(), 'f', -1, 64)+" s a move")
		} else {
			b.WriteString("\n")
		}
	}
	if rec.Result != nil {
		re, err := sgfResult(rec.Result, final, rec.Komi)
		if err != nil {
			return nil, err
		}
		prop(&b, "RE", re)
	}
	stones := func(prop string, c byte) {
		first := true
		for row, s := range start {
			for col := 0; col < len(s); col++ {
				if s[col] != c {
					continue
				}
				if first {
					b.WriteString(prop)
					first = false
				}
				b.WriteString("[" + sgfPoint(col, row) + "]")
			}
		}
		if !first {
			b.WriteString("\n")
		}
	}
	stones("AB", 'X')
	stones("AW", 'O')
	if !black {
		b.WriteString("PL[W]\n")
	}
	for i, m := range rec.Moves {
		color := "B"
		if m.Seat == 1 {
			color = "W"
		}
		point := ""
		if m.Move != "pass" {
			col, row, ok := square(m.Move, goColumns[:n], n)
			if !ok {
				return nil, fmt.Errorf("records: go move %d %q", i+1, m.Move)
			}
			point = sgfPoint(col, n-row)
		}
		b.WriteString(";" + color + "[" + point + "]")
		if i == len(rec.Moves)-1 && rec.Result != nil && rec.Result.Reason == engine.ReasonScored {
			if err := territory(&b, final, n); err != nil {
				return nil, err
			}
		}
		if i%10 == 9 || i == len(rec.Moves)-1 {
			b.WriteString("\n")
		}
	}
	b.WriteString(")\n")
	return []byte(b.String()), nil
}

// territory writes the TB and TW of a game counted after its stone-removal
// phase: the points of each color's area (the engine's "area", counted
// without the dead stones) that hold no stone of that color, so the
// points of the dead stones are the other color's.
func territory(b *strings.Builder, final engine.State, n int) error {
	board, err := rowsOf(final.Board(), n)
	if err != nil {
		return err
	}
	area, err := rowsOf(final.Extra()["area"], n)
	if err != nil {
		return fmt.Errorf("records: go area: %w", err)
	}
	for _, side := range []struct {
		prop string
		c    byte
	}{{"TB", 'X'}, {"TW", 'O'}} {
		first := true
		for row := range n {
			for col := range n {
				if area[row][col] != side.c || board[row][col] == side.c {
					continue
				}
				if first {
					b.WriteString(side.prop)
					first = false
				}
				b.WriteString("[" + sgfPoint(col, row) + "]")
			}
		}
	}
	return nil
}

// sgfPoint is SGF's name of the point in column col (0 = left) and row
// (0 = top): two letters from "a", with no letter skipped.
func sgfPoint(col, row int) string {
	return string([]byte{'a' + byte(col), 'a' + byte(row)})
}

// prop writes one property with a SimpleText value and a line break.
func prop(b *strings.Builder, name, value string) {
	b.WriteString(name + "[" + sgfEscape(value) + "]\n")
}

// sgfEscape escapes a SimpleText value: "\" and "]" take a backslash, and
// line breaks become spaces.
func sgfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// sgfResult is SGF's RE: the winner's color and the margin with the komi
// (0 standing for the seed's 0.5: B+12.5) for a game scored at the end,
// R for a resignation, T for time, F for a forfeit (a claimed
// abandonment); 0 for a draw and Void for a game without a winner that
// did not end on the board (an aborted one).
func sgfResult(res *Result, final engine.State, komi float64) (string, error) {
	if res.Winner < 0 {
		switch res.Reason {
		case "resign", "timeout", "abandoned", "aborted":
			return "Void", nil
		}
		return "0", nil
	}
	color := "B+"
	if res.Winner == 1 {
		color = "W+"
	}
	switch res.Reason {
	case "resign":
		return color + "R", nil
	case "timeout":
		return color + "T", nil
	case "abandoned":
		return color + "F", nil
	case "two_passes", engine.ReasonScored:
		raw, err := json.Marshal(final.Score())
		if err != nil {
			return "", err
		}
		var sc struct{ Black, White int }
		if err := json.Unmarshal(raw, &sc); err != nil {
			return "", fmt.Errorf("records: go score %s: %w", raw, err)
		}
		if komi == 0 {
			komi = 0.5
		}
		margin := float64(sc.Black) - float64(sc.White) - komi
		if res.Winner == 1 {
			margin = -margin
		}
		return color + strconv.FormatFloat(margin, 'f', 1, 64), nil
	}
	return color, nil
}

// rowsOf reads a go board view: n strings of n cells, top row first.
func rowsOf(board any, n int) ([]string, error) {
	rows, ok := board.([]string)
	if !ok {
		raw, err := json.Marshal(board)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &rows); err != nil {
			return nil, fmt.Errorf("records: go board %s: %w", raw, err)
		}
	}
	if len(rows) != n {
		return nil, fmt.Errorf("records: go board of %d rows on %dx%d", len(rows), n, n)
	}
	for _, r := range rows {
		if len(r) != n {
			return nil, fmt.Errorf("records: go board row %q on %dx%d", r, n, n)
		}
	}
	return rows, nil
}
