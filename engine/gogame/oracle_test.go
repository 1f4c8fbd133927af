package gogame

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
)

// This file keeps the rules engine as it was before chains and liberties
// were kept incrementally (a plain array of colors and flood fills), as the
// reference the differential tests compare the engine with. It is a frozen
// copy: do not "fix" it along with the engine.

// refBoard is the flood-fill board of the reference engine.
type refBoard struct {
	geo   *geometry
	cells []color
	hash  uint64
	mark  []uint32
	gen   uint32
	stack []int
}

func newRefBoard(geo *geometry) *refBoard {
	n2 := geo.n * geo.n
	return &refBoard{geo: geo, cells: make([]color, n2), mark: make([]uint32, n2)}
}

func (b *refBoard) clone() *refBoard {
	c := newRefBoard(b.geo)
	copy(c.cells, b.cells)
	c.hash = b.hash
	return c
}

func (b *refBoard) set(p int, c color) {
	if old := b.cells[p]; old != empty {
		b.hash ^= b.geo.key(p, old)
	}
	if c != empty {
		b.hash ^= b.geo.key(p, c)
	}
	b.cells[p] = c
}

func (b *refBoard) newMark() {
	b.gen++
	if b.gen == 0 {
		clear(b.mark)
		b.gen = 1
	}
}

func (b *refBoard) flood(p int, in func(int), border func(int)) {
	c := b.cells[p]
	b.newMark()
	b.mark[p] = b.gen
	stack := append(b.stack[:0], p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in != nil {
			in(q)
		}
		for _, r := range b.geo.adj[q] {
			switch {
			case b.cells[r] != c:
				if border != nil {
					border(r)
				}
			case b.mark[r] != b.gen:
				b.mark[r] = b.gen
				stack = append(stack, r)
			}
		}
	}
	b.stack = stack
}

func (b *refBoard) hasLibertyBesides(p, except int) bool {
	found := false
	b.flood(p, nil, func(r int) {
		if r != except && b.cells[r] == empty {
			found = true
		}
	})
	return found
}

// refOutcome is the reference board's outcome of a stone.
type refOutcome struct {
	captured []int
	suicide  bool
	hash     uint64
}

func (b *refBoard) try(p int, c color) refOutcome {
	var o refOutcome
	o.hash = b.hash ^ b.geo.key(p, c)
	opp := c.opponent()
	for _, q := range b.geo.adj[p] {
		if b.cells[q] != opp || slices.Contains(o.captured, q) || b.hasLibertyBesides(q, p) {
			continue
		}
		b.flood(q, func(r int) {
			o.captured = append(o.captured, r)
			o.hash ^= b.geo.key(r, opp)
		}, nil)
	}
	if len(o.captured) > 0 {
		return o
	}
	o.suicide = true
	for _, q := range b.geo.adj[p] {
		if b.cells[q] == empty || (b.cells[q] == c && b.hasLibertyBesides(q, p)) {
			o.suicide = false
			break
		}
	}
	return o
}

func (b *refBoard) play(p int, c color, o refOutcome) {
	b.set(p, c)
	for _, q := range o.captured {
		b.set(q, empty)
	}
}

func (b *refBoard) count() (nb, nw int) {
	for _, c := range b.cells {
		switch c {
		case black:
			nb++
		case white:
			nw++
		}
	}
	return nb, nw
}

func (b *refBoard) areaScore() (scoreBlack, scoreWhite int) {
	scoreBlack, scoreWhite = b.count()
	seen := make([]bool, len(b.cells))
	for p, c := range b.cells {
		if c != empty || seen[p] {
			continue
		}
		size, borders := 0, color(0)
		b.flood(p, func(q int) { size++; seen[q] = true }, func(r int) { borders |= b.cells[r] })
		switch borders {
		case black:
			scoreBlack += size
		case white:
			scoreWhite += size
		}
	}
	return scoreBlack, scoreWhite
}

func (b *refBoard) rows() []string {
	n := b.geo.n
	out := make([]string, n)
	line := make([]byte, n)
	for r := range n {
		for c := range n {
			line[c] = b.cells[r*n+c].symbol()
		}
		out[n-1-r] = string(line)
	}
	return out
}

func (b *refBoard) chainLiberties() (chain []int, libs []int) {
	chain = make([]int, len(b.cells))
	for p := range chain {
		chain[p] = -1
	}
	for p, c := range b.cells {
		if c == empty || chain[p] >= 0 {
			continue
		}
		label, first, n := len(libs), -1, 0
		b.flood(p, func(q int) { chain[q] = label }, func(r int) {
			if b.cells[r] == empty && r != first && n < 2 {
				if first < 0 {
					first = r
				}
				n++
			}
		})
		libs = append(libs, n)
	}
	return chain, libs
}

// refState is the reference engine's game in progress.
type refState struct {
	variant string
	board   *refBoard
	toMove  color
	passes  int
	seen    map[uint64]struct{}
	start   setupSpec
	moves   []string
}

