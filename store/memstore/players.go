package memstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
)

var _ players.Store = (*Store)(nil)

// identities is the player part of the store (players.Store), guarded by
// Store.mu. Everything that expires is dropped when read after its time
// and swept now and then (sweep).
type identities struct {
	byID    map[string]*ident // player id -> identity
	byToken map[string]string // token hash -> player id
	names   map[string]*name  // players.NameKey -> account or held name
	// skeletons holds the players.Skeletons of the accounts' names and
	// of the names held, as names does.
	skeletons map[string]*name
	sessions  map[string]*players.Session // session hash -> session
	// bySession indexes the sessions of each player.
	bySession map[string]map[string]struct{}
	failures  map[string]*failure             // key -> failed sign-ins
	devices   map[string]map[string]time.Time // player -> device hash -> added
	deviceTTL map[string]time.Duration        // player -> its devices' ttl
	bots      map[string]*botList             // owner id -> bot accounts
}

// ident is an identity and when it expires unless renewed; zero lasts.
type ident struct {
	p       players.Identity
	expires time.Time
	// retired is a guest's token hash retired when it became an account.
	retired string
	// open is a bot account's setting "open to tournaments", kept with
	// its identity.
	open bool
	// moved: the guest's token was moved into a session cookie
	// (MoveToSession).
	moved bool
}

// name is an account's name, or a closed account's held until until.
type name struct {
	id    string
	until time.Time
}

// failure is a count of failed sign-ins in a window ending at until.
type failure struct {
	n     int64
	until time.Time
}

// botList is a player's bot accounts; it expires with the guest TTL after
// its last change, or lasts (zero).
type botList struct {
	bots    []players.Bot
	expires time.Time
}

func newIdentities() identities {
	return identities{byID: map[string]*ident{}, byToken: map[string]string{}, names: map[string]*name{}, skeletons: map[string]*name{},
		sessions: map[string]*players.Session{}, bySession: map[string]map[string]struct{}{},
		failures: map[string]*failure{}, devices: map[string]map[string]time.Time{},
		deviceTTL: map[string]time.Duration{}, bots: map[string]*botList{}}
}

// live reports whether something expiring at until (zero: never) is there
// at now.
func live(until, now time.Time) bool { return until.IsZero() || now.Before(until) }

// sweep drops what expired.
func (ids *identities) sweep(now time.Time) {
	for id, g := range ids.byID {
		if !live(g.expires, now) {
			ids.dropLocked(id)
		}
	}
	for k, n := range ids.names {
		if n.id == "" && !live(n.until, now) {
			delete(ids.names, k)
		}
	}
	for k, n := range ids.skeletons {
		if n.id == "" && !live(n.until, now) {
			delete(ids.skeletons, k)
		}
	}
	for h, se := range ids.sessions {
		if !now.Before(se.Expires) {
			ids.dropSession(h)
		}
	}
	for k, f := range ids.failures {
		if !now.Before(f.until) {
			delete(ids.failures, k)
		}
	}
	for p, ds := range ids.devices {
		for h, at := range ds {
			if !now.Before(at.Add(ids.deviceTTL[p])) {
				delete(ds, h)
			}
		}
		if len(ds) == 0 {
			delete(ids.devices, p)
			delete(ids.deviceTTL, p)
		}
	}
	for o, l := range ids.bots {
		if !live(l.expires, now) {
			delete(ids.bots, o)
		}
	}
}

// dropLocked forgets the identity id and its token.
func (ids *identities) dropLocked(id string) {
	g := ids.byID[id]
	if g == nil {
		return
	}
	delete(ids.byID, id)
	for _, h := range []string{g.p.TokenHash, g.retired} {
		if h != "" && ids.byToken[h] == id {
			delete(ids.byToken, h)
		}
	}
}

func (ids *identities) dropSession(hash string) {
	se := ids.sessions[hash]
	if se == nil {
		return
	}
	delete(ids.sessions, hash)
	if set := ids.bySession[se.Player]; set != nil {
		delete(set, hash)
		if len(set) == 0 {
			delete(ids.bySession, se.Player)
		}
	}
}

// identLocked returns the live identity under id, or nil.
func (s *Store) identLocked(id string, now time.Time) *ident {
	g := s.players.byID[id]
	if g == nil {
		return nil
	}
	if !live(g.expires, now) {
		s.players.dropLocked(id)
		return nil
	}
	return g
}

