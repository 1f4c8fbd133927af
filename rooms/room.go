package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// Room statuses.
const (
	StatusWaiting  = "waiting"
	StatusPlaying  = "playing"
	StatusFinished = "finished"
)

// Roles of a member.
const (
	RolePlayer    = "player"
	RoleSpectator = "spectator"
)

// ChatLimit is the longest chat line, in runes.
const ChatLimit = 500

type member struct {
	m    Member
	role string
	seat int
	// patch: the member takes room.patch frames; at is the seq of the
	// state it holds (-1 before its first room.state from a broadcast).
	patch bool
	at    int64
}

// Room is one game room. Its fields belong to its goroutine; the exported
// methods only post commands to it.
type Room struct {
	m    *Manager
	log  *zap.Logger
	id   string
	game engine.Game
	info engine.Info

	variant string
	state   engine.State
	// savedEngine is the engine's snapshot as of the room's last save known
	// to be in the store, and engineSnap the one the save under way wrote.
	// A change to state is taken back from savedEngine (see revert), so a
	// move does not clone the state first; with no store, prev holds the
	// clone instead. changing is true while Apply runs (see safely).
	savedEngine, engineSnap []byte
	prev                    engine.State
	changing                bool

	seats   []Seat
	members map[uint64]*member
	// spectating counts the members with the spectator role and
	// memberOf the members of each player id, so that a room.state does not
	// walk every member (see addMember, removeMember).
	spectating int
	memberOf   map[string]int
	status     string
	seq        int64
	// seqFloor is the seq of the last save that failed without a definite
	// answer: it may still land in the store, so a rolled-back room never
	// reuses that seq (see save).
	seqFloor int64
	// savedSeq is the seq of the room's last save known to be in the
	// store: the next log entry names it as its prev (see logEntry).
	savedSeq int64
	result   *protocol.Result
	lastMove *protocol.LastMove
	created  time.Time
	updated  time.Time
	private  bool
	watch    bool
	seed     uint64

	moves      int64
	seatMoves  []int64
	history    []protocol.LastMove // every move since the start (room.state "moves")
	logEnc     moveLogEncoder      // history as the snapshot's JSON, kept between saves
	botPending []bool
	rematch    []int
	next       string

	clock     *clock
	flagTimer *time.Timer
	flagGen   int
	// live is set when the goroutine starts: no timer is set before, so a
	// room that never starts leaves none behind.
	live bool

	// goneSince is, per human seat, since when it has had no connection
	// (zero while connected); see abandon.go.
	goneSince []time.Time
	idleTimer *time.Timer
	idleGen   int
	adjourned bool

	cmds   chan func()
	done   chan struct{}
	timers map[*time.Timer]struct{}

	// patcher diffs the states sent to patch members; patchFlush is set
	// while a coalesced spectator-count change waits (see publish).
	patcher    protocol.Patcher
	patchFlush bool

	// epoch is the room's lease epoch on this node (0: single node); every
	// save carries it. fenced is set when another node took the room over:
	// the room stops without writing anything more.
	epoch  int64
	fenced bool
	// broken is set when a change could not be taken back (see revert):
	// the room closes, and the store's last save is what a later join
	// restores.
	broken bool
}

// ID is the room id.
func (r *Room) ID() string { return r.id }

// Done is closed when the room's goroutine has exited.
func (r *Room) Done() <-chan struct{} { return r.done }

// post runs f on the room goroutine, waiting until the room takes it; false
// when the room has closed.
func (r *Room) post(f func()) bool {
	select {
	case r.cmds <- f:
		return true
	case <-r.done:
		return false
	}
}

// Join adds mem to the room as a player (taking a free seat, or its own) or
// a spectator, and answers room.joined and room.state.
func (r *Room) Join(mem Member, as string, id json.RawMessage) bool {
	return r.post(func() { r.join(mem, as, id) })
}

// Leave removes mem from the room; a seated player keeps the seat.
func (r *Room) Leave(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		r.leave(mem)
		mem.Send(protocol.MustEncode(protocol.RoomLeft{Type: protocol.TypeRoomLeft, ID: id, Room: r.id}))
	})
}

