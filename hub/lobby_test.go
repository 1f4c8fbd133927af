package hub

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// room is a summary for the tests: status "playing", "waiting" or
// "adjourned", created at ms, watched by spectators.
func room(id, status string, ms int64, spectators int) protocol.RoomSummary {
	s := protocol.RoomSummary{ID: id, Game: "go", Variant: "9", Status: status, Created: ms, Spectators: spectators}
	if status == StatusAdjourned {
		s.Status, s.Adjourned = rooms.StatusPlaying, true
	}
	return s
}

func ids(sums []protocol.RoomSummary) []string {
	out := make([]string, len(sums))
	for i, s := range sums {
		out[i] = s.ID
	}
	return out
}

// TestDigestShowsWatchedGamesThenOpenSeats: the lobby's page is the live
// games, the most watched first, then the rooms with a free seat, newest
// first within each; adjourned, private and finished rooms are counted (the
// first two) but not shown.
func TestDigestShowsWatchedGamesThenOpenSeats(t *testing.T) {
	priv := room("priv", rooms.StatusWaiting, 90, 0)
	priv.Private = true
	sums := []protocol.RoomSummary{
		room("w-old", rooms.StatusWaiting, 10, 0),
		room("p-quiet", rooms.StatusPlaying, 50, 0),
		room("w-new", rooms.StatusWaiting, 80, 0),
		room("p-crowd", rooms.StatusPlaying, 20, 9),
		room("p-some", rooms.StatusPlaying, 30, 2),
		room("p-some2", rooms.StatusPlaying, 40, 2),
		room("adj", StatusAdjourned, 60, 50),
		room("done", rooms.StatusFinished, 70, 0),
		priv,
	}
	for _, tt := range []struct {
		k    int
		want []string
	}{
		{10, []string{"p-crowd", "p-some2", "p-some", "p-quiet", "w-new", "w-old"}},
		{3, []string{"p-crowd", "p-some2", "p-some"}},
		{0, []string{}},
	} {
		d := DigestOf(sums, tt.k)
		if got := ids(d.Rooms); !slices.Equal(got, tt.want) {
			t.Errorf("k=%d: page %v, want %v", tt.k, got, tt.want)
		}
		if want := (protocol.LobbyCounts{Playing: 4, Waiting: 2, Adjourned: 1}); d.Counts != want {
			t.Errorf("k=%d: counts %+v, want %+v", tt.k, d.Counts, want)
		}
	}
}

// TestMergeDigests: the nodes' digests merge into the digest of all their
// rooms (a page of each node's first rooms holds the first page of all),
// a room two nodes list once.
func TestMergeDigests(t *testing.T) {
	var all []protocol.RoomSummary
	var ds []Digest
	for node := range 3 {
		var mine []protocol.RoomSummary
		for i := range 30 {
			st := []string{rooms.StatusPlaying, rooms.StatusWaiting, StatusAdjourned}[i%3]
			mine = append(mine, room(fmt.Sprintf("n%d-%02d", node, i), st, int64(i*3+node), (i*7+node*5)%11))
		}
		all = append(all, mine...)
		ds = append(ds, DigestOf(mine, 5))
	}
	ds = append(ds, Digest{Rooms: ds[0].Rooms[:2]}) // a room seen on two nodes at once
	got, want := MergeDigests(5, ds...), DigestOf(all, 5)
	if !slices.Equal(ids(got.Rooms), ids(want.Rooms)) || got.Counts != want.Counts {
		t.Fatalf("merged %v %+v, want %v %+v", ids(got.Rooms), got.Counts, ids(want.Rooms), want.Counts)
	}
}

// TestCursorWalksEveryRoomOnce: pages of every size walk the rooms newest
// first, each room once, filters applied; rooms changing status or
// spectators between pages do not move in the order.
func TestCursorWalksEveryRoomOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sums []protocol.RoomSummary
	for i := range 257 {
		st := []string{rooms.StatusPlaying, rooms.StatusWaiting, StatusAdjourned}[rng.IntN(3)]
		// Several rooms made in the same millisecond: the id breaks the tie.
		sums = append(sums, room(fmt.Sprintf("r%03d", i), st, int64(rng.IntN(60)), rng.IntN(5)))
	}
	for _, tt := range []struct {
		status string
		keep   func(protocol.RoomSummary) bool
	}{
		{"", func(protocol.RoomSummary) bool { return true }},
		{rooms.StatusPlaying, func(s protocol.RoomSummary) bool { return s.Status == rooms.StatusPlaying && !s.Adjourned }},
		{rooms.StatusWaiting, func(s protocol.RoomSummary) bool { return s.Status == rooms.StatusWaiting }},
		{StatusAdjourned, func(s protocol.RoomSummary) bool { return s.Adjourned }},
	} {
		for _, limit := range []int{1, 7, 50, MaxRoomsLimit} {
			seen := map[string]int{}
			var prev *protocol.RoomSummary
			q := Query{Limit: limit, Status: tt.status}
			for pages := 0; ; pages++ {
				if pages > len(sums) {
					t.Fatalf("status %q limit %d: the walk does not end", tt.status, limit)
				}
				if err := q.Check(); err != nil {
					t.Fatal(err)
				}
				page := PageOf(sums, q)
				for i := range page {
					seen[page[i].ID]++
					if prev != nil && Newest(*prev, page[i]) >= 0 {
						t.Fatalf("status %q limit %d: %s after %s", tt.status, limit, page[i].ID, prev.ID)
					}
					prev = &page[i]
				}
				// Between pages the rooms change what the order ignores.
				for i := range sums {
					sums[i].Spectators = rng.IntN(5)
				}
				if len(page) < limit {
					break
				}
				q.Cursor = CursorOf(page[len(page)-1]).String()
			}
			for _, s := range sums {
				if want := 0; tt.keep(s) {
					want = 1
					if seen[s.ID] != want {
						t.Fatalf("status %q limit %d: %s seen %d times", tt.status, limit, s.ID, seen[s.ID])
					}
				} else if seen[s.ID] != want {
					t.Fatalf("status %q limit %d: %s (%s) listed", tt.status, limit, s.ID, s.Status)
				}
			}
		}
	}
}

func TestQueryCheck(t *testing.T) {
	for _, tt := range []struct {
		q  Query
		ok bool
	}{
		{Query{Limit: 1}, true},
		{Query{Limit: MaxRoomsLimit, Status: rooms.StatusWaiting, Cursor: "17.abc-_Z9"}, true},
		{Query{Limit: 0}, false},
		{Query{Limit: MaxRoomsLimit + 2}, false},
		{Query{Limit: 5, Status: "finished"}, false},
		{Query{Limit: 5, Cursor: "abc"}, false},
		{Query{Limit: 5, Cursor: "-1.abc"}, false},
		{Query{Limit: 5, Cursor: "01.abc"}, false},
		{Query{Limit: 5, Cursor: "1.a b"}, false},
		{Query{Limit: 5, Cursor: "1."}, false},
	} {
		if err := tt.q.Check(); (err == nil) != tt.ok {
			t.Errorf("%+v: %v, want ok %v", tt.q, err, tt.ok)
		}
	}
}

// FuzzParseCursor: any string is a cursor or an error, never a panic, and a
// cursor read back writes itself the same.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"", "1712345678901.r7Kq2xY-9a", "0.a", "1.", ".x", "9999999999999999999.x", "1.a.b", "01.a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCursor(s)
		if err != nil {
			return
		}
		if c.String() != s {
			t.Fatalf("%q read as %+v, written %q", s, c, c.String())
		}
	})
}
