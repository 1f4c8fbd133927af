package gogame

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tabuleiro/tabuleiro/engine"
)

// The stone-removal phase (engine.Scoring), in a game with the option
// Removal: after two passes in a row the players mark the dead groups,
// either of them toggling a group, and accept the marking; once both have
// accepted the same marking the game is over, counted by area without the
// stones marked dead (they are taken off the board, their points counted
// as the empty intersections they become). A stone played by the seat to
// move resumes the game instead, as on OGS; a pass does not.

// scoring reports whether the game is in its stone-removal phase.
func (s *state) scoring() bool { return s.removal && s.passes >= 2 && !s.settled() }

// settled reports whether both seats accepted the marking.
func (s *state) settled() bool { return s.accepted[0] && s.accepted[1] }

// Scoring reports whether the game is in its stone-removal phase.
func (s *state) Scoring() bool { return s.scoring() }

// resume drops the marking and the acceptances: a stone played in the
// stone-removal phase resumes the game.
func (s *state) resume() {
	s.dead, s.deadList, s.accepted = pointSet{}, nil, [2]bool{}
}

// Dead lists the stones marked dead, in reading order; nil when none.
func (s *state) Dead() []string { return s.deadList }

// Accepted reports whether seat accepted the marking as it is.
func (s *state) Accepted(seat int) bool { return seat >= 0 && seat < 2 && s.accepted[seat] }

// checkScoring refuses a marking or an acceptance outside the phase or by
// a seat that is not 0 or 1.
func (s *state) checkScoring(seat int) error {
	switch {
	case s.over():
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	case !s.scoring():
		return engine.Errorf(engine.CodeIllegalMove, "the game is not in its stone-removal phase: dead stones are marked after two passes in a row")
	case seat != 0 && seat != 1:
		return engine.Errorf(engine.CodeIllegalMove, "seat %d has no stones to mark", seat)
	}
	return nil
}

// Toggle marks the group of the stone at point dead, or alive again when
// any of its stones was marked dead, and clears both acceptances. The
// group is the stone's chain and, again and again, the chains of its color
// that share a liberty with one already in it (group): the stones a player
// means when calling a group dead, as they are left once the game is over.
func (s *state) Toggle(seat int, point string) error {
	if err := s.checkScoring(seat); err != nil {
		return err
	}
	p, err := s.board.geo.parsePoint(point)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	if s.board.cells[p] == empty {
		return engine.Errorf(engine.CodeIllegalMove, "%s is empty: mark a stone of the group you think dead", point)
	}
	g := s.board.group(p)
	alive := true
	for _, q := range g {
		alive = alive && !s.dead.has(q)
	}
	for _, q := range g {
		s.dead.put(q, alive)
	}
	s.markChanged()
	return nil
}

// Mark replaces the marking by exactly the stones at points and clears
// both acceptances.
func (s *state) Mark(points []string) error {
	if err := s.checkScoring(0); err != nil {
		return err
	}
	var dead pointSet
	for _, name := range points {
		p, err := s.board.geo.parsePoint(name)
		if err != nil {
			return engine.Errorf(engine.CodeIllegalMove, "%v", err)
		}
		if s.board.cells[p] == empty {
			return engine.Errorf(engine.CodeIllegalMove, "%s is empty: only stones are marked dead", name)
		}
		dead.add(p)
	}
	s.dead = dead
	s.markChanged()
	return nil
}

// markChanged writes deadList again (a new slice: one handed out stays as
// it was) and clears the acceptances.
func (s *state) markChanged() {
	var list []string
	for p := range s.board.cells {
		if s.dead.has(p) {
			list = append(list, s.board.geo.names[p])
		}
	}
	s.deadList, s.accepted = list, [2]bool{}
}

// Accept records that seat accepts the marking; the game is over once
// both seats have. Accepting again changes nothing.
func (s *state) Accept(seat int) error {
	if err := s.checkScoring(seat); err != nil {
		return err
	}
	s.accepted[seat] = true
	return nil
}

