// Package rooms runs the game rooms: one goroutine per room, the only owner
// of its engine state, seats, spectators and move log. Everything else talks
// to a room by sending it a command; the room answers its members through
// their non-blocking Send.
//
// A move is accepted in the order validate, apply, persist, broadcast; when
// the save fails the engine is rolled back and nothing is broadcast.
package rooms

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/metrics"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// Member is one connection that receives a room's messages.
type Member interface {
	// ConnID identifies the connection (a player may have several).
	ConnID() uint64
	// PlayerID is the player behind the connection.
	PlayerID() string
	// PlayerName is the player's display name.
	PlayerName() string
	// Send queues a frame without blocking; false when the connection is
	// gone or too slow (it is then dropped by its owner).
	Send(f *protocol.Frame) bool
	// Joined records that the connection is now a member of room r, so it
	// can tell the room when it closes. It returns false when the
	// connection is already closed.
	Joined(r *Room) bool
	// Left records that the connection is no longer a member of room r.
	Left(r *Room)
}

// Config configures a Manager.
type Config struct {
	Catalog *engine.Catalog
	Store   store.Store
	Pool    *botpool.Pool
	Log     *zap.Logger
	Metrics *metrics.Metrics
	// BotTimeout bounds a bot turn (default 2 s).
	BotTimeout time.Duration
	// WatchDelay is the pause before each bot move in rooms where only
	// bots play, so that people can follow the game (default 0).
	WatchDelay time.Duration

	// The room goroutine's blocking calls each have their own deadline,
	// so that a hung store holds a room (and only that room) for a known
	// time; the lease's calls have theirs in Cluster (RenewTimeout,
	// ReleaseTimeout). The goroutine waits on nothing else: members' Send,
	// OnChange and OnFenced must not block, and bot answers come through
	// a mailbox.

	// SaveTimeout bounds one save, the store call that writes a change
	// (default DefaultSaveTimeout).
	SaveTimeout time.Duration
	// SaveCheckTimeout bounds the LoadRoom that follows a failed save to
	// ask whether it landed after all (default DefaultSaveCheckTimeout).
	SaveCheckTimeout time.Duration
	// RematchTimeout bounds the Create of a rematch's room, run by the old
	// room's goroutine: the new room's lease, its first save and that
	// save's check (default SaveTimeout plus SaveCheckTimeout).
	RematchTimeout time.Duration

	// OnChange is called (from room goroutines) when the lobby view may
	// have changed. It must not block.
	OnChange func()
	// OnGame are the listeners told (on room goroutines, in order) when a
	// room's game starts and when it ends, with its result (GameEvent,
	// gamehook.go). They must not block: one queues what it does.
	OnGame []func(GameEvent)
	// Now is the time for clocks and abandonment (default time.Now); tests
	// inject their own.
	Now func() time.Time
	// AdjournAfter is how long every player of a playing game must have
	// been gone before the lobby shows the game adjourned instead of
	// among its live games (default DefaultAdjournAfter).
	AdjournAfter time.Duration
	// Grace is how long a human seat must have been disconnected before
	// its opponent may claim the win (default 60 s). Under a clock it is
	// at least a tenth of the base time.
	Grace time.Duration
	// AdjournFactor: a playing room without a clock that nobody has been
	// in for Grace times AdjournFactor stops its goroutine; its snapshot
	// stays in the store and it comes back when asked for (default 10).
	AdjournFactor int
	// AbortAfter is how long each seat of a game with a clock has for
	// its first move, which its clock does not time: a seat that has not
	// made it by then aborts the game (default DefaultAbortAfter).
	AbortAfter time.Duration
	// Cluster, when not nil, runs each room under a lease so that several
	// nodes share one store (see Cluster); nil is a single node.
	Cluster *Cluster
	// Chat bounds every room's chat (zero fields: DefaultChatLimits).
	Chat ChatLimits
	// MaxPlayerRooms is how many unfinished rooms one player (a person or
	// a bot account) may hold, all nodes together (default
	// DefaultMaxPlayerRooms): Create refuses a room that would give one of
	// its players one more (playerrooms.go).
	MaxPlayerRooms int
	// RecordTimeout bounds a write of a record outside a save (archive.go;
	// default DefaultRecordTimeout): the saves of a finished room write its
	// record into Store.Records themselves.
	RecordTimeout time.Duration
}