// renewLocked renews the identity of a guest seated in a saved room (or
// found by its token): an account's and a lasting bot's stay as they are.
func (s *Store) renewLocked(id string, now time.Time) {
	if g := s.identLocked(id, now); g != nil && !g.expires.IsZero() {
		g.expires = now.Add(s.guestTTL)
	}
}

// SavePlayer implements players.Identities.
func (s *Store) SavePlayer(ctx context.Context, p players.Identity, lasting bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save player %s: %w", p.ID, err)
	}
	if p.ID == "" || p.TokenHash == "" {
		return fmt.Errorf("save player %q: empty id or token hash", p.ID)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	if g := s.identLocked(p.ID, now); g != nil && g.p.Account() {
		return fmt.Errorf("save player %s: an account", p.ID)
	}
	g := &ident{p: players.Identity{ID: p.ID, Name: p.Name, TokenHash: p.TokenHash, Owner: p.Owner}}
	if old := s.identLocked(p.ID, now); old != nil {
		g.open, g.moved = old.open, old.moved // a rename keeps the settings, and the owner
		if g.p.Owner == "" {
			g.p.Owner = old.p.Owner
		}
	}
	if !lasting {
		g.expires = now.Add(s.guestTTL)
	}
	s.players.byID[p.ID] = g
	s.players.byToken[p.TokenHash] = p.ID
	return nil
}