// Gone tells the room that mem's connection closed.
func (r *Room) Gone(mem Member) bool { return r.post(func() { r.leave(mem) }) }

// Move plays move in the seat mem's player holds.
func (r *Room) Move(mem Member, move string, id json.RawMessage) bool {
	return r.post(func() {
		seat, perr := r.playerSeat(mem)
		if perr == nil {
			perr = r.play(seat, move, "human")
		}
		if perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Resign ends the game, the other seat winning.
func (r *Room) Resign(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.resign(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Chat sends a chat line to every member.
func (r *Room) Chat(mem Member, text string, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.chat(mem, text); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Rematch asks for a rematch; when every human seat has asked, a new room
// starts with the seats swapped.
func (r *Room) Rematch(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.askRematch(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Stats is a copy of a few room facts, for tests and tools.
type Stats struct {
	Status  string
	Seq     int64
	Members int
}

// Stats returns the room's current facts.
func (r *Room) Stats() (Stats, bool) {
	ch := make(chan Stats, 1)
	if !r.post(func() { ch <- Stats{Status: r.status, Seq: r.seq, Members: len(r.members)} }) {
		return Stats{}, false
	}
	return <-ch, true
}

func (r *Room) run(join []JoinAs, reqID json.RawMessage) {
	defer r.m.wg.Done()
	defer r.exit()
	for i, j := range join {
		id := json.RawMessage(nil)
		if i == 0 {
			id = reqID
		}
		r.safely(func() { r.join(j.M, j.As, id) })
	}
	r.live = true
	r.safely(func() {
		r.startClock(r.now()) // a restored room
		r.armFlag()           // a new one, whose clock started in Create
		r.notePresence()
	})
	r.safely(r.scheduleBots)
	r.armLease()
	if len(join) > 0 && r.shouldClose() {
		return
	}
	for {
		select {
		case f := <-r.cmds:
			r.safely(f)
			if r.shouldClose() {
				return
			}
		case <-r.m.stop:
			return
		}
	}
}

// safely runs f, recovering a panic: it is logged with the room id and the
// room keeps its last good state.
func (r *Room) safely(f func()) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("room panic recovered", zap.String("room", r.id), zap.Any("panic", p),
				zap.ByteString("stack", debug.Stack()))
			if r.changing {
				r.changing = false
				r.revert()
			}
			if r.m.cfg.Metrics != nil {
				r.m.cfg.Metrics.Errors.WithLabelValues(string(protocol.CodeInternal)).Inc()
			}
		}
	}()
	f()
}

func (r *Room) shouldClose() bool {
	return r.fenced || r.broken || r.adjourned || len(r.members) == 0 && r.status != StatusPlaying
}

func (r *Room) exit() {
	for t := range r.timers {
		t.Stop()
	}
	r.disarmFlag()
	r.disarmIdle()
	r.m.remove(r)
	close(r.done)
	for _, mb := range r.members {
		mb.m.Left(r)
	}
	if c := r.m.cfg.Cluster; c != nil && r.epoch != 0 {
		if r.fenced {
			join := make([]JoinAs, 0, len(r.members))
			for _, mb := range r.members {
				join = append(join, JoinAs{M: mb.m, As: mb.role})
			}
			c.OnFenced(r.id, join)
		} else {
			r.m.release(r.id, r.epoch)
		}
	}
	r.log.Info("room closed", zap.String("room", r.id), zap.String("status", r.status), zap.Int64("seq", r.seq))
}

func (r *Room) allSeated() bool {
	for _, s := range r.seats {
		if s.PlayerID == "" && s.Bot == "" {
			return false
		}
	}
	return true
}

func (r *Room) seatOf(playerID string) int {
	for i, s := range r.seats {
		if s.Bot == "" && s.PlayerID != "" && s.PlayerID == playerID {
			return i
		}
	}
	return -1
}

func (r *Room) playerSeat(mem Member) (int, *protocol.Error) {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return -1, protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	}
	switch r.status {
	case StatusFinished:
		return -1, protocol.Errorf(protocol.CodeGameOver, "the game is over")
	case StatusWaiting:
		return -1, protocol.Errorf(protocol.CodeNotYourTurn, "waiting for an opponent")
	}
	return seat, nil
}

func (r *Room) replyErr(mem Member, id json.RawMessage, e *protocol.Error) {
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Errors.WithLabelValues(string(e.Code)).Inc()
	}
	r.send(mem, protocol.ErrorFrame(id, r.id, e))
}

func (r *Room) send(mem Member, f *protocol.Frame) {
	if !mem.Send(f) {
		r.drop(mem)
	}
}

func (r *Room) drop(mem Member) {
	if _, ok := r.members[mem.ConnID()]; ok {
		r.removeMember(mem.ConnID())
		mem.Left(r)
		r.notePresence()
	}
}

// addMember makes mb the member of its connection, in place of the one it
// replaces.
func (r *Room) addMember(mb *member) {
	r.removeMember(mb.m.ConnID())
	r.members[mb.m.ConnID()] = mb
	if mb.role == RoleSpectator {
		r.spectating++
	}
	if r.memberOf == nil {
		r.memberOf = map[string]int{}
	}
	r.memberOf[mb.m.PlayerID()]++
}

// removeMember forgets the member of connection id, if any.
func (r *Room) removeMember(id uint64) {
	mb, ok := r.members[id]
	if !ok {
		return
	}
	delete(r.members, id)
	if mb.role == RoleSpectator {
		r.spectating--
	}
	if p := mb.m.PlayerID(); r.memberOf[p] <= 1 {
		delete(r.memberOf, p)
	} else {
		r.memberOf[p]--
	}
}

func (r *Room) connected(seat int) bool {
	s := r.seats[seat]
	if s.Bot != "" {
		return true
	}
	return s.PlayerID != "" && r.memberOf[s.PlayerID] > 0
}

func (r *Room) spectators() int { return r.spectating }

func (r *Room) join(mem Member, as string, id json.RawMessage) {
	if as != RolePlayer && as != RoleSpectator {
		r.replyErr(mem, id, protocol.Errorf(protocol.CodeBadRequest, `"as" must be "player" or "spectator"`))
		return
	}
	seat := r.seatOf(mem.PlayerID())
	old, isMember := r.members[mem.ConnID()]
	changed := false
	seatTaken := false
	switch {
	case seat >= 0:
		// The player's own seat, whatever it asked for.
	case as == RolePlayer:
		if r.status == StatusFinished {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeGameOver, "the game is over"))
			return
		}
		for i, s := range r.seats {
			if s.PlayerID == "" && s.Bot == "" {
				seat = i
				break
			}
		}
		if seat < 0 {
			r.replyErr(mem, id, protocol.Errorf(protocol.CodeRoomFull, "room %s has no free seat", r.id))
			return
		}
		seatTaken = true
		changed = true
	}
	if !isMember && !mem.Joined(r) {
		return // the connection closed meanwhile
	}
	if seatTaken {
		r.seats[seat] = Seat{PlayerID: mem.PlayerID(), Name: mem.PlayerName()}
	}
	role := RoleSpectator
	if seat >= 0 {
		role = RolePlayer
	}
	if !isMember || old.role != role {
		wasConnected := seat >= 0 && !seatTaken && r.connected(seat)
		r.addMember(&member{m: mem, role: role, seat: seat, patch: wantsPatch(mem), at: -1})
		if role == RoleSpectator || !wasConnected || (isMember && old.role == RoleSpectator) {
			changed = true
		}
		r.notePresence()
	}
	var seatPtr *int
	if seat >= 0 {
		seatPtr = &seat
	}
	r.send(mem, protocol.MustEncode(protocol.RoomJoined{Type: protocol.TypeRoomJoined, ID: id, Room: r.id, Role: role, Seat: seatPtr}))
	if !changed {
		r.sendState(mem)
		return
	}
	r.nextSeq()
	if seatTaken {
		if r.allSeated() && r.status == StatusWaiting {
			r.setStatus(StatusPlaying)
			r.startClock(r.now())
			r.gameStarted(r.now())
		}
		if err := r.save(context.Background(), logEntry{Kind: "seat", Seat: &seat, Player: mem.PlayerID()}); err != nil {
			r.log.Warn("save after seat taken failed", zap.String("room", r.id), zap.Error(err))
		}
	}
	r.log.Debug("joined", zap.String("room", r.id), zap.String("player", mem.PlayerID()), zap.String("role", role))
	r.broadcastJoin(mem, role == RoleSpectator)
	r.scheduleBots()
}

func (r *Room) leave(mem Member) {
	mb, ok := r.members[mem.ConnID()]
	if !ok {
		return
	}
	r.removeMember(mem.ConnID())
	mem.Left(r)
	r.notePresence()
	if mb.role == RolePlayer && r.connected(mb.seat) {
		return // another tab of the same player is still here
	}
	r.nextSeq()
	if mb.role == RoleSpectator {
		r.broadcastCoalesced()
	} else {
		r.broadcast()
	}
}

func (r *Room) setStatus(s string) {
	if s == r.status {
		return
	}
	r.m.gauge(r.info.ID, r.status, -1)
	r.m.gauge(r.info.ID, s, 1)
	r.status = s
}

func (r *Room) finish(out engine.Outcome) {
	res := &protocol.Result{Reason: out.Reason}
	if out.Winner >= 0 {
		w := out.Winner
		res.Winner = &w
	}
	r.result = res
	r.setStatus(StatusFinished)
	r.stopClock(r.now())
}

// play applies a move for seat: validate, apply, persist, broadcast.
func (r *Room) play(seat int, move string, by string) *protocol.Error {
	if r.status == StatusFinished {
		return protocol.Errorf(protocol.CodeGameOver, "the game is over")
	}
	if r.status != StatusPlaying {
		return protocol.Errorf(protocol.CodeNotYourTurn, "waiting for an opponent")
	}
	if t, ok := r.state.Turn(); ok && t != seat {
		return protocol.Errorf(protocol.CodeNotYourTurn, "it is seat %d's turn", t)
	}
	now := r.now()
	if c := r.clock; c != nil && c.running == seat && c.leftAt(seat, now) <= 0 {
		r.flag(seat) // the timer has not fired yet
		return protocol.Errorf(protocol.CodeGameOver, "your time ran out")
	}
	if r.savedEngine == nil {
		r.prev = r.state.Clone()
	}
	r.changing = true // a panic in Apply reverts it (see safely)
	err := r.state.Apply(seat, move)
	r.changing = false
	if err != nil {
		// A refused move leaves the state as it was (the engine contract,
		// checked by enginetest for every game).
		r.prev = nil
		return protocol.AsError(err)
	}
	saved := r.keep()
	r.nextSeq()
	r.moves++
	r.seatMoves[seat]++
	r.lastMove = &protocol.LastMove{Seat: seat, Move: move}
	r.history = append(r.history, *r.lastMove)
	r.clockMoved(seat, now)
	if out := r.state.Outcome(); out.Over {
		r.finish(out)
	}
	if err := r.save(context.Background(), logEntry{Kind: "move", Seat: &seat, Move: move, By: by}); err != nil {
		r.log.Error("save failed; move rolled back", zap.String("room", r.id), zap.Error(err))
		r.restore(saved)
		r.revert()
		return protocol.Errorf(protocol.CodeInternal, "could not save the move, try again")
	}
	r.prev = nil
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Moves.WithLabelValues(r.info.ID, by).Inc()
	}
	if r.status == StatusFinished {
		r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID),
			zap.Any("winner", r.result.Winner), zap.String("reason", r.result.Reason))
	}
	r.broadcast()
	r.scheduleBots()
	return nil
}

