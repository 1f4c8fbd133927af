package records

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tabuleiro/tabuleiro/players"
)

// The compact encoding (docs/records.md, "Encoding"): the magic "TR", a
// version byte, then the fields in a fixed order as unsigned varints
// (uvarint), zigzag varints (varint) and strings (a uvarint length and the
// bytes). Times are milliseconds: Created since the Unix epoch, the others
// relative to Created. A move is one uvarint token, code*seats + seat,
// where code 0 means the move's text follows as a string and code k+1 is
// the number k the game's codec gives the move (movecodec.go), followed by
// the move's milliseconds.

// version is the encoding's version byte.
const version = 1

var magic = [2]byte{'T', 'R'}

// Limits of a record Encode writes and Decode reads.
const (
	// MaxSeats is the most seats a record may have.
	MaxSeats = 8
	// MaxMoveLen is the longest move text, in bytes.
	MaxMoveLen = 64
)

// Flags of the encoding's second field.
const (
	flagSetup = 1 << iota
	flagClock
	flagResult
	flagStarted
	flagEnded
	flagPrivate
	flagWatch
	flagOptions
	flagDead
	flagInfo   // every move carries its info string
	flagFaults // the faults follow the chat
	flagRated  // a rated game
	flagKnown  = 1<<iota - 1
)

// ErrCorrupt is wrapped by Decode's errors.
var ErrCorrupt = errors.New("records: corrupt record")

// Encode returns the compact encoding of r. It refuses a record that Decode
// would refuse (see Validate). Times are kept to the millisecond.
func Encode(r *Record) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("encode record of room %q: %w", r.Room, err)
	}
	seats := uint64(len(r.Players))
	b := make([]byte, 0, 64+3*len(r.Moves)+len(r.Setup))
	b = append(b, magic[0], magic[1], version)
	var flags uint64
	for _, f := range []struct {
		on  bool
		bit uint64
	}{{len(r.Setup) > 0, flagSetup}, {r.Clock != nil, flagClock}, {r.Result != nil, flagResult},
		{!r.Started.IsZero(), flagStarted}, {!r.Ended.IsZero(), flagEnded}, {r.Private, flagPrivate}, {r.Watch, flagWatch},
		{!r.Options().IsZero(), flagOptions}, {len(r.Dead) > 0, flagDead},
		{r.movesHaveInfo(), flagInfo}, {len(r.Faults) > 0, flagFaults}, {r.Rated, flagRated}} {
		if f.on {
			flags |= f.bit
		}
	}
	b = binary.AppendUvarint(b, flags)
	for _, s := range []string{r.Room, r.Game, r.Variant, r.Status} {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, r.Seed)
	created := r.Created.UnixMilli()
	b = binary.AppendVarint(b, created)
	if flags&flagStarted != 0 {
		b = binary.AppendVarint(b, r.Started.UnixMilli()-created)
	}
	if flags&flagEnded != 0 {
		b = binary.AppendVarint(b, r.Ended.UnixMilli()-created)
	}
	if flags&flagSetup != 0 {
		b = appendString(b, string(r.Setup))
	}
	if c := r.Clock; c != nil {
		b = binary.AppendUvarint(b, uint64(c.Base.Milliseconds()))
		b = binary.AppendUvarint(b, uint64(c.Increment.Milliseconds()))
	}
	if res := r.Result; res != nil {
		b = binary.AppendUvarint(b, uint64(res.Winner+1))
		b = appendString(b, res.Reason)
	}
	if flags&flagOptions != 0 {
		removal := uint64(0)
		if r.Removal {
			removal = 1
		}
		b = binary.AppendUvarint(b, removal)
		b = binary.AppendVarint(b, int64(2*r.Komi))
		b = binary.AppendUvarint(b, uint64(r.Handicap))
	}
	if flags&flagDead != 0 {
		b = binary.AppendUvarint(b, uint64(len(r.Dead)))
		for _, p := range r.Dead {
			b = appendMoveText(b, r.Game, r.Variant, p)
		}
	}
	b = binary.AppendUvarint(b, seats)
	for _, p := range r.Players {
		b = appendString(b, p.ID)
		b = appendString(b, p.Name)
		b = appendString(b, p.Bot)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Moves)))
	for _, m := range r.Moves {
		if v, ok := codeOf(r.Game, r.Variant, m.Move); ok {
			b = binary.AppendUvarint(b, (v+1)*seats+uint64(m.Seat))
		} else {
			b = binary.AppendUvarint(b, uint64(m.Seat))
			b = appendString(b, m.Move)
		}
		b = binary.AppendUvarint(b, uint64(m.Ms))
		if flags&flagInfo != 0 {
			b = appendString(b, m.Info)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(r.Chat)))
	for _, c := range r.Chat {
		b = appendString(b, c.From)
		b = binary.AppendUvarint(b, uint64(c.Seat+1))
		b = appendString(b, c.Text)
		b = binary.AppendVarint(b, c.At.UnixMilli()-created)
	}
	if flags&flagFaults != 0 {
		b = binary.AppendUvarint(b, uint64(len(r.Faults)))
		for _, f := range r.Faults {
			b = binary.AppendUvarint(b, uint64(f.Ply))
			b = binary.AppendUvarint(b, uint64(f.Seat))
			for _, s := range []string{f.Move, f.Code, f.Message, f.Info} {
				b = appendString(b, s)
			}
			b = binary.AppendUvarint(b, uint64(f.Ms))
		}
	}
	return b, nil
}