// group is the group of the stone on p, in reading order: its chain and,
// transitively, the chains of its color that share a liberty with a chain
// of the group.
func (b *board) group(p int) []int {
	c := b.cells[p]
	var in pointSet
	in.add(p)
	stack := []int{p}
	var out []int
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, q)
		for _, r := range b.geo.adj[q] {
			switch b.cells[r] {
			case c:
				if !in.has(r) {
					in.add(r)
					stack = append(stack, r)
				}
			case empty:
				for _, t := range b.geo.adj[r] {
					if b.cells[t] == c && !in.has(t) {
						in.add(t)
						stack = append(stack, t)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// finalScore is the area score the game is counted by: the board's, and
// in the stone-removal phase (and after it) the board's without the stones
// marked dead.
func (s *state) finalScore() (sb, sw int) {
	if !s.removal || s.passes < 2 {
		return s.board.score()
	}
	return s.markedArea(nil)
}

// markedArea is the area of the board without the stones marked dead,
// writing who each intersection counts for into owner when it is not
// nil (see board.area).
func (s *state) markedArea(owner []color) (sb, sw int) {
	b := s.board
	var buf [maxPoints]color
	cells := buf[:len(b.cells)]
	nb, nw := b.nb, b.nw
	for p, c := range b.cells {
		if c != empty && s.dead.has(p) {
			if c == black {
				nb--
			} else {
				nw--
			}
			c = empty
		}
		cells[p] = c
	}
	return b.areaOf(cells, nb, nw, owner)
}

// markedExtra sets the extra fields of the stone-removal phase in x (and
// of a game that ended by it): "dead", the stones marked dead, "accepted",
// the seats that accepted the marking, and "area", the area counted
// without the dead stones (as board.areaRows); it removes them once play
// resumed.
func (s *state) markedExtra(x map[string]any) {
	if s.passes < 2 {
		delete(x, "dead")
		delete(x, "accepted")
		delete(x, "area")
		return
	}
	dead := s.deadList
	if dead == nil {
		dead = []string{}
	}
	accepted := []int{}
	for seat, ok := range s.accepted {
		if ok {
			accepted = append(accepted, seat)
		}
	}
	owner := make([]color, len(s.board.cells))
	s.markedArea(owner)
	x["dead"], x["accepted"], x["area"] = dead, accepted, s.board.ownerRows(owner)
}

// appendMarkingJSON appends the snapshot's "dead" and "accepted", each
// only when it is not empty.
func (s *state) appendMarkingJSON(b []byte) []byte {
	if len(s.deadList) > 0 {
		b = append(b, `,"dead":[`...)
		for i, name := range s.deadList {
			if i > 0 {
				b = append(b, ',')
			}
			b = engine.AppendJSONString(b, name)
		}
		b = append(b, ']')
	}
	if s.accepted[0] || s.accepted[1] {
		b = append(b, `,"accepted":[`...)
		first := true
		for seat, ok := range s.accepted {
			if !ok {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, byte('0'+seat))
		}
		b = append(b, ']')
	}
	return b
}

// restoreMarking puts back a snapshot's marking and acceptances.
func (s *state) restoreMarking(dead []string, accepted []int) error {
	if len(dead) == 0 && len(accepted) == 0 {
		return nil
	}
	if !s.scoring() {
		return errors.New("dead stones or acceptances outside the stone-removal phase")
	}
	if err := s.Mark(dead); err != nil {
		return fmt.Errorf("dead stones: %w", err)
	}
	if !slices.Equal(s.deadList, dead) {
		return fmt.Errorf("dead stones %v are not listed once each in reading order", dead)
	}
	for i, seat := range accepted {
		if seat != 0 && seat != 1 || i > 0 && seat <= accepted[i-1] {
			return fmt.Errorf("accepted %v: want seats 0 and 1, each once, in order", accepted)
		}
		s.accepted[seat] = true
	}
	return nil
}

var _ engine.Scoring = (*state)(nil)
var _ engine.Configurable = game{}