// kept is the bookkeeping a failed save restores.
type kept struct {
	seq       int64
	moves     int64
	seatMoves []int64
	lastMove  *protocol.LastMove
	history   int
	status    string
	result    *protocol.Result
	updated   time.Time
	clock     *clock
}

func (r *Room) keep() kept {
	return kept{r.seq, r.moves, append([]int64(nil), r.seatMoves...), r.lastMove, len(r.history), r.status, r.result, r.updated, r.clock.clone()}
}

// nextSeq moves the room to its next seq. It skips a seq whose save failed
// without a definite answer, so a write that lands late never collides with a
// later one; clients see the gap and resync.
func (r *Room) nextSeq() {
	r.seq = max(r.seq, r.seqFloor) + 1
}

func (r *Room) restore(k kept) {
	r.seq, r.moves, r.seatMoves, r.lastMove, r.result, r.updated = k.seq, k.moves, k.seatMoves, k.lastMove, k.result, k.updated
	r.history = r.history[:k.history]
	r.setStatus(k.status)
	r.clock = k.clock
	r.armFlag()
}

func (r *Room) resign(mem Member) *protocol.Error {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	}
	if r.status == StatusFinished {
		return protocol.Errorf(protocol.CodeGameOver, "the game is over")
	}
	saved := r.keep()
	r.nextSeq()
	out := engine.Outcome{Over: true, Winner: -1, Reason: "resign"}
	if len(r.seats) == 2 && r.status == StatusPlaying {
		out.Winner = 1 - seat
	}
	r.finish(out)
	if err := r.save(context.Background(), logEntry{Kind: "resign", Seat: &seat}); err != nil {
		r.log.Error("save failed; resign rolled back", zap.String("room", r.id), zap.Error(err))
		r.restore(saved)
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.log.Info("resigned", zap.String("room", r.id), zap.Int("seat", seat))
	r.broadcast()
	return nil
}