// newRefState starts a reference game of variant from a setup (JSON text,
// "" for the empty board); the setup must be valid.
func newRefState(variant, setup string) *refState {
	geo, err := geometryOf(variant)
	if err != nil {
		panic(err)
	}
	sp, err := parseSetup(json.RawMessage(setup))
	if err != nil {
		panic(err)
	}
	b := newRefBoard(geo)
	toMove := black
	if sp.ToMove == "white" {
		toMove = white
	}
	for _, side := range []struct {
		c      color
		points []string
	}{{black, sp.Black}, {white, sp.White}} {
		for _, name := range side.points {
			p, err := geo.parsePoint(name)
			if err != nil {
				panic(err)
			}
			b.set(p, side.c)
		}
	}
	start := setupSpec{Black: []string{}, White: []string{}, ToMove: toMove.name()}
	for p, c := range b.cells {
		switch c {
		case black:
			start.Black = append(start.Black, geo.names[p])
		case white:
			start.White = append(start.White, geo.names[p])
		}
	}
	return &refState{
		variant: strconv.Itoa(geo.n),
		board:   b,
		toMove:  toMove,
		seen:    map[uint64]struct{}{b.hash: {}},
		start:   start,
	}
}

func (s *refState) over() bool { return s.passes >= 2 }

func (s *refState) Turn() (int, bool) {
	if s.over() {
		return -1, false
	}
	return s.toMove.seat(), true
}

func (s *refState) Apply(seat int, move string) error {
	if err := s.checkSeat(seat); err != nil {
		return err
	}
	if move == Pass {
		s.passes++
		s.toMove = s.toMove.opponent()
		s.moves = append(s.moves, Pass)
		return nil
	}
	p, err := s.board.geo.parsePoint(move)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	o, err := s.check(p, s.toMove)
	if err != nil {
		return err
	}
	s.board.play(p, s.toMove, o)
	s.seen[s.board.hash] = struct{}{}
	s.passes = 0
	s.toMove = s.toMove.opponent()
	s.moves = append(s.moves, move)
	return nil
}

func (s *refState) checkSeat(seat int) error {
	if s.over() {
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat != s.toMove.seat() {
		return engine.Errorf(engine.CodeNotYourTurn, "it is %s's turn (seat %d), not seat %d's", s.toMove.name(), s.toMove.seat(), seat)
	}
	return nil
}

func (s *refState) check(p int, c color) (refOutcome, error) {
	name := s.board.geo.names[p]
	if s.board.cells[p] != empty {
		return refOutcome{}, engine.Errorf(engine.CodeIllegalMove, "%s is occupied", name)
	}
	o := s.board.try(p, c)
	if o.suicide {
		return o, engine.Errorf(engine.CodeIllegalMove, "%s is suicide: the %s stones there would have no liberty", name, c.name())
	}
	if _, ok := s.seen[o.hash]; ok {
		return o, engine.Errorf(engine.CodeIllegalMove, "%s repeats an earlier position", name)
	}
	return o, nil
}

func (s *refState) Legal(seat int) []string {
	if s.checkSeat(seat) != nil {
		return nil
	}
	b, c := s.board, s.toMove
	chain, libs := b.chainLiberties()
	var out []string
	for p, pc := range b.cells {
		if pc != empty {
			continue
		}
		captures, lives := false, false
		for _, q := range b.geo.adj[p] {
			switch b.cells[q] {
			case empty:
				lives = true
			case c:
				lives = lives || libs[chain[q]] > 1
			default:
				captures = captures || libs[chain[q]] == 1
			}
		}
		hash := b.hash ^ b.geo.key(p, c)
		switch {
		case captures:
			hash = b.try(p, c).hash
		case !lives:
			continue
		}
		if _, repeats := s.seen[hash]; !repeats {
			out = append(out, b.geo.names[p])
		}
	}
	return append(out, Pass)
}

func (s *refState) Outcome() engine.Outcome {
	if !s.over() {
		return engine.Ongoing
	}
	sb, sw := s.board.areaScore()
	winner := white.seat()
	if sb > sw {
		winner = black.seat()
	}
	return engine.Outcome{Over: true, Winner: winner, Reason: ReasonTwoPasses}
}

func (s *refState) Score() any {
	sb, sw := s.board.areaScore()
	return Score{Black: sb, White: sw}
}

func (s *refState) Board() any { return s.board.rows() }

func (s *refState) Extra() map[string]any {
	nb, nw := s.board.count()
	return map[string]any{
		"passes": s.passes,
		"stones": map[string]int{"black": nb, "white": nw},
	}
}

func (s *refState) Clone() *refState {
	c := *s
	c.board = s.board.clone()
	c.seen = maps.Clone(s.seen)
	c.start.Black = slices.Clone(s.start.Black)
	c.start.White = slices.Clone(s.start.White)
	c.moves = slices.Clone(s.moves)
	return &c
}

func (s *refState) MarshalJSON() ([]byte, error) {
	start, err := json.Marshal(s.start)
	if err != nil {
		return nil, err
	}
	n := s.board.geo.n
	b := make([]byte, 0, 64+len(start)+6*len(s.moves)+(n+3)*n)
	b = append(b, `{"variant":`...)
	b = refAppendJSONString(b, s.variant)
	b = append(b, `,"start":`...)
	b = append(b, start...)
	b = append(b, `,"moves":[`...)
	for i, m := range s.moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = refAppendJSONString(b, m)
	}
	b = append(b, `],"board":[`...)
	for r := n - 1; r >= 0; r-- {
		if r < n-1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		for c := range n {
			b = append(b, s.board.cells[r*n+c].symbol())
		}
		b = append(b, '"')
	}
	b = append(b, `],"toMove":`...)
	b = refAppendJSONString(b, s.toMove.name())
	return append(b, '}'), nil
}

func refAppendJSONString(b []byte, str string) []byte {
	for i := 0; i < len(str); i++ {
		if c := str[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			enc, _ := json.Marshal(str)
			return append(b, enc...)
		}
	}
	b = append(b, '"')
	b = append(b, str...)
	return append(b, '"')
}