// Manager is the room registry: id -> room, and the summaries the lobby
// shows. It owns no game state.
type Manager struct {
	cfg   Config
	log   *zap.Logger
	mu    sync.Mutex // taken alone; never held across a store call
	rooms map[string]*Room
	// sums are the running rooms' summaries, the private ones (Private
	// set) included: the lobby lists those only to their own players.
	sums map[string]protocol.RoomSummary
	// making holds, per player, the ids of the rooms being made or joined
	// for the player now (reserve), which the store does not list yet.
	making map[string]map[string]int
	closed bool
	wg     sync.WaitGroup
	stop   chan struct{}
}

// Defaults of Config.
const (
	DefaultGrace         = 60 * time.Second
	DefaultAdjournFactor = 10
	// DefaultAbortAfter is lichess's time for a first move in a rapid
	// game (it gives 15 to 35 s by the speed of the game): our games are
	// short, but a first move may need the reading of a position set up
	// by a teacher, and a game that is aborted costs nobody anything.
	DefaultAbortAfter = 30 * time.Second
	// DefaultAdjournAfter: a game whose players all left leaves the
	// lobby's live games within a minute (issue 29), while a player who
	// reloads the page, or whose network drops for a few seconds, does
	// not make it flicker out.
	DefaultAdjournAfter = 30 * time.Second
	// DefaultSaveTimeout is a save's deadline: a store that has not
	// answered by then is taken as down (the move is refused with
	// internal, and rolled back).
	DefaultSaveTimeout = 5 * time.Second
	// DefaultSaveCheckTimeout is the deadline of the check after a failed
	// save; without an answer by then the save's seq is burnt (see
	// Room.nextSeq).
	DefaultSaveCheckTimeout = 5 * time.Second
)

// ErrShutdown is returned when the manager is shutting down.
var ErrShutdown = errors.New("rooms: shutting down")