// CleanText strips control characters and surrounding space. Text is never
// HTML-escaped here: clients render it as text.
func CleanText(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' {
			return -1
		}
		return c
	}, s)
	return strings.TrimSpace(s)
}

func (r *Room) chat(mem Member, text string) *protocol.Error {
	mb, ok := r.members[mem.ConnID()]
	if !ok {
		return protocol.Errorf(protocol.CodeNotAPlayer, "join room %s to chat", r.id)
	}
	if utf8.RuneCountInString(text) > ChatLimit {
		return protocol.Errorf(protocol.CodeTooLarge, "a chat line has at most %d characters", ChatLimit)
	}
	text = CleanText(text)
	if text == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "empty chat line")
	}
	msg := protocol.Chat{Type: protocol.TypeRoomChat, Room: r.id, From: mem.PlayerName(), Text: text, At: time.Now().UnixMilli()}
	if mb.role == RolePlayer {
		s := mb.seat
		msg.Seat = &s
	}
	r.fanout(protocol.MustEncode(msg), nil)
	return nil
}

func (r *Room) askRematch(mem Member) *protocol.Error {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return protocol.Errorf(protocol.CodeNotAPlayer, "only players can ask for a rematch")
	}
	if r.status != StatusFinished {
		return protocol.Errorf(protocol.CodeBadRequest, "the game is not over")
	}
	if r.next != "" {
		r.sendState(mem)
		return nil
	}
	for _, s := range r.rematch {
		if s == seat {
			return nil
		}
	}
	r.rematch = append(r.rematch, seat)
	for i, s := range r.seats {
		if s.PlayerID == "" && s.Bot == "" {
			return protocol.Errorf(protocol.CodeBadRequest, "seat %d is empty", i)
		}
	}
	all := true
	for i, s := range r.seats {
		if s.Bot != "" {
			continue
		}
		asked := false
		for _, a := range r.rematch {
			asked = asked || a == i
		}
		all = all && asked
	}
	r.nextSeq()
	if all {
		seats := make([]Seat, len(r.seats))
		for i := range r.seats {
			seats[(i+1)%len(seats)] = r.seats[i]
		}
		var join []JoinAs
		for _, mb := range r.members {
			if mb.role == RolePlayer {
				join = append(join, JoinAs{M: mb.m, As: RolePlayer})
			}
		}
		nr, err := r.m.Create(context.Background(), Spec{Game: r.info.ID, Variant: r.variant, Seats: seats,
			Private: r.private, Watch: r.watch, Clock: r.clock.timeControl(), Join: join})
		if err != nil {
			r.seq--
			r.rematch = r.rematch[:len(r.rematch)-1]
			return protocol.AsError(err)
		}
		r.next = nr.id
		for _, j := range join {
			s := (r.seatOf(j.M.PlayerID()) + 1) % len(seats)
			r.send(j.M, protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: nr.id, Seat: s}))
		}
	}
	r.broadcast()
	return nil
}

