package hub

// The lobby (docs/protocol.md, "The lobby"): what the lobby's watchers are
// pushed and what GET /api/rooms pages through. Neither grows with the
// number of rooms: a lobby frame carries one page of the public rooms (the
// most watched live games first, then the rooms with a free seat), the
// counts of all of them, and the watcher's own rooms; GET /api/rooms walks
// every public room a page at a time, newest first, with a cursor. With
// several nodes each node's heartbeat carries its own Digest and a page of
// /api/rooms asks the other nodes for theirs (Hooks.Lobby, Hooks.Rooms).

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// LobbyPage is the most rooms a lobby frame carries in Rooms, and
// LobbyMine the most in Mine: a lobby frame stays under 32 KB whatever the
// number of rooms, even with every name as long as it may be.
const (
	LobbyPage = 20
	LobbyMine = 20
)

// DefaultLobbyInterval is the least time between two lobby frames pushed to
// a watcher (Config.LobbyInterval).
const DefaultLobbyInterval = time.Second

// Limits of a page of GET /api/rooms.
const (
	DefaultRoomsLimit = 50
	MaxRoomsLimit     = 100
)

// Digest is what the lobby shows of a set of rooms: the first LobbyPage of
// its public rooms in the lobby's order (Featured) and the counts of all of
// them. A node's heartbeat carries its own to the other nodes.
type Digest struct {
	Rooms  []protocol.RoomSummary `json:"rooms"`
	Counts protocol.LobbyCounts   `json:"counts"`
}

// featured ranks a public room in the lobby: 0 a live game, 1 a room with a
// free seat, -1 a room the lobby's page does not show (adjourned, finished,
// private).
func featured(s *protocol.RoomSummary) int {
	switch {
	case s.Private || s.Status == rooms.StatusFinished:
		return -1
	case s.Status == rooms.StatusWaiting:
		return 1
	case s.Adjourned:
		return -1
	}
	return 0
}

// Featured is the lobby's order: live games, the most watched first, then
// the rooms with a free seat; the newest first within each.
func Featured(a, b protocol.RoomSummary) int {
	ra, rb := featured(&a), featured(&b)
	if c := cmp.Compare(ra, rb); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Spectators, a.Spectators); ra == 0 && c != 0 {
		return c
	}
	return Newest(a, b)
}

// Newest is GET /api/rooms' order, which its cursor walks: the newest room
// first, by creation time and then id. Neither changes while a room lives,
// so a walk meets every room that lives throughout it exactly once.
func Newest(a, b protocol.RoomSummary) int {
	if c := cmp.Compare(b.Created, a.Created); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// counted adds s to c.
func counted(c *protocol.LobbyCounts, s *protocol.RoomSummary) {
	switch {
	case s.Private || s.Status == rooms.StatusFinished:
	case s.Status == rooms.StatusWaiting:
		c.Waiting++
	case s.Adjourned:
		c.Adjourned++
	default:
		c.Playing++
	}
}

// DigestOf is the digest of sums: its first k public rooms in the lobby's
// order, and the counts of all of them.
func DigestOf(sums []protocol.RoomSummary, k int) Digest {
	var d Digest
	shown := make([]protocol.RoomSummary, 0, min(k, len(sums)))
	for i := range sums {
		counted(&d.Counts, &sums[i])
		if featured(&sums[i]) >= 0 {
			shown = append(shown, sums[i])
		}
	}
	slices.SortFunc(shown, Featured)
	d.Rooms = shown[:min(k, len(shown))]
	return d
}

// MergeDigests is the digest of the rooms of several digests (several
// nodes'): the first k of their rooms, a room in two of them once (a room
// moving between nodes), and the sums of their counts.
func MergeDigests(k int, ds ...Digest) Digest {
	var out Digest
	seen := map[string]bool{}
	for _, d := range ds {
		out.Counts.Add(d.Counts)
		for _, s := range d.Rooms {
			if !seen[s.ID] {
				seen[s.ID] = true
				out.Rooms = append(out.Rooms, s)
			}
		}
	}
	slices.SortFunc(out.Rooms, Featured)
	out.Rooms = out.Rooms[:min(k, len(out.Rooms))]
	return out
}

// Cursor is a place in GET /api/rooms' order (Newest): a page after it
// begins with the first room after the one it names.
type Cursor struct {
	Created int64
	ID      string
}

// String is the cursor as GET /api/rooms gives it in "next": the room's
// creation time and its id.
func (c Cursor) String() string {
	if c.ID == "" {
		return ""
	}
	return strconv.FormatInt(c.Created, 10) + "." + c.ID
}

// IsZero reports whether c is the start of the order.
func (c Cursor) IsZero() bool { return c.ID == "" }

// CursorOf is the cursor that follows s.
func CursorOf(s protocol.RoomSummary) Cursor { return Cursor{Created: s.Created, ID: s.ID} }

// maxRoomID bounds a room id in a cursor (ours are 10 characters).
const maxRoomID = 64

// ParseCursor reads a cursor as String writes it; "" is the start.
func ParseCursor(s string) (Cursor, error) {
	if s == "" {
		return Cursor{}, nil
	}
	ms, id, ok := strings.Cut(s, ".")
	if !ok || id == "" || len(id) > maxRoomID {
		return Cursor{}, errors.New("a cursor is the \"next\" of the page before")
	}
	created, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || created < 0 || ms != strconv.FormatInt(created, 10) {
		return Cursor{}, errors.New("a cursor is the \"next\" of the page before")
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return Cursor{}, errors.New("a cursor is the \"next\" of the page before")
		}
	}
	return Cursor{Created: created, ID: id}, nil
}

