package gogame

// This file keeps the empty regions of the board and the area score up to
// date as stones are played and captured, so that the score is read rather
// than flood-filled at every move.
//
// A region is a connected set of empty intersections. For each one the
// board keeps its size and its number of adjacencies to black and to white
// stones (pairs of one of its intersections and a stone next to it): the
// region is black's territory when it touches black stones only, white's
// when it touches white stones only, nobody's otherwise (the empty board's
// region touches none). Regions never merge: a stone leaves the board only
// when it is captured, and a captured chain has no empty neighbour, so its
// intersections become a region of their own, bordered by the capturer
// alone. A stone placed on a region makes it smaller and may split it;
// only the parts that split off are walked, in a lockstep search from the
// stone's empty neighbours that stops as soon as at most one part is still
// unexplored (that part keeps the region's id and whatever the others did
// not take). On an open board the neighbours meet again within a step or
// two around the stone, so a move costs a few intersections, not the
// region.

// regionSearches is the number of searches a stone starts at most, one
// per empty neighbour.
const regionSearches = 4

// newRegion takes an unused region id.
func (b *board) newRegion() int {
	b.freeRegions--
	return int(b.regionIDs[b.freeRegions])
}

// dropRegion gives the id of a region that became empty back.
func (b *board) dropRegion(r int) {
	b.regionIDs[b.freeRegions] = int16(r)
	b.freeRegions++
}

// owner is the color whose territory region r is, or empty.
func (b *board) owner(r int) color {
	switch nb, nw := b.regionBlack[r], b.regionWhite[r]; {
	case nb > 0 && nw == 0:
		return black
	case nw > 0 && nb == 0:
		return white
	}
	return empty
}

// addTerritory adds sign (+1 or -1) times region r's size to the
// territory of its owner: -1 before the region changes, +1 after.
func (b *board) addTerritory(r, sign int) {
	if o := b.owner(r); o != empty {
		b.territory[o-1] += sign * int(b.regionSize[r])
	}
}

// score is the area score: the stones of each color plus its territory.
func (b *board) score() (scoreBlack, scoreWhite int) {
	return b.nb + b.territory[0], b.nw + b.territory[1]
}

// stonesNext is the number of black and of white stones next to p.
func (b *board) stonesNext(p int) (nb, nw int) {
	for _, q := range b.geo.adj[p] {
		switch b.cells[q] {
		case black:
			nb++
		case white:
			nw++
		}
	}
	return nb, nw
}

// claim puts the empty intersection q in region r, counting it and its
// adjacencies to stones in r's figures.
func (b *board) claim(q, r int) {
	b.regionOf[q] = int16(r)
	b.regionSize[r]++
	nb, nw := b.stonesNext(q)
	b.regionBlack[r] += int16(nb)
	b.regionWhite[r] += int16(nw)
}

// linkRegions works out the regions from the cells (after set).
func (b *board) linkRegions() {
	n2 := len(b.cells)
	b.freeRegions = n2
	for i := range n2 {
		b.regionIDs[i] = int16(n2 - 1 - i)
	}
	b.territory = [2]int{}
	b.newMark()
	for p, c := range b.cells {
		if c != empty || b.mark[p] == b.gen {
			continue
		}
		r := b.newRegion()
		b.regionSize[r], b.regionBlack[r], b.regionWhite[r] = 0, 0, 0
		b.fillRegion(p, r)
		b.addTerritory(r, 1)
	}
}

// fillRegion claims for region r every empty intersection connected to p
// that the current mark has not visited.
func (b *board) fillRegion(p, r int) {
	b.mark[p] = b.gen
	stack := append(b.stack[:0], p)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b.claim(q, r)
		for _, s := range b.geo.adj[q] {
			if b.cells[s] == empty && b.mark[s] != b.gen {
				b.mark[s] = b.gen
				stack = append(stack, s)
			}
		}
	}
	b.stack = stack
}

// placeRegion updates the regions after a stone of c was put on the empty
// p (cells[p] already holds it; captured stones are still on the board).
func (b *board) placeRegion(p int, c color) {
	r := int(b.regionOf[p])
	b.addTerritory(r, -1)
	b.regionSize[r]--
	var starts [regionSearches]int
	k := 0
	for _, q := range b.geo.adj[p] {
		switch b.cells[q] {
		case empty:
			// The neighbour now touches the stone.
			starts[k] = q
			k++
		case black:
			// p no longer touches it.
			b.regionBlack[r]--
		case white:
			b.regionWhite[r]--
		}
	}
	if c == black {
		b.regionBlack[r] += int16(k)
	} else {
		b.regionWhite[r] += int16(k)
	}
	switch {
	case k == 0:
		b.dropRegion(r) // p was the whole region
		return
	case k >= 2:
		b.splitRegion(r, starts[:k])
	}
	b.addTerritory(r, 1)
}