// State builds the room.state message.
func (r *Room) roomState() protocol.RoomState {
	players := make([]protocol.Player, len(r.seats))
	for i, s := range r.seats {
		name := s.Name
		if s.Bot != "" && name == "" {
			name = "bot"
		}
		players[i] = protocol.Player{Seat: i, ID: s.PlayerID, Name: name, Bot: s.Bot, Connected: r.connected(i)}
		if r.status == StatusPlaying && i < len(r.goneSince) && !r.goneSince[i].IsZero() {
			players[i].GoneSince = r.goneSince[i].UnixMilli()
			if at := r.claimableAt(i); !at.IsZero() {
				players[i].ClaimableAt = at.UnixMilli()
			}
		}
	}
	st := protocol.RoomState{
		Type: protocol.TypeRoomState, Room: r.id, Game: r.info.ID, Variant: r.variant, Seq: r.seq,
		Status: r.status, Players: players, Spectators: r.spectators(), Board: r.state.Board(),
		LastMove: r.lastMove, Score: r.state.Score(), Clocks: r.clocksView(r.now()), Result: r.result, Private: r.private,
		Watch: r.watch, Rematch: r.rematch, Next: r.next, Extra: r.state.Extra(), Legal: []string{},
	}
	if r.status == StatusPlaying {
		if t, ok := r.state.Turn(); ok {
			st.Turn = &t
			if l := r.state.Legal(t); l != nil {
				st.Legal = l
			}
		} else if !r.state.Outcome().Over {
			st.LegalBy = map[string][]string{}
			for i := range r.seats {
				st.LegalBy[strconv.Itoa(i)] = r.state.Legal(i)
			}
		}
	}
	return st
}