// movesHaveInfo reports whether a move of r carries an info.
func (r *Record) movesHaveInfo() bool {
	for _, m := range r.Moves {
		if m.Info != "" {
			return true
		}
	}
	return false
}

// Validate reports what makes r impossible to encode: text that is not
// UTF-8, more than MaxSeats seats, a move of a seat the record does not
// have, an empty or overlong move, a negative duration, a winner or a chat
// seat out of range, a setup that is not JSON.
func (r *Record) Validate() error {
	if len(r.Players) > MaxSeats {
		return fmt.Errorf("%d seats, at most %d", len(r.Players), MaxSeats)
	}
	texts := []string{r.Room, r.Game, r.Variant, r.Status}
	for _, p := range r.Players {
		texts = append(texts, p.ID, p.Name, p.Bot)
	}
	if r.Result != nil {
		texts = append(texts, r.Result.Reason)
		if w := r.Result.Winner; w < -1 || w >= len(r.Players) {
			return fmt.Errorf("winner %d of %d seats", w, len(r.Players))
		}
	}
	for i, m := range r.Moves {
		switch {
		case m.Seat < 0 || m.Seat >= len(r.Players):
			return fmt.Errorf("move %d: seat %d of %d", i+1, m.Seat, len(r.Players))
		case m.Move == "" || len(m.Move) > MaxMoveLen:
			return fmt.Errorf("move %d: %d bytes, want 1..%d", i+1, len(m.Move), MaxMoveLen)
		case m.Ms < 0:
			return fmt.Errorf("move %d: %d ms", i+1, m.Ms)
		}
		texts = append(texts, m.Move, m.Info)
	}
	for i, f := range r.Faults {
		switch {
		case f.Seat < 0 || f.Seat >= len(r.Players):
			return fmt.Errorf("fault %d: seat %d of %d", i+1, f.Seat, len(r.Players))
		case f.Ply < 0 || f.Ply > len(r.Moves):
			return fmt.Errorf("fault %d: ply %d of %d moves", i+1, f.Ply, len(r.Moves))
		case f.Ms < 0:
			return fmt.Errorf("fault %d: %d ms", i+1, f.Ms)
		case f.Code == "":
			return fmt.Errorf("fault %d: no code", i+1)
		}
		texts = append(texts, f.Move, f.Code, f.Message, f.Info)
	}
	for i, c := range r.Chat {
		if c.Seat < -1 || c.Seat >= len(r.Players) {
			return fmt.Errorf("chat line %d: seat %d of %d", i+1, c.Seat, len(r.Players))
		}
		texts = append(texts, c.From, c.Text)
	}
	for _, s := range texts {
		if !utf8.ValidString(s) {
			return fmt.Errorf("text %q is not UTF-8", s)
		}
	}
	if len(r.Setup) > 0 && !json.Valid(r.Setup) {
		return errors.New("setup is not JSON")
	}
	if k := 2 * r.Komi; r.Komi != 0 && (k != math.Trunc(k) || int64(k)%2 == 0 || math.Abs(r.Komi) > maxKomi) {
		return fmt.Errorf("komi %v: want 0 (the seed's rule) or a half-integer", r.Komi)
	}
	if r.Handicap < 0 || r.Handicap > maxHandicap {
		return fmt.Errorf("handicap %d", r.Handicap)
	}
	for i, p := range r.Dead {
		if p == "" || len(p) > MaxMoveLen || !utf8.ValidString(p) {
			return fmt.Errorf("dead stone %d: %q", i+1, p)
		}
	}
	if c := r.Clock; c != nil && (c.Base < 0 || c.Increment < 0) {
		return fmt.Errorf("clock %v+%v", c.Base, c.Increment)
	}
	return nil
}