// NewManager returns an empty registry.
func NewManager(cfg Config) *Manager {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.BotTimeout <= 0 {
		cfg.BotTimeout = 2 * time.Second
	}
	if cfg.SaveTimeout <= 0 {
		cfg.SaveTimeout = DefaultSaveTimeout
	}
	if cfg.SaveCheckTimeout <= 0 {
		cfg.SaveCheckTimeout = DefaultSaveCheckTimeout
	}
	if cfg.MaxPlayerRooms <= 0 {
		cfg.MaxPlayerRooms = DefaultMaxPlayerRooms
	}
	if cfg.RecordTimeout <= 0 {
		cfg.RecordTimeout = DefaultRecordTimeout
	}
	if cfg.RematchTimeout <= 0 {
		cfg.RematchTimeout = cfg.SaveTimeout + cfg.SaveCheckTimeout
	}
	if cfg.OnChange == nil {
		cfg.OnChange = func() {}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Chat = cfg.Chat.withDefaults()
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.AdjournFactor <= 0 {
		cfg.AdjournFactor = DefaultAdjournFactor
	}
	if cfg.AbortAfter <= 0 {
		cfg.AbortAfter = DefaultAbortAfter
	}
	if cfg.AdjournAfter <= 0 {
		cfg.AdjournAfter = DefaultAdjournAfter
	}
	if c := cfg.Cluster; c != nil {
		cc := *c
		if cc.TTL <= 0 {
			cc.TTL = DefaultLeaseTTL
		}
		if cc.RenewTimeout <= 0 {
			cc.RenewTimeout = cc.TTL / 3
		}
		if cc.ReleaseTimeout <= 0 {
			cc.ReleaseTimeout = cfg.SaveTimeout
		}
		if cc.OnFenced == nil {
			cc.OnFenced = func(string, []JoinAs) {}
		}
		cfg.Cluster = &cc
	}
	return &Manager{cfg: cfg, log: cfg.Log, rooms: map[string]*Room{},
		sums: map[string]protocol.RoomSummary{}, making: map[string]map[string]int{}, stop: make(chan struct{})}
}

// Spec describes a new room.
type Spec struct {
	// ID is the room id; empty picks a new one.
	ID      string
	Game    string
	Variant string
	Setup   json.RawMessage
	// Seats has one entry per seat of the variant: a person or a bot
	// account (players.Of), the server's bot (players.ServerBot), or a
	// free seat (the zero Player).
	Seats   []players.Player
	Private bool
	// Watch marks a room where only bots play.
	Watch bool
	// Rated marks a rated game: every seat an account or a bot account,
	// in a variant with a rating pool (rated.go checks it).
	Rated bool
	// Accounts tells, for the seats' players the caller knows, whether
	// each is an account (true) or a guest (false), so that Create need
	// not ask the store (a hub's connection knows it); the others are
	// read from the store.
	Accounts map[string]bool
	// Clock is the time control of a two-player turn-based game; nil is
	// none.
	Clock *protocol.TimeControl
	// Options are the game's rule options (go: komi, handicap, stone
	// removal); the zero Options are the seed's rules.
	Options engine.Options
	// Seed feeds games with chance and the bots; 0 picks a random one.
	Seed uint64
	// Chat are chat lines the room starts with (a rematch: the old
	// room's), oldest first.
	Chat []protocol.ChatLine
	// Join are connections that join the room as it starts.
	Join []JoinAs
	// ReqID is echoed in the room.joined sent to Join[0].
	ReqID json.RawMessage
	// For is the player who asks for the room ("" for the server itself,
	// a tournament): a refusal by the cap on players' rooms speaks to them.
	For string
}

// JoinAs is a connection joining a room as it starts, as "player" or
// "spectator".
type JoinAs struct {
	M  Member
	As string
}

// Create validates spec (checkSpec), starts the room and returns it. The
// first state is saved before the room is announced. It is the one place
// that makes rooms for players: a room that would give one of its seated
// players (a person or a bot account) more than Config.MaxPlayerRooms
// unfinished rooms is refused (an error wrapping ErrTooManyRooms).
func (m *Manager) Create(ctx context.Context, spec Spec) (*Room, error) {
	g, perr := checkSpec(m.cfg.Catalog, spec)
	if perr != nil {
		return nil, perr
	}
	if spec.ID == "" {
		spec.ID = NewID() // before the reservation, which names it
	}
	seats, err := m.rateSeats(ctx, spec)
	if err != nil {
		return nil, err
	}
	spec.Seats = seats
	names := map[string]string{}
	for _, s := range spec.Seats {
		names[s.ID] = s.Name
	}
	release, err := m.reserve(ctx, spec.ID, spec.For, seated(spec.Seats), names)
	if err != nil {
		return nil, err
	}
	defer release() // the room is saved, so the store counts it, or refused
	seed := spec.Seed
	if seed == 0 {
		seed = randomSeed()
	}
	st, err := engine.NewWithOptions(g, spec.Variant, spec.Setup, seed, spec.Options)
	if err != nil {
		pe := protocol.AsError(err)
		if pe.Code == protocol.CodeInternal {
			pe = protocol.Errorf(protocol.CodeBadSetup, "bad setup: %v", err)
		}
		return nil, pe
	}
	if _, ok := st.Turn(); spec.Clock != nil && !ok && !st.Outcome().Over {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "in %s %s both seats move at once: no clock", spec.Game, spec.Variant)
	}
	setup, err := compactSetup(spec.Setup)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadSetup, "bad setup: %v", err)
	}
	now := time.Now().UTC()
	r := m.newRoom(g, st)
	r.id = spec.ID
	r.variant = spec.Variant
	r.opts = spec.Options
	r.seats = slices.Clone(spec.Seats)
	r.private = spec.Private
	r.watch = spec.Watch
	r.rated = spec.Rated
	r.seed = seed
	r.created, r.updated = now, now
	r.rec.setup = setup
	for _, l := range spec.Chat {
		r.rec.chat.add(l)
	}
	r.seatMoves = make([]int64, len(r.seats))
	if spec.Clock != nil {
		r.clock = newClock(spec.Clock, len(r.seats))
	}
	r.status = StatusWaiting
	if r.allSeated() {
		r.status = StatusPlaying
	}
	r.turnsBegin(r.now())
	if out := st.Outcome(); out.Over {
		r.finish(out)
	}
	r.startClock(r.now()) // against a bot the game starts now
	r.seq = 1
	if m.cfg.Cluster != nil {
		epoch, err := m.acquire(ctx, r.id)
		if err != nil {
			m.log.Warn("lease of a new room", zap.String("room", r.id), zap.Error(err))
			return nil, protocol.Errorf(protocol.CodeInternal, "could not create the room, try again")
		}
		r.epoch = epoch
	}
	if err := r.persist.commit(ctx, logEntry{Kind: "create", At: now}); err != nil {
		if r.epoch != 0 {
			m.release(r.id, r.epoch)
		}
		return nil, protocol.Errorf(protocol.CodeInternal, "could not save the room, try again")
	}
	if err := m.start(r, spec.Join, spec.ReqID); err != nil {
		if r.epoch != 0 {
			m.release(r.id, r.epoch)
		}
		return nil, err
	}
	m.log.Info("room created", zap.String("room", r.id), zap.String("game", spec.Game),
		zap.String("variant", spec.Variant), zap.Bool("private", spec.Private), zap.Bool("watch", spec.Watch))
	return r, nil
}