// splitRegion finds the parts into which region r fell after a stone was
// put between the intersections of starts (its empty neighbours) and gives
// every part but one a new id. One search per start takes a step in turn;
// two searches that meet are one part. A part whose searches have nothing
// left to visit is complete; once at most one part is still incomplete,
// the complete parts take new ids and their figures leave r, which keeps
// the rest (the incomplete part, or the largest when all are complete).
func (b *board) splitRegion(r int, starts []int) {
	var sp split
	sp.k = len(starts)
	b.newMark()
	for i, q := range starts {
		sp.parent[i] = i
		sp.claim(b, q, i)
	}
	for {
		parts, incomplete, open := sp.count()
		if parts == 1 {
			return // still one region
		}
		if incomplete <= 1 {
			sp.carve(b, r, open)
			return
		}
		for i := range sp.k {
			if sp.head[i] == sp.tail[i] {
				continue
			}
			q := int(sp.queue[i][sp.head[i]])
			sp.head[i]++
			for _, s := range b.geo.adj[q] {
				if b.cells[s] != empty {
					continue
				}
				if m := b.mark[s] - b.gen; m < regionSearches {
					if ri, rj := sp.find(i), sp.find(int(m)); ri != rj {
						sp.parent[rj] = ri
					}
					continue
				}
				sp.claim(b, s, i)
			}
		}
	}
}

// split is the state of splitRegion's searches, on its caller's stack.
// Search i has visited queue[i][:tail[i]] (all marked gen+i) and explored
// the neighbours of queue[i][:head[i]]; parent joins searches that met
// (a search is its part's root when parent[i] == i); size, nb and nw
// count the search's intersections and their adjacencies to black and
// white stones.
type split struct {
	k          int
	queue      [regionSearches][maxPoints]int16
	head, tail [regionSearches]int
	parent     [regionSearches]int
	size       [regionSearches]int
	nb, nw     [regionSearches]int
}

// find is the root of search i's part.
func (sp *split) find(i int) int {
	for sp.parent[i] != i {
		i = sp.parent[i]
	}
	return i
}

// claim adds the empty intersection q to search i.
func (sp *split) claim(b *board, q, i int) {
	b.mark[q] = b.gen + uint32(i)
	sp.queue[i][sp.tail[i]] = int16(q)
	sp.tail[i]++
	sp.size[i]++
	nb, nw := b.stonesNext(q)
	sp.nb[i] += nb
	sp.nw[i] += nw
}

// count returns the number of distinct parts, the number of incomplete
// ones and the root of an incomplete one (-1 when all are complete).
func (sp *split) count() (parts, incomplete, open int) {
	var seen [regionSearches]bool
	open = -1
	for i := range sp.k {
		root := sp.find(i)
		if root == i {
			parts++
		}
		if sp.head[i] < sp.tail[i] && !seen[root] {
			seen[root] = true
			incomplete++
			open = root
		}
	}
	return parts, incomplete, open
}

// carve gives a new id to every part of region r but keep (the incomplete
// part, or -1 when all are complete: then the largest stays r), moving
// their intersections and figures out of r.
func (sp *split) carve(b *board, r, keep int) {
	var size, nb, nw [regionSearches]int
	for i := range sp.k {
		root := sp.find(i)
		size[root] += sp.size[i]
		nb[root] += sp.nb[i]
		nw[root] += sp.nw[i]
	}
	if keep < 0 {
		for i := range sp.k {
			if sp.find(i) == i && (keep < 0 || size[i] > size[keep]) {
				keep = i
			}
		}
	}
	for root := range sp.k {
		if sp.find(root) != root || root == keep {
			continue
		}
		id := b.newRegion()
		for i := range sp.k {
			if sp.find(i) != root {
				continue
			}
			for _, q := range sp.queue[i][:sp.tail[i]] {
				b.regionOf[q] = int16(id)
			}
		}
		b.regionSize[id], b.regionBlack[id], b.regionWhite[id] = int16(size[root]), int16(nb[root]), int16(nw[root])
		b.regionSize[r] -= int16(size[root])
		b.regionBlack[r] -= int16(nb[root])
		b.regionWhite[r] -= int16(nw[root])
		b.addTerritory(id, 1)
	}
}

// captureRegions makes a region of each chain of captured (now empty
// intersections, all their neighbours stones of the capturer or of the
// same chain).
func (b *board) captureRegions(captured []int) {
	if len(captured) == 0 {
		return
	}
	b.newMark()
	for _, q := range captured {
		if b.mark[q] == b.gen {
			continue
		}
		r := b.newRegion()
		b.regionSize[r], b.regionBlack[r], b.regionWhite[r] = 0, 0, 0
		b.fillRegion(q, r)
		b.addTerritory(r, 1)
	}
}
