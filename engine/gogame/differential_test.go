package gogame

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

// diffStats counts what the differential tests saw, to check they exercise
// captures, suicides and superko refusals.
type diffStats struct {
	positions, captures, capturedStones, superko, suicides, restores, clones int
}

// errText is an error's code and message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return string(engine.CodeOf(err)) + ": " + err.Error()
}

// compareWithRef fails unless the engine's state s answers every call of a
// room exactly as the reference r does, and every intersection is judged
// the same by check (the same refusal, or the same captures and hash).
func compareWithRef(t testing.TB, where string, s *state, r *refState, st *diffStats) {
	t.Helper()
	st.positions++
	gt, gok := s.Turn()
	wt, wok := r.Turn()
	if gt != wt || gok != wok {
		t.Fatalf("%s: Turn %d %v, want %d %v", where, gt, gok, wt, wok)
	}
	for seat := range 2 {
		if got, want := s.Legal(seat), r.Legal(seat); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("%s: Legal(%d)\n%v\nwant\n%v", where, seat, got, want)
		}
	}
	// What a room.state carries: the same JSON.
	if got, want := jsonOf(t, s.Score()), jsonOf(t, r.Score()); got != want {
		t.Fatalf("%s: Score %s, want %s", where, got, want)
	}
	if got, want := s.Board(), r.Board(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: Board\n%v\nwant\n%v", where, got, want)
	}
	if got, want := s.Extra(), refExtra(r); !reflect.DeepEqual(got, want) || jsonOf(t, got) != jsonOf(t, want) {
		t.Fatalf("%s: Extra %v, want %v", where, got, want)
	}
	if got, want := s.Outcome(), r.Outcome(); got != want {
		t.Fatalf("%s: Outcome %v, want %v", where, got, want)
	}
	got, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.MarshalJSON()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: MarshalJSON\n got %s\nwant %s", where, got, want)
	}
	if s.board.hash != r.board.hash {
		t.Fatalf("%s: hash %x, want %x", where, s.board.hash, r.board.hash)
	}
	checkChains(t, where, s.board)
	checkIncremental(t, where, s.board)
	for p := range r.board.cells {
		o, err := s.check(p, s.toMove)
		ro, rerr := r.check(p, r.toMove)
		if errText(err) != errText(rerr) {
			t.Fatalf("%s: check(%s): %q, want %q", where, s.board.geo.names[p], errText(err), errText(rerr))
		}
		if rerr != nil {
			switch {
			case strings.Contains(rerr.Error(), "repeats"):
				st.superko++
			case strings.Contains(rerr.Error(), "suicide"):
				st.suicides++
			}
			continue
		}
		if o.hash != ro.hash || !slices.Equal(sorted(o.captured), sorted(ro.captured)) {
			t.Fatalf("%s: check(%s) captures %v hash %x, want %v %x", where, s.board.geo.names[p],
				names(s.board.geo, o.captured), o.hash, names(s.board.geo, ro.captured), ro.hash)
		}
	}
}

// checkChains fails unless the board's chains are what flood fills find:
// every stone's representative is a stone of its color that represents
// itself, and each representative's list holds exactly the stones
// connected to it, once, with the right size and number of liberties.
func checkChains(t testing.TB, where string, b *board) {
	t.Helper()
	for p, c := range b.cells {
		if c == empty {
			continue
		}
		h := int(b.head[p])
		if b.cells[h] != c || int(b.head[h]) != h {
			t.Fatalf("%s: %s has representative %s", where, b.geo.names[p], b.geo.names[h])
		}
		if h != p {
			continue // the representative's chain is checked below
		}
		var members []int
		for q := h; ; {
			members = append(members, q)
			if b.head[q] != int16(h) || len(members) > len(b.cells) {
				t.Fatalf("%s: the chain list of %s is broken", where, b.geo.names[p])
			}
			q = int(b.next[q])
			if q == h {
				break
			}
		}
		slices.Sort(members)
		if want := b.chain(p); !slices.Equal(members, want) || int(b.size[h]) != len(want) {
			t.Fatalf("%s: chain of %s is %v (size %d), want %v", where, b.geo.names[p],
				names(b.geo, members), b.size[h], names(b.geo, want))
		}
		if got, want := int(b.libs[h]), b.libertyCount(p); got != want {
			t.Fatalf("%s: chain of %s has %d liberties, want %d", where, b.geo.names[p], got, want)
		}
	}
}

// sorted returns a sorted copy of ps.
func sorted(ps []int) []int {
	ps = slices.Clone(ps)
	slices.Sort(ps)
	return ps
}

// applyBoth applies move for seat on both engines and fails unless they
// accept or refuse it alike.
func applyBoth(t testing.TB, where string, s *state, r *refState, seat int, move string) error {
	t.Helper()
	err, rerr := s.Apply(seat, move), r.Apply(seat, move)
	if errText(err) != errText(rerr) {
		t.Fatalf("%s: Apply(%d, %q): %q, want %q", where, seat, move, errText(err), errText(rerr))
	}
	return rerr
}

