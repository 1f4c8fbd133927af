package records

import (
	"strconv"
	"strings"
	"time"
)

// TextFormat is the first line of the plain-text notation.
const TextFormat = "Format: Tabuleiro record 1"

// Text returns the record in the plain-text notation (docs/records.md,
// "Plain text"): a header of "Key: value" lines, a blank line, then one
// line a move: its number, a dot, the seat, the move in the wire notation
// and the milliseconds it took ("12. 1 E5 812ms").
//
//	Format: Tabuleiro record 1
//	Game: orbito
//	Variant: 2
//	Room: r7Kq2xY-9a
//	Status: finished
//	Seat 0: ana
//	Seat 0 id: pQ3x
//	Seat 1: bot normal
//	Seat 1 bot: normal
//	Clock: 300+3
//	Created: 2030-01-02T03:04:05.000Z
//	Started: 2030-01-02T03:04:09.000Z
//	Ended: 2030-01-02T03:09:41.250Z
//	Winner: 1
//	Reason: line
//	Moves: 9
//
//	1. 0 b2 812ms
//	2. 1 d1 1204ms
//
// Keys appear in that order; Setup (the setup object as compact JSON)
// follows Seat lines when the game started from one, Seed (2048's tiles)
// once the game is over, Clock only with a time control, then go's rule
// options when they are not the seed's (Komi, Handicap, Removal: yes),
// Started, Ended, Winner (a seat or "none") and Reason only once they are
// known, Dead (the stones marked dead, space-separated) when the game
// ended in its stone-removal phase.
func Text(rec *Record) []byte {
	var b strings.Builder
	line := func(key, value string) {
		b.WriteString(key + ": " + oneLine(value) + "\n")
	}
	b.WriteString(TextFormat + "\n")
	line("Game", rec.Game)
	line("Variant", rec.Variant)
	line("Room", rec.Room)
	line("Status", rec.Status)
	for i, p := range rec.Players {
		seat := "Seat " + strconv.Itoa(i)
		line(seat, rec.DisplayName(i))
		if p.ID != "" {
			line(seat+" id", p.ID)
		}
		if p.Bot != "" {
			line(seat+" bot", p.Bot)
		}
	}
	if len(rec.Setup) > 0 {
		line("Setup", string(rec.Setup))
	}
	if rec.Finished() && rec.Game == "2048" {
		line("Seed", strconv.FormatUint(rec.Seed, 10))
	}
	if c := rec.Clock; c != nil {
		line("Clock", seconds(c.Base)+"+"+seconds(c.Increment))
	}
	if rec.Komi != 0 {
		line("Komi", strconv.FormatFloat(rec.Komi, 'f', -1, 64))
	}
	if rec.Handicap != 0 {
		line("Handicap", strconv.Itoa(rec.Handicap))
	}
	if rec.Removal {
		line("Removal", "yes")
	}
	for _, t := range []struct {
		key string
		t   time.Time
	}{{"Created", rec.Created}, {"Started", rec.Started}, {"Ended", rec.Ended}} {
		if !t.t.IsZero() {
			line(t.key, t.t.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
		}
	}
	if res := rec.Result; res != nil {
		w := "none"
		if res.Winner >= 0 {
			w = strconv.Itoa(res.Winner)
		}
		line("Winner", w)
		line("Reason", res.Reason)
	}
	if len(rec.Dead) > 0 {
		line("Dead", strings.Join(rec.Dead, " "))
	}
	line("Moves", strconv.Itoa(len(rec.Moves)))
	b.WriteString("\n")
	for i, m := range rec.Moves {
		b.WriteString(strconv.Itoa(i+1) + ". " + strconv.Itoa(m.Seat) + " " + oneLine(m.Move) + " " +
			strconv.FormatInt(m.Ms, 10) + "ms\n")
	}
	return []byte(b.String())
}

// seconds writes d in seconds, without a fraction when it has none.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// oneLine keeps a value on its line: line breaks become spaces.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