// Bounds of the rule options a record holds: far above any game's.
const (
	maxKomi     = 1 << 20
	maxHandicap = 1 << 10
)

// appendMoveText appends a move or a point of game as the moves are: its
// codec's number plus one, or 0 and the text.
func appendMoveText(b []byte, game, variant, move string) []byte {
	if v, ok := codeOf(game, variant, move); ok {
		return binary.AppendUvarint(b, v+1)
	}
	b = binary.AppendUvarint(b, 0)
	return appendString(b, move)
}

// Decode reads a record written by Encode. Anything else is refused with an
// error wrapping ErrCorrupt; Decode never panics and allocates in
// proportion to len(data).
func Decode(data []byte) (*Record, error) {
	r, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return r, nil
}

func decode(data []byte) (*Record, error) {
	if len(data) < 3 || data[0] != magic[0] || data[1] != magic[1] {
		return nil, errors.New("no magic")
	}
	if data[2] != version {
		return nil, fmt.Errorf("version %d, want %d", data[2], version)
	}
	d := decoder{b: data[3:]}
	r := &Record{}
	flags := d.uvarint()
	if flags&^flagKnown != 0 {
		return nil, fmt.Errorf("unknown flags %#x", flags)
	}
	r.Room, r.Game, r.Variant, r.Status = d.string(), d.string(), d.string(), d.string()
	r.Seed = d.uvarint()
	created := d.varint()
	r.Created = d.time(created, 0)
	if flags&flagStarted != 0 {
		r.Started = d.time(created, d.varint())
	}
	if flags&flagEnded != 0 {
		r.Ended = d.time(created, d.varint())
	}
	if flags&flagSetup != 0 {
		r.Setup = json.RawMessage(d.string())
		if len(r.Setup) == 0 {
			d.fail("empty setup")
		}
	}
	if flags&flagClock != 0 {
		r.Clock = &Clock{Base: d.millis(), Increment: d.millis()}
	}
	if flags&flagResult != 0 {
		r.Result = &Result{Winner: int(d.small(MaxSeats+1)) - 1, Reason: d.string()}
	}
	if flags&flagOptions != 0 {
		r.Removal = d.small(1) == 1
		r.Komi = float64(d.varint()) / 2
		r.Handicap = d.small(maxHandicap)
		if r.Options().IsZero() {
			d.fail("options flagged but none set")
		}
	}
	if flags&flagDead != 0 {
		n := d.count(1)
		if n == 0 {
			d.fail("dead stones flagged but none listed")
		}
		for range n {
			if d.err != nil {
				break
			}
			code := d.uvarint()
			if code == 0 {
				r.Dead = append(r.Dead, d.string())
			} else if p, ok := moveOf(r.Game, r.Variant, code-1); ok {
				r.Dead = append(r.Dead, p)
			} else {
				d.fail("dead stone number " + strconv.FormatUint(code-1, 10) + " of " + r.Game)
			}
		}
	}
	r.Private, r.Watch, r.Rated = flags&flagPrivate != 0, flags&flagWatch != 0, flags&flagRated != 0
	seats := d.small(MaxSeats)
	for range seats {
		p := players.Of(d.string(), d.string())
		p.Bot = d.string()
		r.Players = append(r.Players, p)
	}
	n := d.count(2) // a token and the milliseconds
	if n > 0 && seats == 0 {
		d.fail("moves without seats")
	}
	if n > 0 {
		r.Moves = make([]Move, 0, n)
	}
	for range n {
		if d.err != nil {
			break
		}
		tok := d.uvarint()
		m := Move{Seat: int(tok % uint64(seats))}
		if code := tok / uint64(seats); code == 0 {
			m.Move = d.string()
		} else if mv, ok := moveOf(r.Game, r.Variant, code-1); ok {
			m.Move = mv
		} else {
			d.fail("move number " + strconv.FormatUint(code-1, 10) + " of " + r.Game)
		}
		m.Ms = d.int63()
		if flags&flagInfo != 0 {
			m.Info = d.string()
		}
		r.Moves = append(r.Moves, m)
	}
	n = d.count(4) // four fields
	if n > 0 {
		r.Chat = make([]ChatLine, 0, n)
	}
	for range n {
		if d.err != nil {
			break
		}
		c := ChatLine{From: d.string(), Seat: int(d.small(MaxSeats+1)) - 1, Text: d.string()}
		c.At = d.time(created, d.varint())
		r.Chat = append(r.Chat, c)
	}
	if flags&flagFaults != 0 {
		n = d.count(7) // seven fields
		if n == 0 {
			d.fail("no faults")
		}
		r.Faults = make([]Fault, 0, n)
		for range n {
			if d.err != nil {
				break
			}
			f := Fault{Ply: int(d.small(math.MaxInt32)), Seat: int(d.small(MaxSeats - 1))}
			f.Move, f.Code, f.Message, f.Info = d.string(), d.string(), d.string(), d.string()
			f.Ms = d.int63()
			r.Faults = append(r.Faults, f)
		}
	}
	if flags&flagInfo != 0 && !r.movesHaveInfo() {
		d.fail("info flag without info")
	}
	if d.err == nil && len(d.b) > 0 {
		d.fail(strconv.Itoa(len(d.b)) + " bytes after the record")
	}
	return r, d.err
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decoder reads the encoding; the first error sticks and every later read
// returns a zero value.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = errors.New(msg)
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string past the end")
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// small reads a uvarint of at most max.
func (d *decoder) small(max int) int {
	v := d.uvarint()
	if v > uint64(max) {
		d.fail("value " + strconv.FormatUint(v, 10) + " over " + strconv.Itoa(max))
		return 0
	}
	return int(v)
}

// count reads the length of a list whose entries take at least min bytes
// each, so that a length can never ask for more than the input holds.
func (d *decoder) count(min int) int {
	v := d.uvarint()
	if v > uint64(len(d.b)/min) {
		d.fail("list of " + strconv.FormatUint(v, 10) + " past the end")
		return 0
	}
	return int(v)
}

// int63 reads a uvarint that fits an int64.
func (d *decoder) int63() int64 {
	v := d.uvarint()
	if v > math.MaxInt64 {
		d.fail("value over int64")
		return 0
	}
	return int64(v)
}

// maxMillis is the longest duration a record holds, about 292 years: the
// most time.Duration holds.
const maxMillis = math.MaxInt64 / int64(time.Millisecond)

func (d *decoder) millis() time.Duration {
	v := d.int63()
	if v > maxMillis {
		d.fail("duration over " + strconv.FormatInt(maxMillis, 10) + " ms")
		return 0
	}
	return time.Duration(v) * time.Millisecond
}

// time is created+delta milliseconds since the Unix epoch, in UTC.
func (d *decoder) time(created, delta int64) time.Time {
	at := created + delta
	if (delta > 0 && at < created) || (delta < 0 && at > created) {
		d.fail("time out of range")
		return time.Time{}
	}
	return time.UnixMilli(at).UTC()
}