// after reports whether s comes after c in the order.
func (c Cursor) after(s protocol.RoomSummary) bool {
	return c.IsZero() || Newest(protocol.RoomSummary{Created: c.Created, ID: c.ID}, s) < 0
}

// Query is one page of GET /api/rooms.
type Query struct {
	// After is where the page begins (the zero cursor: the newest room).
	After Cursor `json:"-"`
	// Cursor is After as the wire carries it (between nodes).
	Cursor string `json:"cursor,omitempty"`
	// Limit is the most rooms of the page (1 to MaxRoomsLimit).
	Limit int `json:"limit"`
	// Game keeps the rooms of one game; "" every game.
	Game string `json:"game,omitempty"`
	// Status keeps the live games ("playing"), the rooms with a free seat
	// ("waiting") or the adjourned games ("adjourned"); "" all of them.
	Status string `json:"status,omitempty"`
}

// The values of Query.Status besides the rooms' own statuses.
const StatusAdjourned = "adjourned"

// Check validates q (from a request or another node) and fills After from
// Cursor.
func (q *Query) Check() error {
	switch q.Status {
	case "", rooms.StatusPlaying, rooms.StatusWaiting, StatusAdjourned:
	default:
		return fmt.Errorf(`"status" must be %q, %q or %q`, rooms.StatusPlaying, rooms.StatusWaiting, StatusAdjourned)
	}
	if q.Limit < 1 || q.Limit > MaxRoomsLimit+1 {
		return fmt.Errorf(`"limit" must be 1 to %d`, MaxRoomsLimit)
	}
	if len(q.Game) > 32 {
		return errors.New(`"game" is too long`)
	}
	c, err := ParseCursor(q.Cursor)
	if err != nil {
		return err
	}
	q.After = c
	return nil
}

// keeps reports whether the page of q shows s.
func (q *Query) keeps(s *protocol.RoomSummary) bool {
	if s.Private || s.Status == rooms.StatusFinished || q.Game != "" && s.Game != q.Game || !q.After.after(*s) {
		return false
	}
	switch q.Status {
	case rooms.StatusPlaying:
		return s.Status == rooms.StatusPlaying && !s.Adjourned
	case rooms.StatusWaiting:
		return s.Status == rooms.StatusWaiting
	case StatusAdjourned:
		return s.Status == rooms.StatusPlaying && s.Adjourned
	}
	return true
}