// pickMove chooses the next move of a random game, biased toward captures
// and ataris so that games have many captures, kos and superko refusals;
// pass with probability 1/passOdds.
func pickMove(rng *rand.Rand, r *refState, passOdds int) string {
	legal := r.Legal(r.toMove.seat())
	stones := legal[:len(legal)-1]
	if len(stones) == 0 || rng.IntN(passOdds) == 0 {
		return Pass
	}
	var captures, ataris []string
	b, opp := r.board, r.toMove.opponent()
	for _, m := range stones {
		p, _ := b.geo.parsePoint(m)
		if o := b.try(p, r.toMove); len(o.captured) > 0 {
			captures = append(captures, m)
			continue
		}
		for _, q := range b.geo.adj[p] {
			if b.cells[q] == opp && !b.hasLibertyBesides(q, p) {
				continue // would capture: counted above
			}
			if b.cells[q] == opp {
				libs := 0
				b.flood(q, nil, func(x int) {
					if b.cells[x] == empty {
						libs++
					}
				})
				if libs <= 3 { // counted per adjacency: roughly two liberties
					ataris = append(ataris, m)
					break
				}
			}
		}
	}
	switch k := rng.IntN(10); {
	case k < 6 && len(captures) > 0:
		return captures[rng.IntN(len(captures))]
	case k < 8 && len(ataris) > 0:
		return ataris[rng.IntN(len(ataris))]
	}
	return stones[rng.IntN(len(stones))]
}

// illegalProbes returns moves to try that the reference refuses at this
// position: an occupied intersection, a suicide, a superko repetition (when
// there are), a malformed move and a move out of turn.
func illegalProbes(rng *rand.Rand, r *refState) []string {
	var occupied, refused []string
	for p, c := range r.board.cells {
		if c != empty {
			occupied = append(occupied, r.board.geo.names[p])
		} else if _, err := r.check(p, r.toMove); err != nil {
			refused = append(refused, r.board.geo.names[p])
		}
	}
	out := []string{"Z9", "a1", "pass "}
	if len(occupied) > 0 {
		out = append(out, occupied[rng.IntN(len(occupied))])
	}
	return append(out, refused...)
}

// playDifferential plays one random game on both engines from setup,
// comparing them at every position, and returns what it saw.
func playDifferential(t testing.TB, variant, setup string, seed uint64, maxPlies, passOdds, restoreEvery int, st *diffStats) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xd1ff))
	s, r := mustNew(t, variant, setup), newRefState(variant, setup)
	var cs *state
	var cr *refState
	for ply := 0; ; ply++ {
		where := fmt.Sprintf("go %s seed %d ply %d", variant, seed, ply)
		compareWithRef(t, where, s, r, st)
		if cs != nil {
			// The clone taken a move ago is unchanged by the move on the
			// original; a move on it leaves the original alone.
			compareWithRef(t, where+" (clone)", cs, cr, st)
			if !cr.over() {
				m := pickMove(rng, cr, passOdds)
				applyBoth(t, where+" (clone)", cs, cr, cr.toMove.seat(), m)
				compareWithRef(t, where+" (clone after "+m+")", cs, cr, st)
				compareWithRef(t, where+" (original after a move on the clone)", s, r, st)
			}
			cs, cr = nil, nil
		}
		if restoreEvery > 0 && ply%restoreEvery == 0 {
			snap, _ := s.MarshalJSON()
			rs, err := Game().Restore(snap)
			if err != nil {
				t.Fatalf("%s: Restore: %v", where, err)
			}
			compareWithRef(t, where+" (restored)", rs.(*state), r, st)
			st.restores++
		}
		if r.over() || ply >= maxPlies {
			applyBoth(t, where, s, r, 0, "A1")
			return
		}
		seat := r.toMove.seat()
		applyBoth(t, where, s, r, 1-seat, "A1")
		for _, m := range illegalProbes(rng, r) {
			if applyBoth(t, where, s, r, seat, m) == nil {
				t.Fatalf("%s: probe %q was accepted", where, m)
			}
		}
		if ply%17 == 5 {
			cs, cr = s.Clone().(*state), r.Clone()
			st.clones++
		}
		m := pickMove(rng, r, passOdds)
		nb, nw := r.board.count()
		applyBoth(t, where, s, r, seat, m)
		if nbAfter, nwAfter := r.board.count(); nbAfter < nb || nwAfter < nw {
			st.captures++
			st.capturedStones += nb - nbAfter + nw - nwAfter + 1 // the mover's new stone
		}
	}
}