// PlayerByToken implements players.Identities.
func (s *Store) PlayerByToken(ctx context.Context, tokenHash string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("player by token: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.players.byToken[tokenHash]
	g := s.identLocked(id, now)
	switch {
	case !ok || g == nil:
		return players.Identity{}, fmt.Errorf("player by token: %w", players.ErrNotFound)
	case g.retired == tokenHash:
		return players.Identity{}, fmt.Errorf("player by token: %w", players.ErrRetired)
	}
	s.renewLocked(id, now)
	return g.p, nil
}

// PlayerByID implements players.Identities.
func (s *Store) PlayerByID(ctx context.Context, id string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("player %s: %w", id, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.identLocked(id, now)
	if g == nil {
		return players.Identity{}, fmt.Errorf("player %s: %w", id, players.ErrNotFound)
	}
	s.renewLocked(id, now)
	return g.p, nil
}

// PlayerNames implements players.Identities.
func (s *Store) PlayerNames(ctx context.Context, ids []string) (map[string]string, error) {
	if err := players.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		if g := s.identLocked(id, now); g != nil {
			out[id] = g.p.Name
		}
	}
	return out, nil
}

// MoveToSession implements players.Identities.
func (s *Store) MoveToSession(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("move %s to a session: %w", id, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.identLocked(id, now)
	switch {
	case g == nil || g.p.Account() || g.p.TokenHash == "":
		return fmt.Errorf("move %s to a session: %w", id, players.ErrNotFound)
	case g.moved:
		return fmt.Errorf("move %s to a session: %w", id, players.ErrMoved)
	}
	g.moved = true
	return nil
}

// AddBot implements players.Bots.
func (s *Store) AddBot(ctx context.Context, owner string, b players.Bot, max int, lasting bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, err)
	}
	if owner == "" || b.ID == "" {
		return fmt.Errorf("add bot %q of %q: empty id", b.ID, owner)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	l := s.players.bots[owner]
	if l == nil || !live(l.expires, now) {
		l = &botList{}
		s.players.bots[owner] = l
	}
	n := 0
	for _, o := range l.bots {
		if o.Turma == b.Turma {
			n++
		}
	}
	if n >= max {
		return fmt.Errorf("add bot of %s: %w", owner, players.ErrTooManyBots)
	}
	l.bots = append(l.bots, b)
	l.expires = time.Time{}
	if !lasting {
		l.expires = now.Add(s.guestTTL)
	}
	return nil
}

// OwnerBots implements players.Bots.
func (s *Store) OwnerBots(ctx context.Context, owner string) ([]players.Bot, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bots of %s: %w", owner, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.players.bots[owner]
	if l == nil || !live(l.expires, now) {
		return []players.Bot{}, nil
	}
	return slices.Clone(l.bots), nil
}

// SetBotOpen implements players.Bots.
func (s *Store) SetBotOpen(ctx context.Context, id string, open bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("set bot %s open: %w", id, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.identLocked(id, now)
	if g == nil {
		return fmt.Errorf("set bot %s open: %w", id, players.ErrNotFound)
	}
	g.open = open
	return nil
}

// BotsOpen implements players.Bots.
func (s *Store) BotsOpen(ctx context.Context, ids []string) (map[string]bool, error) {
	if err := players.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		if g := s.identLocked(id, now); g != nil && g.open && players.IsBotID(id) {
			out[id] = true
		}
	}
	return out, nil
}

// CreateAccount implements players.Accounts.
func (s *Store) CreateAccount(ctx context.Context, a players.Identity, retire string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("create account %s: %w", a.ID, err)
	}
	if a.ID == "" || a.Name == "" || a.PasswordHash == "" {
		return fmt.Errorf("create account %q: empty id, name or password hash", a.ID)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	key := players.NameKey(a.Name)
	if n := s.players.names[key]; n != nil && (n.id != "" || live(n.until, now)) {
		return fmt.Errorf("create account %s: %w", a.ID, players.ErrNameTaken)
	}
	old := s.identLocked(a.ID, now)
	if old != nil && old.p.Account() {
		return fmt.Errorf("create account %s: already an account", a.ID)
	}
	skels := players.Skeletons(a.Name)
	if s.skeletonHeldLocked(skels, a.ID, now) {
		return fmt.Errorf("create account %s: %w", a.ID, players.ErrLookAlike)
	}
	for _, k := range skels {
		s.players.skeletons[k] = &name{id: a.ID}
	}
	s.players.names[key] = &name{id: a.ID}
	g := &ident{p: players.Identity{ID: a.ID, Name: a.Name, PasswordHash: a.PasswordHash, Joined: a.Joined}}
	if retire != "" {
		if s.players.byToken[retire] == a.ID {
			g.retired = retire
		} else {
			delete(s.players.byToken, retire)
		}
	}
	s.players.byID[a.ID] = g
	if l := s.players.bots[a.ID]; l != nil && live(l.expires, now) {
		l.expires = time.Time{}
		for _, b := range l.bots {
			if bg := s.identLocked(b.ID, now); bg != nil {
				bg.expires = time.Time{}
			}
		}
	}
	return nil
}

// AccountByKey implements players.Accounts.
func (s *Store) AccountByKey(ctx context.Context, key string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("account by name: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.players.names[key]; n != nil && n.id != "" {
		if g := s.identLocked(n.id, now); g != nil && g.p.Account() {
			return g.p, nil
		}
	}
	return players.Identity{}, fmt.Errorf("account by name: %w", players.ErrNotFound)
}

// skeletonHeldLocked reports whether an account other than id, or a name
// held, has one of skels.
func (s *Store) skeletonHeldLocked(skels []string, id string, now time.Time) bool {
	for _, k := range skels {
		if n := s.players.skeletons[k]; n != nil && (n.id != "" && n.id != id || n.id == "" && live(n.until, now)) {
			return true
		}
	}
	return false
}

// SkeletonHeld implements players.Accounts.
func (s *Store) SkeletonHeld(ctx context.Context, skels []string, id string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("skeleton held: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skeletonHeldLocked(skels, id, now), nil
}

// IndexSkeletons implements players.Accounts: the memory store kept them
// from the start.
func (s *Store) IndexSkeletons(ctx context.Context) (int, error) { return 0, ctx.Err() }

// SetPassword implements players.Accounts.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("set password of %s: %w", id, err)
	}
	if hash == "" {
		return fmt.Errorf("set password of %s: empty hash", id)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.identLocked(id, now)
	if g == nil || !g.p.Account() {
		return fmt.Errorf("set password of %s: %w", id, players.ErrNotFound)
	}
	g.p.PasswordHash = hash
	return nil
}

// CloseAccount implements players.Accounts.
func (s *Store) CloseAccount(ctx context.Context, id string, hold time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.identLocked(id, now)
	if g == nil || !g.p.Account() {
		return fmt.Errorf("close account %s: %w", id, players.ErrNotFound)
	}
	s.players.names[players.NameKey(g.p.Name)] = &name{until: now.Add(hold)}
	for _, k := range players.Skeletons(g.p.Name) {
		if n := s.players.skeletons[k]; n == nil || n.id == id {
			s.players.skeletons[k] = &name{until: now.Add(hold)}
		}
	}
	s.players.dropLocked(id)
	for h := range s.players.bySession[id] {
		s.players.dropSession(h)
	}
	delete(s.players.devices, id)
	delete(s.players.deviceTTL, id)
	if l := s.players.bots[id]; l != nil {
		for _, b := range l.bots {
			s.players.dropLocked(b.ID)
		}
		delete(s.players.bots, id)
	}
	delete(s.playerRms, id)
	return nil
}

// SaveSession implements players.Sessions.
func (s *Store) SaveSession(ctx context.Context, se players.Session) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	if se.Hash == "" || se.Player == "" {
		return fmt.Errorf("save session of %q: empty hash or player", se.Player)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	if old := s.players.sessions[se.Hash]; old != nil && old.Player != se.Player {
		return fmt.Errorf("save session of %s: the hash is another player's", se.Player)
	}
	c := se
	s.players.sessions[se.Hash] = &c
	set := s.players.bySession[se.Player]
	if set == nil {
		set = map[string]struct{}{}
		s.players.bySession[se.Player] = set
	}
	set[se.Hash] = struct{}{}
	return nil
}

// SessionByHash implements players.Sessions.
func (s *Store) SessionByHash(ctx context.Context, hash string) (players.Session, error) {
	if err := ctx.Err(); err != nil {
		return players.Session{}, fmt.Errorf("session: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.players.sessions[hash]
	if se == nil || !now.Before(se.Expires) {
		s.players.dropSession(hash)
		return players.Session{}, fmt.Errorf("session: %w", players.ErrNotFound)
	}
	return *se, nil
}

// DeleteSession implements players.Sessions.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.players.dropSession(hash)
	return nil
}

// DeleteSessions implements players.Sessions.
func (s *Store) DeleteSessions(ctx context.Context, player, keep string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete sessions of %s: %w", player, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for h := range s.players.bySession[player] {
		if h != keep {
			s.players.dropSession(h)
		}
	}
	return nil
}

// PlayerSessions implements players.Sessions.
func (s *Store) PlayerSessions(ctx context.Context, player string) ([]players.Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessions of %s: %w", player, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []players.Session{}
	for h := range s.players.bySession[player] {
		if se := s.players.sessions[h]; se != nil && now.Before(se.Expires) {
			out = append(out, *se)
		}
	}
	return out, nil
}

// TrimSessions implements players.Sessions.
func (s *Store) TrimSessions(ctx context.Context, player string, max int, keep string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("trim sessions of %s: %w", player, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.players.bySession[player]) <= max {
		return nil, nil
	}
	var live []players.Session
	for h := range s.players.bySession[player] {
		if se := s.players.sessions[h]; se != nil && now.Before(se.Expires) {
			live = append(live, *se)
		} else {
			s.players.dropSession(h)
		}
	}
	ended := players.LeastRecentlyUsed(live, max, keep)
	for _, h := range ended {
		s.players.dropSession(h)
	}
	return ended, nil
}

// Fail implements players.Guards.
func (s *Store) Fail(ctx context.Context, keys []string, window time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("count failure: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	for _, k := range keys {
		f := s.players.failures[k]
		if f == nil || !now.Before(f.until) {
			f = &failure{until: now.Add(window)}
			s.players.failures[k] = f
		}
		f.n++
	}
	return nil
}

// FailureCounts implements players.Guards.
func (s *Store) FailureCounts(ctx context.Context, keys []string) ([]players.Failures, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("failure counts: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]players.Failures, len(keys))
	for i, k := range keys {
		if f := s.players.failures[k]; f != nil && now.Before(f.until) {
			out[i] = players.Failures{N: f.n, Left: f.until.Sub(now)}
		}
	}
	return out, nil
}

// Take implements players.Guards.
func (s *Store) Take(ctx context.Context, keys []string, window time.Duration) ([]players.Failures, error) {
	if err := s.Fail(ctx, keys, window); err != nil {
		return nil, fmt.Errorf("take: %w", err)
	}
	return s.FailureCounts(ctx, keys)
}

// Untake implements players.Guards.
func (s *Store) Untake(ctx context.Context, keys []string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("untake: %w", err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		if f := s.players.failures[k]; f != nil && now.Before(f.until) && f.n > 0 {
			f.n--
		}
	}
	return nil
}

// AddDevice implements players.Guards.
func (s *Store) AddDevice(ctx context.Context, player, hash string, max int, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("add device of %s: %w", player, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	ds := s.players.devices[player]
	if ds == nil {
		ds = map[string]time.Time{}
		s.players.devices[player] = ds
	}
	ds[hash] = now
	s.players.deviceTTL[player] = ttl
	for len(ds) > max { // the oldest go
		oldest, at := "", time.Time{}
		for h, t := range ds {
			if oldest == "" || t.Before(at) {
				oldest, at = h, t
			}
		}
		delete(ds, oldest)
	}
	return nil
}

// KnownDevice implements players.Guards.
func (s *Store) KnownDevice(ctx context.Context, player, hash string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("known device of %s: %w", player, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.players.devices[player][hash]
	return ok && now.Before(at.Add(s.players.deviceTTL[player])), nil
}