// PageOf is the page of q among sums: at most q.Limit of the public rooms
// q keeps, after q.After, newest first.
func PageOf(sums []protocol.RoomSummary, q Query) []protocol.RoomSummary {
	out := []protocol.RoomSummary{}
	for i := range sums {
		if q.keeps(&sums[i]) {
			out = append(out, sums[i])
		}
	}
	slices.SortFunc(out, Newest)
	return out[:min(q.Limit, len(out))]
}

// Rooms answers GET /api/rooms: the page of q among this node's public
// rooms and, with several nodes, the other nodes' (Hooks.Rooms), with the
// cursor of the next page when there is one, and the lobby's counts.
func (h *Hub) Rooms(ctx context.Context, q Query) protocol.RoomsPage {
	limit := q.Limit
	q.Limit++ // one more says whether a next page exists
	q.Cursor = q.After.String()
	page := PageOf(h.cfg.Rooms.Summaries(), q)
	hk := h.hooks()
	if hk.Rooms != nil {
		page = append(page, hk.Rooms(ctx, q)...)
		page = dedup(page)
		slices.SortFunc(page, Newest)
	}
	out := protocol.RoomsPage{Rooms: page[:min(limit, len(page))], Counts: h.digest().Counts}
	if len(page) > limit {
		out.Next = CursorOf(page[limit-1]).String()
	}
	return out
}