// Restore rebuilds a room from a snapshot and starts it.
func (m *Manager) Restore(snapshot []byte) (*Room, error) {
	return m.restore(store.Room{Snapshot: snapshot, Seq: -1}, 0, nil)
}

// restore rebuilds the room the store loaded (rebuild) and starts it, for
// the holder of the room's lease at epoch (0: none); the members in join
// are in the room before its goroutine runs anything else, so a room that
// finishes at once (a bot's pending answer) still has them. A saved.Seq of
// -1 restores the snapshot alone.
func (m *Manager) restore(saved store.Room, epoch int64, join []JoinAs) (*Room, error) {
	r, status, err := m.rebuild(saved)
	if err != nil {
		return nil, err
	}
	r.epoch = epoch
	id, seq := r.id, r.seq // r belongs to its goroutine once started
	if err := m.start(r, join, nil); err != nil {
		return nil, err
	}
	if status == StatusFinished {
		m.archiveRestored(id, saved.Snapshot)
	}
	m.log.Info("room restored", zap.String("room", id), zap.Int64("seq", seq))
	return r, nil
}

// rebuild makes a room, not started, from what the store loaded: its last
// snapshot and the moves saved after it, replayed (replayTail). It returns
// the snapshot's status too.
func (m *Manager) rebuild(saved store.Room) (*Room, string, error) {
	var s snapshotV1
	if err := json.Unmarshal(saved.Snapshot, &s); err != nil {
		return nil, "", err
	}
	g, ok := m.cfg.Catalog.Game(s.Game)
	if !ok {
		return nil, "", protocol.Errorf(protocol.CodeUnknownGame, "unknown game %q", s.Game)
	}
	st, err := g.Restore(s.Engine)
	if err != nil {
		return nil, "", err
	}
	r := m.newRoom(g, st)
	if err := r.fromSnapshot(s); err != nil {
		return nil, "", err
	}
	snapHistory := len(r.history)
	if saved.Seq >= 0 && saved.Seq != s.Seq {
		if err := r.replayTail(saved.Seq, saved.Tail); err != nil {
			return nil, "", err
		}
	}
	r.persist.load(r.seq, slices.Clone(s.Engine), snapHistory)
	return r, s.Status, nil
}

// SnapshotOf is the snapshot of the room as the store holds it: the one
// saved when no move followed it, else a new one with the moves saved
// since replayed (a record of a game under way, say). A finished room's
// last save always wrote its snapshot.
func (m *Manager) SnapshotOf(saved store.Room) ([]byte, error) {
	if saved.Seq == saved.SnapshotSeq {
		return saved.Snapshot, nil
	}
	r, _, err := m.rebuild(saved)
	if err != nil {
		return nil, fmt.Errorf("snapshot of room %s: %w", saved.ID, err)
	}
	return r.snapshot(r.updated)
}

func (m *Manager) newRoom(g engine.Game, st engine.State) *Room {
	r := &Room{
		m: m, log: m.log, game: g, info: g.Info(), state: st,
		members: map[uint64]*member{},
		offers:  offers{draw: -1},
		cmds:    make(chan func()),
		done:    make(chan struct{}),
		timers:  map[*time.Timer]struct{}{},
	}
	r.persist.r = r
	return r
}

func (m *Manager) start(r *Room, join []JoinAs, reqID json.RawMessage) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return protocol.Errorf(protocol.CodeInternal, "the server is shutting down")
	}
	if _, dup := m.rooms[r.id]; dup {
		m.mu.Unlock()
		return protocol.Errorf(protocol.CodeInternal, "room exists")
	}
	m.rooms[r.id] = r
	m.sums[r.id] = r.summary()
	m.wg.Add(1)
	m.mu.Unlock()
	m.gauge(r.info.ID, r.status, 1)
	if r.status == StatusPlaying || r.status == StatusFinished {
		r.noteGame() // before the goroutine: r is still ours (a finished game: told Again)
	} else {
		r.told = r.status
	}
	go r.run(join, reqID)
	m.cfg.OnChange()
	return nil
}