func (r *Room) stateFrame() *protocol.Frame {
	return r.encodeState(r.roomState())
}

// fullStateFrame is the room.state with the move history, for one member
// that joins or resyncs.
func (r *Room) fullStateFrame() *protocol.Frame {
	st := r.roomState()
	st.Moves = r.history
	if st.Moves == nil {
		st.Moves = []protocol.LastMove{}
	}
	return r.encodeState(st)
}

func (r *Room) encodeState(st protocol.RoomState) *protocol.Frame {
	f, err := protocol.Encode(st)
	if err != nil {
		panic(fmt.Sprintf("encode room.state: %v", err))
	}
	return f
}

// broadcast encodes one room.state (and one room.patch per kind of patch
// member) and hands it to every member.
func (r *Room) broadcast() { r.broadcastWith(false, nil) }

// broadcastCoalesced is broadcast for a spectator joining or leaving: the
// patch members get it with the next change or after patchDelay.
func (r *Room) broadcastCoalesced() { r.broadcastWith(true, nil) }

// broadcastJoin is broadcast after joiner joined: joiner gets the state with
// the move history, the others the usual frames (coalesced for a
// spectator's arrival).
func (r *Room) broadcastJoin(joiner Member, coalesce bool) {
	r.sendState(joiner)
	r.broadcastWith(coalesce, joiner)
}

// broadcastWith publishes the state to every member but skip (nil: none).
func (r *Room) broadcastWith(coalesce bool, skip Member) {
	start := time.Now()
	r.updated = start.UTC()
	r.publish(coalesce, false, skip)
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Broadcast.Observe(time.Since(start).Seconds())
	}
	r.m.setSummary(r)
}