// dedup drops the second sighting of a room (a room that moved between
// nodes as they answered), keeping the order.
func dedup(sums []protocol.RoomSummary) []protocol.RoomSummary {
	seen := make(map[string]bool, len(sums))
	out := sums[:0]
	for _, s := range sums {
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out
}

// lobbyView is one computation of the lobby: the digest of every node's
// rooms and the unfinished rooms known here (this node's, private ones
// included, and the rooms of the other nodes' digests), for the watchers'
// own lists.
type lobbyView struct {
	digest Digest
	known  []protocol.RoomSummary
	queues []protocol.Queue
}

// view computes the lobby now.
func (h *Hub) view() lobbyView {
	local := h.cfg.Rooms.Summaries()
	v := lobbyView{digest: DigestOf(local, LobbyPage), known: local, queues: h.queueCounts()}
	if others := h.hooks().Lobby; others != nil {
		ds := others()
		for _, d := range ds {
			v.known = append(v.known, d.Rooms...)
		}
		v.digest = MergeDigests(LobbyPage, append(ds, v.digest)...)
	}
	return v
}

// viewFresh is how old a view may be that answers a lobby.watch or a page
// of GET /api/rooms: however many ask, the lobby is computed a few times a
// second at most. A change since is pushed by the lobby loop, which always
// computes afresh (and refreshes this view).
const viewFresh = 200 * time.Millisecond

// recentView is a view of the lobby at most viewFresh old.
func (h *Hub) recentView() *lobbyView {
	h.viewMu.Lock()
	v, at := h.lastView, h.lastViewAt
	h.viewMu.Unlock()
	if v != nil && time.Since(at) < viewFresh {
		return v
	}
	return h.freshView()
}

// freshView computes the view now and keeps it for recentView.
func (h *Hub) freshView() *lobbyView {
	v := h.view()
	h.viewMu.Lock()
	h.lastView, h.lastViewAt = &v, time.Now()
	h.viewMu.Unlock()
	return &v
}

// digest is the lobby's digest, as of at most viewFresh ago.
func (h *Hub) digest() Digest {
	return h.recentView().digest
}

// queueCounts is how many players wait in each of this node's quick-match
// queues.
func (h *Hub) queueCounts() []protocol.Queue {
	h.mu.Lock()
	qs := make([]protocol.Queue, 0, len(h.queues))
	at := map[[2]string]int{} // casual and rated seekers counted together
	for k, q := range h.queues {
		gv := [2]string{k.Game, k.Variant}
		if i, ok := at[gv]; ok {
			qs[i].Waiting += len(q)
			continue
		}
		at[gv] = len(qs)
		qs = append(qs, protocol.Queue{Game: k.Game, Variant: k.Variant, Waiting: len(q)})
	}
	h.mu.Unlock()
	slices.SortFunc(qs, func(a, b protocol.Queue) int {
		return strings.Compare(a.Game+"/"+a.Variant, b.Game+"/"+b.Variant)
	})
	return qs
}

// mine is the unfinished rooms of each of players among those v knows,
// newest first, at most LobbyMine each; a player without rooms has no
// entry.
func (v *lobbyView) mine(players map[string]bool) map[string][]protocol.RoomSummary {
	out := map[string][]protocol.RoomSummary{}
	for _, s := range v.known {
		for _, p := range s.Players {
			if p.ID != "" && players[p.ID] {
				out[p.ID] = append(out[p.ID], s)
			}
		}
	}
	for p, rs := range out {
		slices.SortFunc(rs, Newest)
		rs = dedup(rs)
		out[p] = rs[:min(LobbyMine, len(rs))]
	}
	return out
}

// message is the lobby message of v with mine (id: the request it
// answers).
func (v *lobbyView) message(id []byte, mine []protocol.RoomSummary) protocol.Lobby {
	return protocol.Lobby{Type: protocol.TypeLobby, ID: id, Rooms: v.digest.Rooms, Counts: v.digest.Counts,
		Mine: mine, Queues: v.queues}
}

// watch adds c to the lobby's watchers and answers it the lobby now.
func (h *Hub) watch(c *conn, id []byte) {
	h.mu.Lock()
	h.watchers[c] = &watcher{}
	h.mu.Unlock()
	v := h.recentView()
	c.Send(protocol.MustEncode(v.message(id, v.mine(map[string]bool{c.playerID: true})[c.playerID])))
}

// watcher is one connection watching the lobby: the last frame pushed to
// it, so that a push that would change nothing for it is not sent.
type watcher struct {
	last *protocol.Frame
}

// LobbyChanged marks the lobby view stale; it never blocks.
func (h *Hub) LobbyChanged() {
	select {
	case h.dirty <- struct{}{}:
	default:
	}
}

// lobbyLoop pushes the lobby to its watchers after a change, at most once
// every LobbyInterval: the first change after a quiet interval goes at
// once, those that follow within it together at its end.
func (h *Hub) lobbyLoop() {
	defer h.lwg.Done()
	var last time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	scheduled := false
	for {
		select {
		case <-h.quit:
			timer.Stop()
			return
		case <-h.dirty:
			if scheduled {
				continue
			}
			if wait := h.cfg.LobbyInterval - time.Since(last); wait > 0 {
				timer.Reset(wait)
				scheduled = true
				continue
			}
		case <-timer.C:
			scheduled = false
		}
		last = time.Now()
		h.pushLobby()
	}
}

// pushLobby sends the lobby to every watcher whose view changed since its
// last frame: one frame for the watchers without rooms of their own, one
// for each of the others.
func (h *Hub) pushLobby() {
	type target struct {
		c    *conn
		w    *watcher
		last *protocol.Frame
	}
	h.mu.Lock()
	ts := make([]target, 0, len(h.watchers))
	players := make(map[string]bool, len(h.watchers))
	for c, w := range h.watchers {
		ts = append(ts, target{c, w, w.last})
		players[c.playerID] = true
	}
	h.mu.Unlock()
	if len(ts) == 0 {
		return
	}
	v := h.freshView()
	mine := v.mine(players)
	shared := protocol.MustEncode(v.message(nil, nil))
	if h.lastShared != nil && bytes.Equal(h.lastShared.Data, shared.Data) {
		shared = h.lastShared // unchanged: one comparison of pointers a watcher
	}
	h.lastShared = shared
	for i := range ts {
		t := &ts[i]
		f := shared
		if rs := mine[t.c.playerID]; len(rs) > 0 {
			f = protocol.MustEncode(v.message(nil, rs))
		}
		if t.last == f || t.last != nil && f != shared && bytes.Equal(t.last.Data, f.Data) {
			continue
		}
		h.mu.Lock()
		if h.watchers[t.c] == t.w {
			t.w.last = f
		}
		h.mu.Unlock()
		t.c.Send(f)
	}
}