// Get returns a live room, bringing it back from the store when it is not
// running (after a restart, or after it closed for want of members).
func (m *Manager) Get(ctx context.Context, id string) (*Room, bool) {
	r, err := m.Lookup(ctx, id)
	return r, err == nil
}

// ErrUnknownRoom is returned by Lookup for a room that is neither running
// nor in the store.
var ErrUnknownRoom = errors.New("rooms: unknown room")

// Lookup is Get telling why there is no room: ErrUnknownRoom when there is
// none, another error when the store did not answer (the room may exist) or
// its snapshot could not be restored.
func (m *Manager) Lookup(ctx context.Context, id string) (*Room, error) {
	m.mu.Lock()
	r, ok := m.rooms[id]
	closed := m.closed
	m.mu.Unlock()
	switch {
	case ok:
		return r, nil
	case closed:
		return nil, ErrShutdown
	case m.cfg.Store == nil || id == "":
		return nil, ErrUnknownRoom
	}
	var epoch int64
	if m.cfg.Cluster != nil {
		// The lease first, then the snapshot: once the lease is ours,
		// the former owner can no longer save, so what we load is the
		// last word.
		if _, err := m.cfg.Store.LoadRoom(ctx, id); errors.Is(err, store.ErrNotFound) {
			return nil, ErrUnknownRoom // no lease for rooms that do not exist
		}
		var err error
		if epoch, err = m.acquire(ctx, id); err != nil {
			return nil, err
		}
	}
	saved, err := m.cfg.Store.LoadRoom(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrUnknownRoom
	}
	if err != nil {
		return nil, fmt.Errorf("load room %s: %w", id, err)
	}
	r, err = m.restore(saved, epoch, nil)
	if err != nil {
		m.mu.Lock()
		r, ok = m.rooms[id] // restored meanwhile by someone else
		m.mu.Unlock()
		if !ok {
			return nil, fmt.Errorf("restore room %s: %w", id, err)
		}
	}
	return r, nil
}

// Summaries lists the unfinished rooms running here, in no order; the
// private ones have Private set (the public lists leave them out).
func (m *Manager) Summaries() []protocol.RoomSummary {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]protocol.RoomSummary, 0, len(m.sums))
	for _, s := range m.sums {
		if s.Status != StatusFinished {
			out = append(out, s)
		}
	}
	return out
}

// Len is the number of running rooms.
func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.rooms)
}

// Shutdown stops every room: each finishes the command it is handling, its
// state is already saved, and its goroutine exits. It waits for them until
// ctx ends.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.stop)
	}
	m.mu.Unlock()
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m *Manager) setSummary(r *Room) {
	m.putSummary(r)
	m.summaryChanged(r)
}

// putSummary updates the room's line in the lobby's list (Summaries).
// A broadcast puts it before it publishes, so that what a member has seen
// the list agrees with (an aborted room is gone from /api/rooms once its
// players see it aborted).
func (m *Manager) putSummary(r *Room) {
	s := r.summary()
	m.mu.Lock()
	if _, ok := m.rooms[r.id]; ok {
		m.sums[r.id] = s
	}
	m.mu.Unlock()
}

// summaryChanged tells the bots' event streams of a game that started or
// ended (noteGame) and the lobby that its list changed.
func (m *Manager) summaryChanged(r *Room) {
	r.noteGame()
	m.cfg.OnChange()
}

func (m *Manager) remove(r *Room) {
	m.mu.Lock()
	if m.rooms[r.id] == r {
		delete(m.rooms, r.id)
		delete(m.sums, r.id)
	}
	m.mu.Unlock()
	m.gauge(r.info.ID, r.status, -1)
	m.cfg.OnChange()
}

func (m *Manager) gauge(game, status string, d float64) {
	if m.cfg.Metrics != nil {
		m.cfg.Metrics.Rooms.WithLabelValues(game, status).Add(d)
	}
}

// NewID returns a short random URL-safe room id (60 bits).
func NewID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	var b [10]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[b[i]&63]
	}
	return string(b[:])
}

func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	s := binary.LittleEndian.Uint64(b[:])
	if s == 0 {
		s = 1
	}
	return s
}
