package torneio

import (
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

// Statuses of a tournament and of its games.
const (
	StatusRunning  = "running"
	StatusFinished = "finished"
	GamePending    = "pending"
	GamePlaying    = "playing"
	GameFinished   = "finished"
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
}

// View is a tournament as GET /api/torneios/{id} shows it. A published View
// is never changed.
type View struct {
	ID        string                `json:"id"`
	Game      string                `json:"game"`
	Status    string                `json:"status"`
	Owner     string                `json:"owner"`
	Created   time.Time             `json:"created"`
	Finished  *time.Time            `json:"finished,omitempty"`
	Entrants  []Entrant             `json:"entrants"`
	Partidas  []Partida             `json:"partidas"`
	Clock     *protocol.TimeControl `json:"clock"`
	Standings []Standing            `json:"standings"`
	Games     []Game                `json:"games"`
}

// Summary is a tournament in GET /api/torneios and the lobby.
type Summary struct {
	ID       string    `json:"id"`
	Game     string    `json:"game"`
	Status   string    `json:"status"`
	Created  time.Time `json:"created"`
	Entrants int       `json:"entrants"`
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
// finished game has no winner.
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
	}
	return out
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
}

// Defaults of Config.
const (
	DefaultParallel = 4
	DefaultMaxLive  = 20
	// ListLimit bounds the tournaments GET /api/torneios lists.
	ListLimit = 50
)

// ErrBusy is returned by Start when MaxLive tournaments are running.
var ErrBusy = errors.New("too many tournaments are running; try again later")

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

// live is a running tournament: its goroutine's published view.
type live struct {
	mu   sync.Mutex // guards view only
	view *View
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
	return &Manager{cfg: cfg, ts: ts, log: cfg.Log, stop: make(chan struct{}), live: map[string]*live{}}, nil
}

// Start checks spec, saves the new tournament and starts it.
func (m *Manager) Start(ctx context.Context, owner string, spec Spec) (string, error) {
	if err := spec.Check(m.cfg.Catalog); err != nil {
		return "", err
	}
	if spec.Clock == nil {
		c := DefaultClock
		spec.Clock = &c
	}
	entrants := slices.Clone(spec.Entrants)
	for i := range entrants {
		entrants[i].Name = ""
	}
	m.name(ctx, entrants, nil)
	v := &View{ID: newID(), Game: spec.Game, Status: StatusRunning, Owner: owner, Created: time.Now().UTC().Truncate(time.Millisecond),
		Entrants: entrants, Partidas: spec.Partidas, Clock: spec.Clock, Games: spec.Schedule()}
	for i := range v.Games {
		v.Games[i].Status = GamePending
	}
	v.Standings = Standings(v.Entrants, v.Games)
	l, err := m.register(v)
	if err != nil {
		return "", err
	}
	if err := m.save(ctx, v); err != nil {
		m.unregister(v.ID)
		m.wg.Done()
		return "", err
	}
	go m.run(l, v)
	m.log.Info("torneio started", zap.String("torneio", v.ID), zap.String("game", v.Game), zap.Int("games", len(v.Games)))
	return v.ID, nil
}

func (m *Manager) register(v *View) (*live, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, rooms.ErrShutdown
	}
	if _, ok := m.live[v.ID]; ok {
		return nil, fmt.Errorf("torneio %s is already running", v.ID)
	}
	if len(m.live) >= m.cfg.MaxLive {
		return nil, ErrBusy
	}
	l := &live{view: v}
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
		v.Status = StatusRunning
		if slices.ContainsFunc(v.Entrants, func(e Entrant) bool { return e.Name == "" }) {
			m.name(ctx, v.Entrants, nil) // saved before entrants had names
			v.Standings = Standings(v.Entrants, v.Games)
		}
		l, err := m.register(&v)
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
	// for this answer.
	if slices.ContainsFunc(v.Entrants, func(e Entrant) bool { return e.Name == "" }) {
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
	s := Summary{ID: v.ID, Game: v.Game, Status: v.Status, Created: v.Created, Entrants: len(v.Entrants), Games: len(v.Games),
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
	if err := m.ts.SaveTorneio(ctx, store.Torneio{ID: v.ID, Data: data, Finished: v.Status == StatusFinished, Created: v.Created}); err != nil {
		return fmt.Errorf("save torneio %s: %w", v.ID, err)
	}
	return nil
}

func newID() string {
	var b [9]byte
	_, _ = rand.Read(b[:])
	return "t" + base64.RawURLEncoding.EncodeToString(b[:])
}
