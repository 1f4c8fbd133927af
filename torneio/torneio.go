package torneio

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// Statuses of a tournament and of its games. A tournament that invites
// people waits (StatusWaiting) until they all answered, its owner starts
// it, or its deadline; then it runs without the people who did not
// accept, or is cancelled when fewer than two entrants are left.
const (
	StatusWaiting   = "waiting"
	StatusRunning   = "running"
	StatusFinished  = "finished"
	StatusCancelled = "cancelled"
	GamePending     = "pending"
	GamePlaying     = "playing"
	GameFinished    = "finished"
)

// Answers to a tournament's invitation (Manager.Answer).
const (
	AnswerAccept  = "accept"
	AnswerDecline = "decline"
	// AnswerStart is the owner's: start now, without the people who have
	// not accepted yet.
	AnswerStart = "start"
	// startKey is who the store keeps the owner's AnswerStart under (a
	// player id holds no ':'), apart from the owner's own invitation.
	startKey = ":start"
)

// Game is one game of a tournament.
type Game struct {
	Index   int    `json:"index"`
	Variant string `json:"variant"`
	// Entrants are the entrants' indexes in seat order: Entrants[0] moves
	// first.
	Entrants [2]int `json:"entrants"`
	// Room is the game's room, "" before it starts.
	Room   string `json:"room,omitempty"`
	Status string `json:"status"`
	// Winner is the winning seat (0 or 1), nil for a draw or a game not
	// over; Reason is the room's result reason.
	Winner *int   `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Standing is one entrant's results so far.
type Standing struct {
	Entrant
	Played int `json:"played"`
	Won    int `json:"won"`
	Drawn  int `json:"drawn"`
	Lost   int `json:"lost"`
	// Share is the percentage of its games it won, to one decimal, as the
	// seed's torneio prints it (0 before its first game).
	Share float64 `json:"share"`
	// Points are a win 1 and a draw ½: the tie-break of equal shares.
	Points float64 `json:"points"`
	// Rank is the entrant's place, from 1 (see Standings); entrants equal
	// on both share and points share it.
	Rank int `json:"rank"`
}

// View is a tournament as GET /api/torneios/{id} shows it. A published View
// is never changed.
type View struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Status  string    `json:"status"`
	Owner   string    `json:"owner"`
	Created time.Time `json:"created"`
	// Deadline is when a tournament that invites people starts at the
	// latest, without those who did not accept (absent when it invited
	// nobody).
	Deadline *time.Time `json:"deadline,omitempty"`
	// Started is when its games were scheduled.
	Started  *time.Time `json:"started,omitempty"`
	Finished *time.Time `json:"finished,omitempty"`
	// Entrants are the tournament's players: while it waits, everyone
	// entered, each person with its Invite; from the start, the ones
	// playing.
	Entrants []Entrant `json:"entrants"`
	// Withdrawn are the people left out at the start: who declined, and
	// who had not answered (InviteExpired).
	Withdrawn []Entrant             `json:"withdrawn,omitempty"`
	Partidas  []Partida             `json:"partidas"`
	Clock     *protocol.TimeControl `json:"clock"`
	// Rated: its games between accounts and bot accounts are rated.
	Rated     bool       `json:"rated,omitempty"`
	Standings []Standing `json:"standings"`
	Games     []Game     `json:"games"`
}

// Summary is a tournament in GET /api/torneios and the lobby.
type Summary struct {
	ID       string     `json:"id"`
	Game     string     `json:"game"`
	Status   string     `json:"status"`
	Created  time.Time  `json:"created"`
	Deadline *time.Time `json:"deadline,omitempty"`
	Entrants int        `json:"entrants"`
	// Names are the entrants' names (Entrant.Name), in entrant order;
	// Lineup the entrants themselves, so that a page names a level in its
	// own words.
	Names  []string  `json:"names"`
	Lineup []Entrant `json:"lineup"`
	Games  int       `json:"games"`
	Played int       `json:"played"`
}

// Standings computes the standings from the games' results: a win for the
// winning seat's entrant, a loss for the other, a draw for both when a
// finished game has no winner. They are ranked as the seed ranks them, by
// share (the percentage of games won); equal shares by points (a win 1, a
// draw ½) as a share of the games played; entrants equal on both share a
// rank ("1, 2, 2, 4"). The order stays the entrants'.
func Standings(entrants []Entrant, games []Game) []Standing {
	out := make([]Standing, len(entrants))
	for i, e := range entrants {
		out[i].Entrant = e
	}
	for _, g := range games {
		if g.Status != GameFinished {
			continue
		}
		a, b := &out[g.Entrants[0]], &out[g.Entrants[1]]
		a.Played++
		b.Played++
		switch {
		case g.Winner == nil:
			a.Drawn++
			b.Drawn++
		case *g.Winner == 0:
			a.Won++
			b.Lost++
		default:
			b.Won++
			a.Lost++
		}
	}
	for i := range out {
		if out[i].Played > 0 {
			out[i].Share = math.Round(1000*float64(out[i].Won)/float64(out[i].Played)) / 10
		}
		out[i].Points = float64(out[i].Won) + float64(out[i].Drawn)/2
	}
	rank(out)
	return out
}

// rank sets the standings' Rank (see Standings).
func rank(st []Standing) {
	order := make([]int, len(st))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return ahead(st[a], st[b]) })
	for k, i := range order {
		if k > 0 && ahead(st[order[k-1]], st[i]) == 0 {
			st[i].Rank = st[order[k-1]].Rank
		} else {
			st[i].Rank = k + 1
		}
	}
}

// ahead compares two standings as the ranking does: negative when a ranks
// above b. The shares are compared as exact fractions, not as the rounded
// percentages.
func ahead(a, b Standing) int {
	if c := cmpFrac(b.Won, b.Played, a.Won, a.Played); c != 0 {
		return c
	}
	return cmpFrac(2*b.Won+b.Drawn, b.Played, 2*a.Won+a.Drawn, a.Played)
}

// cmpFrac compares x/y with u/v, a fraction over 0 counting as 0.
func cmpFrac(x, y, u, v int) int {
	if y == 0 {
		x, y = 0, 1
	}
	if v == 0 {
		u, v = 0, 1
	}
	return cmp.Compare(x*v, u*y)
}

// Config configures a Manager.
type Config struct {
	Rooms   *rooms.Manager
	Store   store.Store
	Catalog *engine.Catalog
	Log     *zap.Logger
	// Parallel bounds the games of one tournament played at once
	// (default DefaultParallel).
	Parallel int
	// MaxLive bounds the tournaments running at once (default
	// DefaultMaxLive); past it Start answers ErrBusy.
	MaxLive int
	// Poll is how often a running game's room is read (default 500 ms).
	Poll time.Duration
	// Names, when set, returns the display names of the player ids it is
	// given (persons and bot accounts; at most MaxEntrants at once, one
	// bounded lookup), leaving out the ones it does not know. The entrants'
	// names are looked up when the tournament starts and again for the
	// entrants of each game as it starts, so their rooms show them.
	Names func(ctx context.Context, ids []string) map[string]string
	// Now is the clock of the invitations' deadlines and the
	// timestamps (default time.Now).
	Now func() time.Time
}

// Defaults of Config.
const (
	DefaultParallel = 4
	DefaultMaxLive  = 20
	// MaxLivePerOwner bounds the tournaments one owner has waiting or
	// running at once; past it Start answers ErrOwnerBusy.
	MaxLivePerOwner = 2
	// ListLimit bounds the tournaments GET /api/torneios lists.
	ListLimit = 50
)

// ErrBusy is returned by Start when MaxLive tournaments are running.
var ErrBusy = errors.New("too many tournaments are running; try again later")

// ErrOwnerBusy is returned by Start when the owner has MaxLivePerOwner
// tournaments waiting or running.
var ErrOwnerBusy = fmt.Errorf("you have %d tournaments waiting or running already, the most one player may have at once; wait for one to finish", MaxLivePerOwner)

// Errors of Answer.
var (
	// ErrNotWaiting: the tournament has started (or is starting), so
	// its invitations are closed.
	ErrNotWaiting = errors.New("this torneio has started: its invitations are closed")
	// ErrNotInvited: the player is not invited to the tournament.
	ErrNotInvited = errors.New("you are not invited to this torneio")
	// ErrNotOwner: only the owner may start the tournament early.
	ErrNotOwner = errors.New("only the torneio's creator may start it")
)

// ErrNoStore is returned by New when the store cannot keep tournaments.
var ErrNoStore = errors.New("torneio: the store does not implement store.Torneios")

// Manager runs tournaments. Its mutex guards only the registry of live
// tournaments (id -> *live) and is never held while calling out. Lock
// order: Manager.mu, then live.mu; the code never holds both.
type Manager struct {
	cfg  Config
	ts   store.Torneios
	log  *zap.Logger
	stop chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	live   map[string]*live
	closed bool
}

// live is a waiting or running tournament: its goroutine's published
// view, its owner and a wake-up for an answer to its invitations.
type live struct {
	owner string        // never changes
	wake  chan struct{} // capacity 1: an answer was stored
	mu    sync.Mutex    // guards view only
	view  *View
}

func (l *live) get() *View {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.view
}

// New returns a Manager; cfg.Store must implement store.Torneios.
func New(cfg Config) (*Manager, error) {
	ts, ok := cfg.Store.(store.Torneios)
	if !ok {
		return nil, ErrNoStore
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = DefaultParallel
	}
	if cfg.MaxLive <= 0 {
		cfg.MaxLive = DefaultMaxLive
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Manager{cfg: cfg, ts: ts, log: cfg.Log, stop: make(chan struct{}), live: map[string]*live{}}, nil
}

// Start checks spec, saves the new tournament and starts it. The people
// it enters are invited (the owner entering itself has accepted): the
// tournament then waits for their answers (Answer) until spec.Wait has
// passed. The entrants' consent is the caller's to check.
func (m *Manager) Start(ctx context.Context, owner string, spec Spec) (string, error) {
	if err := spec.Check(m.cfg.Catalog); err != nil {
		return "", err
	}
	if spec.Clock == nil {
		c := DefaultClock
		spec.Clock = &c
	}
	if spec.Wait == 0 {
		spec.Wait = DefaultWait
	}
	now := m.now()
	entrants := slices.Clone(spec.Entrants)
	invited := false
	for i := range entrants {
		e := &entrants[i]
		e.Name, e.Invite = "", ""
		switch {
		case e.Player == owner:
			e.Invite = InviteAccepted
		case e.Player != "":
			e.Invite, invited = InvitePending, true
		}
	}
	m.name(ctx, entrants, nil)
	v := &View{ID: newID(), Game: spec.Game, Status: StatusWaiting, Owner: owner, Created: now,
		Entrants: entrants, Partidas: spec.Partidas, Clock: spec.Clock, Rated: spec.Rated, Games: []Game{}}
	if invited {
		d := now.Add(time.Duration(spec.Wait) * time.Second)
		v.Deadline = &d
		v.Standings = Standings(v.Entrants, v.Games)
	} else {
		begin(v, now)
	}
	l, err := m.register(v, true)
	if err != nil {
		return "", err
	}
	if err := m.save(ctx, v); err != nil {
		m.unregister(v.ID)
		m.wg.Done()
		return "", err
	}
	go m.run(l, v)
	m.log.Info("torneio started", zap.String("torneio", v.ID), zap.String("game", v.Game), zap.String("status", v.Status), zap.Int("games", len(v.Games)))
	return v.ID, nil
}

// begin starts v's games: the people who did not accept are withdrawn
// (InviteExpired when they never answered), the games are scheduled for
// the others; with fewer than two left, v is cancelled.
func begin(v *View, now time.Time) {
	var kept []Entrant
	for _, e := range v.Entrants {
		switch e.Invite {
		case "", InviteAccepted:
			kept = append(kept, e)
		case InvitePending:
			e.Invite = InviteExpired
			v.Withdrawn = append(v.Withdrawn, e)
		default:
			v.Withdrawn = append(v.Withdrawn, e)
		}
	}
	v.Entrants = kept
	v.Started = &now
	v.Games = []Game{}
	if len(kept) < 2 {
		v.Status, v.Finished = StatusCancelled, &now
	} else {
		v.Status = StatusRunning
		v.Games = (&Spec{Entrants: kept, Partidas: v.Partidas}).Schedule()
		for i := range v.Games {
			v.Games[i].Status = GamePending
		}
	}
	v.Standings = Standings(v.Entrants, v.Games)
}

// Answer records who's answer to the invitations of waiting tournament id:
// AnswerAccept or AnswerDecline from an invited person (an answer may be
// changed until the start), AnswerStart from its owner. The tournament's
// goroutine (on whichever node runs it) reads it from the store.
func (m *Manager) Answer(ctx context.Context, id, who, answer string) error {
	v, err := m.Get(ctx, id)
	if err != nil {
		return err
	}
	if v.Status != StatusWaiting || v.Deadline == nil || !m.now().Before(*v.Deadline) {
		return ErrNotWaiting
	}
	key := who
	switch answer {
	case AnswerAccept, AnswerDecline:
		if !slices.ContainsFunc(v.Entrants, func(e Entrant) bool { return e.Player == who && e.Invite != "" }) {
			return ErrNotInvited
		}
	case AnswerStart:
		if who != v.Owner {
			return ErrNotOwner
		}
		key = startKey
	default:
		return fmt.Errorf("unknown answer %q", answer)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := m.ts.AnswerTorneio(ctx, id, key, answer); err != nil {
		return fmt.Errorf("answer torneio %s: %w", id, err)
	}
	m.mu.Lock()
	l := m.live[id]
	m.mu.Unlock()
	if l != nil {
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// register adds v to the live tournaments, under MaxLive and, for a new
// one (perOwner), MaxLivePerOwner.
func (m *Manager) register(v *View, perOwner bool) (*live, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, rooms.ErrShutdown
	}
	if _, ok := m.live[v.ID]; ok {
		return nil, fmt.Errorf("torneio %s is already running", v.ID)
	}
	if perOwner {
		n := 0
		for _, l := range m.live {
			if l.owner == v.Owner {
				n++
			}
		}
		if n >= MaxLivePerOwner {
			return nil, ErrOwnerBusy
		}
	}
	if len(m.live) >= m.cfg.MaxLive {
		return nil, ErrBusy
	}
	l := &live{owner: v.Owner, wake: make(chan struct{}, 1), view: v}
	m.live[v.ID] = l
	m.wg.Add(1) // under mu, so never after Shutdown's Wait began
	return l, nil
}

func (m *Manager) unregister(id string) {
	m.mu.Lock()
	delete(m.live, id)
	m.mu.Unlock()
}

// Resume takes up the unfinished tournaments of the store (after a
// restart). It returns how many it started.
func (m *Manager) Resume(ctx context.Context) (int, error) {
	ids, err := m.ts.TorneioIDs(ctx, store.MaxTorneios)
	if err != nil {
		return 0, fmt.Errorf("resume torneios: %w", err)
	}
	n := 0
	for _, id := range ids {
		t, err := m.ts.LoadTorneio(ctx, id)
		if err != nil || t.Finished {
			continue
		}
		var v View
		if err := json.Unmarshal(t.Data, &v); err != nil {
			m.log.Error("torneio unreadable", zap.String("torneio", id), zap.Error(err))
			continue
		}
		if v.Status != StatusWaiting {
			v.Status = StatusRunning
		}
		if slices.ContainsFunc(v.Entrants, func(e Entrant) bool { return e.Name == "" }) {
			m.name(ctx, v.Entrants, nil) // saved before entrants had names
			v.Standings = Standings(v.Entrants, v.Games)
		}
		l, err := m.register(&v, false)
		if err != nil {
			continue
		}
		go m.run(l, &v)
		n++
	}
	return n, nil
}

// Get returns the tournament: the live view, or its last save.
func (m *Manager) Get(ctx context.Context, id string) (*View, error) {
	m.mu.Lock()
	l, ok := m.live[id]
	m.mu.Unlock()
	if ok {
		return l.get(), nil
	}
	t, err := m.ts.LoadTorneio(ctx, id)
	if err != nil {
		return nil, err
	}
	var v View
	if err := json.Unmarshal(t.Data, &v); err != nil {
		return nil, fmt.Errorf("torneio %s: %w", id, err)
	}
	// A tournament saved before entrants had names: look them up once
	// for this answer. One saved before ranks: rank it.
	if slices.ContainsFunc(v.Entrants, func(e Entrant) bool { return e.Name == "" }) || slices.ContainsFunc(v.Standings, func(s Standing) bool { return s.Rank == 0 }) {
		m.name(ctx, v.Entrants, nil)
		v.Standings = Standings(v.Entrants, v.Games)
	}
	return &v, nil
}

// name fills the names of entrants (of the indexes in which, or of all when
// which is nil) from Config.Names in one lookup; an entrant it does not
// know keeps the name it has, else gets its Label; a level is "bot <level>".
// It reports whether a name changed.
func (m *Manager) name(ctx context.Context, entrants []Entrant, which []int) bool {
	if which == nil {
		which = make([]int, len(entrants))
		for i := range which {
			which[i] = i
		}
	}
	var ids []string
	for _, i := range which {
		if id := entrants[i].PlayerID(); id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var names map[string]string
	if len(ids) > 0 && m.cfg.Names != nil {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		names = m.cfg.Names(ctx, ids)
		cancel()
	}
	changed := false
	for _, i := range which {
		e := &entrants[i]
		n, ok := names[e.PlayerID()]
		switch {
		case e.Level != "":
			n = "bot " + e.Level // as the SGF names a nameless bot
		case ok && n != "":
		case e.Name != "":
			n = e.Name
		default:
			n = e.Label()
		}
		if e.Name != n {
			e.Name, changed = n, true
		}
	}
	return changed
}

// List returns the live tournaments, then the most recent others, at most
// ListLimit in all.
func (m *Manager) List(ctx context.Context) ([]Summary, error) {
	var out []Summary
	seen := map[string]bool{}
	m.mu.Lock()
	var lives []*live
	for _, l := range m.live {
		lives = append(lives, l)
	}
	m.mu.Unlock()
	for _, l := range lives {
		v := l.get()
		out = append(out, summary(v))
		seen[v.ID] = true
	}
	slices.SortFunc(out, func(a, b Summary) int { return b.Created.Compare(a.Created) })
	ids, err := m.ts.TorneioIDs(ctx, ListLimit)
	if err != nil {
		return out, err
	}
	for _, id := range ids {
		if len(out) >= ListLimit {
			break
		}
		if seen[id] {
			continue
		}
		v, err := m.Get(ctx, id)
		if err != nil {
			continue
		}
		out = append(out, summary(v))
	}
	return out, nil
}

func summary(v *View) Summary {
	s := Summary{ID: v.ID, Game: v.Game, Status: v.Status, Created: v.Created, Deadline: v.Deadline, Entrants: len(v.Entrants), Games: len(v.Games),
		Names: make([]string, len(v.Entrants)), Lineup: slices.Clone(v.Entrants)}
	for i, e := range v.Entrants {
		s.Names[i] = e.Name
		if s.Names[i] == "" { // a live view named before the start
			s.Names[i] = e.Label()
		}
	}
	for _, g := range v.Games {
		if g.Status == GameFinished {
			s.Played++
		}
	}
	return s
}

// Shutdown stops every tournament's goroutine; their state is saved after
// every change, so Resume takes them up again.
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

func (m *Manager) save(ctx context.Context, v *View) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode torneio %s: %w", v.ID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	over := v.Status == StatusFinished || v.Status == StatusCancelled
	if err := m.ts.SaveTorneio(ctx, store.Torneio{ID: v.ID, Data: data, Finished: over, Created: v.Created}); err != nil {
		return fmt.Errorf("save torneio %s: %w", v.ID, err)
	}
	return nil
}

// now is the Manager's clock, to the millisecond the saves keep.
func (m *Manager) now() time.Time { return m.cfg.Now().UTC().Truncate(time.Millisecond) }

func newID() string {
	var b [9]byte
	_, _ = rand.Read(b[:])
	return "t" + base64.RawURLEncoding.EncodeToString(b[:])
}