// TestDifferential compares the engine with the reference copy of the
// flood-fill engine (oracle_test.go) on every position of seeded random
// games of every size, biased toward captures so that kos and superko
// refusals occur, including games that end by two passes and one from a
// setup with white to move.
func TestDifferential(t *testing.T) {
	t.Parallel()
	type run struct {
		variant, setup            string
		games, maxPlies, passOdds int
		restoreEvery              int
	}
	runs := []run{
		{"9", "", 12, 500, 40, 7},
		{"9", "", 10, 300, 4, 3}, // frequent passes: games end
		{"9", setupJSON(t, []string{"C3", "D4", "E5"}, []string{"E4", "D5"}, "white"), 5, 300, 40, 5},
		{"13", "", 3, 800, 100, 50},
		{"19", "", 2, 1000, 300, 100},
	}
	if testing.Short() {
		for i := range runs {
			runs[i].games = max(1, runs[i].games/5)
		}
	}
	var st diffStats
	for _, rn := range runs {
		for g := range rn.games {
			playDifferential(t, rn.variant, rn.setup, uint64(g), rn.maxPlies, rn.passOdds, rn.restoreEvery, &st)
		}
	}
	t.Logf("%d positions compared (%d restored, %d clones); %d captures of %d stones; %d superko refusals and %d suicides among the intersections checked",
		st.positions, st.restores, st.clones, st.captures, st.capturedStones, st.superko, st.suicides)
	if st.captures == 0 || st.superko == 0 || st.suicides == 0 {
		t.Errorf("the games did not exercise captures, superko and suicide: %+v", st)
	}
}

// FuzzDifferential plays the fuzzer's bytes as a move sequence on both
// engines and compares them after every move. The first byte picks the
// board size; then a byte 0xff is a pass, a byte with the high bit set
// picks a legal move, and otherwise two bytes name an intersection, legal
// or not.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte{0, 0x80, 0x81, 0x82, 0x83, 0xff, 0xff})
	f.Add([]byte{0, 0, 10, 0, 11, 0, 19, 0, 20, 0, 1, 0, 9, 0, 0, 0x90, 0x9f, 0x80, 0x80})
	f.Add([]byte{2, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0, 0xe0, 0xf0, 0xfe, 1, 0x68})
	f.Add(bytes.Repeat([]byte{1, 0x85, 0x91, 0xc3}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		variant := []string{"9", "13", "19"}[int(data[0])%3]
		s, r := mustNew(t, variant, ""), newRefState(variant, "")
		var st diffStats
		for i := 1; i < len(data) && !r.over(); i++ {
			move, next, ok := fuzzMove(r, data, i)
			if !ok {
				return
			}
			i = next
			applyBoth(t, fmt.Sprintf("byte %d", i), s, r, r.toMove.seat(), move)
			compareWithRef(t, fmt.Sprintf("after %q (byte %d)", move, i), s, r, &st)
		}
		snap, _ := s.MarshalJSON()
		rs, err := Game().Restore(snap)
		if err != nil {
			t.Fatalf("Restore: %v", err)
		}
		compareWithRef(t, "restored", rs.(*state), r, &st)
	})
}

// fuzzMove reads the move of the fuzzers' bytes at data[i] for the side
// to move in r: 0xff is a pass, a byte with the high bit set picks a legal
// move, and otherwise the two bytes data[i:i+2] name an intersection,
// legal or not. next is the index of the move's last byte; ok is false
// when the bytes end within a move.
func fuzzMove(r *refState, data []byte, i int) (move string, next int, ok bool) {
	switch v := data[i]; {
	case v == 0xff:
		return Pass, i, true
	case v&0x80 != 0:
		legal := r.Legal(r.toMove.seat())
		return legal[int(v&0x7f)%len(legal)], i, true
	case i+1 < len(data):
		p := (int(v)<<8 | int(data[i+1])) % len(r.board.cells)
		return r.board.geo.names[p], i + 1, true
	}
	return "", i, false
}

// TestCloneConcurrent plays on a state and on its clones at the same time
// on other goroutines, as bots do (run with -race): each ends as the
// reference says, whatever the other did.
func TestCloneConcurrent(t *testing.T) {
	s, r := mustNew(t, "19", ""), newRefState("19", "")
	rng := rand.New(rand.NewPCG(3, 3))
	var st diffStats
	for ply := range 120 {
		applyBoth(t, fmt.Sprintf("ply %d", ply), s, r, r.toMove.seat(), pickMove(rng, r, 1000))
	}
	type game struct {
		s     *state
		r     *refState
		moves []string
	}
	games := []*game{{s: s, r: r}}
	for range 3 {
		games = append(games, &game{s: s.Clone().(*state), r: r.Clone()})
	}
	// The moves are chosen beforehand on the reference, which stays on
	// this goroutine.
	for i, g := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 4))
		ref := g.r.Clone()
		for range 60 {
			m := pickMove(rng, ref, 1000)
			g.moves = append(g.moves, m)
			if ref.Apply(ref.toMove.seat(), m) != nil {
				t.Fatal("pickMove chose an illegal move")
			}
		}
	}
	done := make(chan error, len(games))
	for _, g := range games {
		go func() {
			for _, m := range g.moves {
				seat, _ := g.s.Turn()
				if err := g.s.Apply(seat, m); err != nil {
					done <- err
					return
				}
				g.s.Legal(1 - seat)
				g.s.Score()
				if _, err := g.s.MarshalJSON(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range games {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i, g := range games {
		for _, m := range g.moves {
			if err := g.r.Apply(g.r.toMove.seat(), m); err != nil {
				t.Fatal(err)
			}
		}
		compareWithRef(t, fmt.Sprintf("game %d", i), g.s, g.r, &st)
	}
}