// fanout hands f to every member but skip (nil: none).
func (r *Room) fanout(f *protocol.Frame, skip Member) {
	var slow []Member
	for id, mb := range r.members {
		if skip != nil && id == skip.ConnID() {
			continue
		}
		if !mb.m.Send(f) {
			slow = append(slow, mb.m)
		}
	}
	for _, m := range slow {
		r.drop(m)
	}
}

func (r *Room) summary() protocol.RoomSummary {
	players := make([]protocol.Player, len(r.seats))
	for i, s := range r.seats {
		players[i] = protocol.Player{Seat: i, ID: s.PlayerID, Name: s.Name, Bot: s.Bot, Connected: r.connected(i)}
	}
	return protocol.RoomSummary{ID: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status,
		Players: players, Spectators: r.spectators(), Watch: r.watch}
}

// botVersion is what a bot's answer must still match to be played: the
// number of moves in alternating games, the seat's own moves when both
// seats move freely (2048 race).
func (r *Room) botVersion(seat int) int64 {
	if _, ok := r.state.Turn(); ok {
		return r.moves
	}
	return r.seatMoves[seat]
}

// scheduleBots asks the pool for every bot seat that may move now.
func (r *Room) scheduleBots() {
	if r.status != StatusPlaying || r.m.cfg.Pool == nil {
		return
	}
	if r.botPending == nil {
		r.botPending = make([]bool, len(r.seats))
	}
	for seat, s := range r.seats {
		if s.Bot == "" || r.botPending[seat] || len(r.state.Legal(seat)) == 0 {
			continue
		}
		r.botPending[seat] = true
		if r.watch && r.m.cfg.WatchDelay > 0 {
			r.later(r.m.cfg.WatchDelay, func() { r.submitBot(seat) })
		} else {
			r.submitBot(seat)
		}
	}
}

func (r *Room) later(d time.Duration, f func()) {
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		r.post(func() {
			delete(r.timers, t)
			f()
		})
	})
	r.timers[t] = struct{}{}
}

func (r *Room) submitBot(seat int) {
	if r.status != StatusPlaying || len(r.state.Legal(seat)) == 0 {
		r.botPending[seat] = false
		return
	}
	level := r.seats[seat].Bot
	bot, ok := r.game.Bot(level)
	if !ok {
		r.log.Error("bot level vanished", zap.String("room", r.id), zap.String("level", level))
		r.botPending[seat] = false
		return
	}
	version := r.botVersion(seat)
	job := botpool.Job{Game: r.info.ID, Level: level, Bot: bot, State: r.state.Clone(), Seat: seat,
		Seed: r.seed ^ uint64(r.moves)*0x9e3779b97f4a7c15 ^ uint64(seat), Timeout: r.botTimeout(seat),
		Done: func(res botpool.Result) {
			r.post(func() { r.botMoved(seat, version, res) })
		}}
	switch err := r.m.cfg.Pool.TrySubmit(job); err {
	case nil:
	case botpool.ErrBusy:
		r.later(20*time.Millisecond, func() { r.submitBot(seat) })
	default:
		r.botPending[seat] = false
	}
}

func (r *Room) botMoved(seat int, version int64, res botpool.Result) {
	r.botPending[seat] = false
	if r.status != StatusPlaying || version != r.botVersion(seat) {
		r.scheduleBots() // stale: the position changed meanwhile
		return
	}
	if res.Err != nil {
		r.log.Warn("bot has no move", zap.String("room", r.id), zap.Int("seat", seat), zap.Error(res.Err))
		return
	}
	if perr := r.play(seat, res.Move, "bot"); perr != nil {
		r.log.Error("bot move refused", zap.String("room", r.id), zap.Int("seat", seat),
			zap.String("move", res.Move), zap.String("code", string(perr.Code)), zap.String("error", perr.Msg))
		if perr.Code == protocol.CodeInternal {
			r.later(100*time.Millisecond, r.scheduleBots)
			return
		}
		if legal := r.state.Legal(seat); len(legal) > 0 {
			r.play(seat, legal[int(r.seed%uint64(len(legal)))], "bot")
		}
	}
}

