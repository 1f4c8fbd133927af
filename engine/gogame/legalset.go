package gogame

import "math/bits"

// This file keeps the moves each color may play up to date as the board
// changes (board.playable), so that Legal reads them instead of judging
// every empty intersection again, and says where a move may repeat an
// earlier position (board.lost), so that superko is looked up only there.
//
// Whether a stone of c on the empty p is suicide depends only on p's four
// neighbours: an empty one, an own chain with more than one liberty or an
// opponent chain with exactly one (which the stone captures) keeps it
// alive. So p's verdict can only change when a neighbour changes color or
// a neighbouring chain goes from one liberty to more or back, which play
// reports through refreshAfter.

// del removes p from the set.
func (s *pointSet) del(p int) { s[p/64] &^= 1 << (p % 64) }

// put adds p to the set when in is true and removes it otherwise.
func (s *pointSet) put(p int, in bool) {
	if in {
		s.add(p)
	} else {
		s.del(p)
	}
}

// refresh judges the intersection p again for both colors: playable when
// it is empty and a stone there would not be suicide.
func (b *board) refresh(p int) {
	if b.cells[p] != empty {
		b.playable[0].del(p)
		b.playable[1].del(p)
		return
	}
	var alive [3]bool // by color
	for _, q := range b.geo.adj[p] {
		c := b.cells[q]
		if c == empty {
			alive[black], alive[white] = true, true
			break
		}
		// A chain with more than one liberty keeps a stone of its color
		// alive; a chain with one (p) is captured by the other color.
		if b.libs[b.head[q]] == 1 {
			alive[c.opponent()] = true
		} else {
			alive[c] = true
		}
	}
	b.playable[0].put(p, alive[black])
	b.playable[1].put(p, alive[white])
}

// refreshAll judges every intersection again (after link).
func (b *board) refreshAll() {
	for p := range b.cells {
		b.refresh(p)
	}
}

// refreshLiberties judges again every liberty of the chain of
// representative h, once each (done collects the intersections judged by
// this move).
func (b *board) refreshLiberties(h int, done *pointSet) {
	for q := h; ; {
		for _, r := range b.geo.adj[q] {
			if b.cells[r] == empty && !done.has(r) {
				done.add(r)
				b.refresh(r)
			}
		}
		q = int(b.next[q])
		if q == h {
			return
		}
	}
}

// refreshAfter updates playable after play put a stone of c on p and
// removed the stones of captured. The intersections whose verdict may have
// changed are p itself; the liberties of p's chain (it merged, lost p and
// may have gained the captured intersections); the last liberty of an
// opponent chain that p put in atari; and the captured intersections with
// the liberties of every chain of c next to them (they may have left
// atari). Other opponent chains next to p kept two liberties or more and
// so their verdicts.
func (b *board) refreshAfter(p int, c color, captured []int) {
	b.playable[0].del(p)
	b.playable[1].del(p)
	var done, chains pointSet
	h := int(b.head[p])
	chains.add(h)
	b.refreshLiberties(h, &done)
	opp := c.opponent()
	for _, q := range b.geo.adj[p] {
		if b.cells[q] != opp {
			continue
		}
		if h := int(b.head[q]); b.libs[h] == 1 && !chains.has(h) {
			chains.add(h)
			b.refreshLiberties(h, &done)
		}
	}
	for _, q := range captured {
		b.lost[opp-1].add(q)
		for _, r := range b.geo.adj[q] {
			if b.cells[r] != c {
				continue
			}
			if h := int(b.head[r]); !chains.has(h) {
				chains.add(h)
				b.refreshLiberties(h, &done)
			}
		}
		if !done.has(q) {
			done.add(q)
			b.refresh(q)
		}
	}
}

// appendLegal appends to out the names of the intersections where c may
// play, in reading order: those of playable[c-1] but not of refused.
func (b *board) appendLegal(out []string, c color, refused *pointSet) []string {
	for w, word := range b.playable[c-1] {
		word &^= refused[w]
		for word != 0 {
			out = append(out, b.geo.names[w*64+bits.TrailingZeros64(word)])
			word &= word - 1
		}
	}
	return out
}

// superkoRefused returns the intersections where c may place a stone
// without suicide but would recreate an earlier position. A stone of c
// on p can only do that when an earlier position had a stone of c on p
// that is gone now, that is when a stone of c was captured on p
// (board.lost): stones leave the board no other way. Only those
// intersections are looked up.
func (s *state) superkoRefused(c color) pointSet {
	var refused pointSet
	b := s.board
	for w, word := range b.playable[c-1] {
		word &= b.lost[c-1][w]
		for word != 0 {
			p := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if hash, _ := b.scan(p, c, nil); s.repeats(hash) {
				refused.add(p)
			}
		}
	}
	return refused
}