// logEntry is one entry of the room's log in the store. Prev is the seq of
// the entry before it in the room's history: a save that failed without a
// definite answer may still land, after the room rolled the change back,
// and leave an entry that no later entry names. Readers of the log walk
// back from the snapshot's seq through prev (docs/persistence.md).
type logEntry struct {
	Seq    int64     `json:"seq"`
	Prev   int64     `json:"prev"`
	Kind   string    `json:"kind"`
	Seat   *int      `json:"seat,omitempty"`
	Move   string    `json:"move,omitempty"`
	By     string    `json:"by,omitempty"`
	Player string    `json:"player,omitempty"`
	At     time.Time `json:"at"`
}

// saved records that the save under way is in the store.
func (r *Room) saved() {
	r.savedSeq = r.seq
	r.savedEngine = r.engineSnap
}

// revert takes back a change to the engine state that was not saved: to
// the clone taken before it when there is one, else to the state of the
// last save, restored from its snapshot (a move no longer clones the state
// on the chance that its save fails: the clone was a tenth of the bytes a
// 19x19 go room allocated per move).
func (r *Room) revert() {
	if r.prev != nil {
		r.state, r.prev = r.prev, nil
		return
	}
	st, err := r.game.Restore(r.savedEngine)
	if err != nil {
		// The engine restored what it wrote at every save until now
		// (enginetest checks the round trip); if it cannot, the room is
		// not trusted to go on.
		r.log.Error("cannot revert to the last save; closing the room", zap.String("room", r.id), zap.Error(err))
		r.broken = true
		return
	}
	r.state = st
}

// save writes the room's snapshot and the log entry in one store call.
func (r *Room) save(ctx context.Context, e logEntry) error {
	if r.m.cfg.Store == nil {
		return nil
	}
	now := time.Now().UTC()
	e.Seq, e.Prev = r.seq, r.savedSeq
	if e.At.IsZero() {
		e.At = now
	}
	snap, err := r.snapshot(now)
	if err != nil {
		return err
	}
	entry, err := e.marshal()
	if err != nil {
		return err
	}
	var players []string
	for _, s := range r.seats {
		if s.PlayerID != "" && s.Bot == "" {
			players = append(players, s.PlayerID)
		}
	}
	saveCtx, cancel := context.WithTimeout(ctx, r.m.cfg.SaveTimeout)
	defer cancel()
	err = r.m.cfg.Store.SaveRoom(saveCtx, store.Room{
		ID: r.id, Seq: r.seq, Snapshot: snap, Append: [][]byte{entry}, Players: players,
		Live: !r.private && r.status != StatusFinished, Finished: r.status == StatusFinished, UpdatedAt: now,
		Epoch: r.epoch,
	})
	if err == nil {
		r.saved()
		return nil
	}
	if errors.Is(err, store.ErrFenced) {
		r.lostLease("save")
		return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
	}
	// A save that timed out may still have been applied by the store. Ask
	// the store: if our snapshot is there, the change is saved after all.
	loadCtx, cancelLoad := context.WithTimeout(ctx, r.m.cfg.SaveTimeout)
	defer cancelLoad()
	got, lerr := r.m.cfg.Store.LoadRoom(loadCtx, r.id)
	switch {
	case lerr == nil && got.Seq == r.seq && bytes.Equal(got.Snapshot, snap):
		r.log.Warn("save reported an error but landed", zap.String("room", r.id), zap.Int64("seq", r.seq), zap.Error(err))
		r.saved()
		return nil
	case lerr != nil && !errors.Is(lerr, store.ErrNotFound):
		// No definite answer: the write may still land. The caller rolls
		// back, which changes nothing visible, and the seq is burnt so a
		// late write is ordered before the next save (see nextSeq).
		r.seqFloor = r.seq
	}
	return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
}
