package players

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Defaults of Config.
const (
	// DefaultSessionTTL is how long a session lasts unused: each use
	// renews it (at most once a day: sessionRenewEvery).
	DefaultSessionTTL = 30 * 24 * time.Hour
	// DefaultNameHold is how long a closed account's name stays held.
	DefaultNameHold = 30 * 24 * time.Hour
	// DefaultMaxFailures failed sign-ins in DefaultFailureWindow refuse
	// the next ones (per address, and per account to an unknown device)
	// until the window ends.
	DefaultMaxFailures   = 10
	DefaultFailureWindow = 15 * time.Minute
	// DefaultMaxSessions live sessions are kept per player: a sign-in
	// past them ends the least recently used one.
	DefaultMaxSessions = 50
	// DefaultSignInsPerAddr sign-ins a SignInWindow from one address, and
	// DefaultSignInsPerAccount to one account, refuse the next ones
	// (before any hash) until the window ends; a wrong password is given
	// back (the failures have their own limits), so only the sign-ins
	// that succeed, and those being checked, count.
	DefaultSignInsPerAddr    = 20
	DefaultSignInsPerAccount = 10
	SignInWindow             = time.Minute
	// DefaultMaxDevices devices are remembered per account, each for
	// DefaultDeviceTTL from its last sign-in.
	DefaultMaxDevices = 10
	DefaultDeviceTTL  = 365 * 24 * time.Hour
	// sessionRenewEvery: a session is renewed when it was last renewed
	// this long ago or more, so that using it writes at most once a day.
	sessionRenewEvery = 24 * time.Hour
)

// Config configures a Directory; zero values take the defaults.
type Config struct {
	Store  Store
	Hasher *Hasher
	// Now is the time of sessions' expiry (default time.Now); tests move
	// it past a session's end.
	Now           func() time.Time
	SessionTTL    time.Duration
	NameHold      time.Duration
	MaxFailures   int
	FailureWindow time.Duration
	MaxDevices    int
	DeviceTTL     time.Duration
	// MaxSessions bounds each player's live sessions
	// (DefaultMaxSessions).
	MaxSessions int
	// SignInsPerAddr and SignInsPerAccount bound the sign-ins (and
	// password checks) a SignInWindow from one address and to one
	// account (DefaultSignInsPerAddr, DefaultSignInsPerAccount).
	SignInsPerAddr, SignInsPerAccount int
}

// Directory is the one place a player is made, found, signed in and out:
// guests (by token), accounts (by name and password), sessions (by the
// secret of a cookie), over a Store and a Hasher. It keeps no state of
// its own: every node's Directory on one store sees the same players and
// sessions. Safe for concurrent use.
type Directory struct {
	cfg Config
}

// NewDirectory returns a Directory over cfg.Store and cfg.Hasher, both
// required.
func NewDirectory(cfg Config) *Directory {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	orDefault(&cfg.SessionTTL, DefaultSessionTTL)
	orDefault(&cfg.NameHold, DefaultNameHold)
	orDefault(&cfg.MaxFailures, DefaultMaxFailures)
	orDefault(&cfg.FailureWindow, DefaultFailureWindow)
	orDefault(&cfg.MaxDevices, DefaultMaxDevices)
	orDefault(&cfg.DeviceTTL, DefaultDeviceTTL)
	orDefault(&cfg.MaxSessions, DefaultMaxSessions)
	orDefault(&cfg.SignInsPerAddr, DefaultSignInsPerAddr)
	orDefault(&cfg.SignInsPerAccount, DefaultSignInsPerAccount)
	return &Directory{cfg: cfg}
}

func orDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Store is the directory's store.
func (d *Directory) Store() Store { return d.cfg.Store }

// SessionTTL is how long a session lasts unused (its cookie's Max-Age).
func (d *Directory) SessionTTL() time.Duration { return d.cfg.SessionTTL }

// DeviceTTL is how long a device is remembered (its cookie's Max-Age).
func (d *Directory) DeviceTTL() time.Duration { return d.cfg.DeviceTTL }

// ErrBadCredentials refuses a sign-in, a password change or a closing: the
// name or the password is wrong (the same error for both).
var ErrBadCredentials = errors.New("wrong name or password")

// ErrAccountName refuses a rename of an account: its name is the one it
// signs in with.
var ErrAccountName = errors.New("an account's name is the name it signs in with")

// ErrAlreadyAccount refuses making an account of an account.
var ErrAlreadyAccount = errors.New("already an account")

// LimitedError refuses a sign-in after too many failures (Failed), or too
// many sign-ins a SignInWindow: try again after RetryAfter.
type LimitedError struct {
	RetryAfter time.Duration
	Failed     bool
}

func (e *LimitedError) Error() string {
	what := "sign-ins"
	if e.Failed {
		what = "failed sign-ins"
	}
	return fmt.Sprintf("too many %s: try again in %v", what, e.RetryAfter.Round(time.Second))
}

// NewGuest makes a guest named name (a cleaned display name; a generated
// one when it is empty, has no visible letter or digit, or looks like an
// account's: nameRefused) and returns it with its token, shown to the
// guest this once.
func (d *Directory) NewGuest(ctx context.Context, name string) (Identity, string, error) {
	name = CleanName(name)
	if d.nameRefused(ctx, name, "") != nil {
		name = ""
	}
	if name == "" {
		name = GuestName()
	}
	token, hash := NewToken()
	g := Identity{ID: GuestID(hash), Name: name, TokenHash: hash}
	if err := d.cfg.Store.SavePlayer(ctx, g, false); err != nil {
		return Identity{}, "", fmt.Errorf("new guest: %w", err)
	}
	return g, token, nil
}

// nameRefused says why the cleaned display name of the player id (a
// guest's) is refused: ErrBadName when it is empty or has no visible
// letter or digit (Visible), ErrLookAlike when it looks like the name of
// an account other than id (their Skeletons meet: one store read). A
// store that cannot answer lets the name be (a guest's name is only
// shown; an account's is checked again by CreateAccount).
func (d *Directory) nameRefused(ctx context.Context, name, id string) error {
	if !Visible(name) {
		return fmt.Errorf("%w: a name needs a letter or a digit one can see", ErrBadName)
	}
	if held, err := d.cfg.Store.SkeletonHeld(ctx, Skeletons(name), id); err == nil && held {
		return ErrLookAlike
	}
	return nil
}

// ByToken returns the guest or bot account whose token is token
// (ErrNotFound; ErrRetired for a guest who became an account).
func (d *Directory) ByToken(ctx context.Context, token string) (Identity, error) {
	if token == "" || len(token) > 256 {
		return Identity{}, ErrNotFound
	}
	return d.cfg.Store.PlayerByToken(ctx, HashToken(token))
}

// Rename gives the guest p a new display name (cleaned, not empty, not an
// account's) and returns it; an account keeps its name (ErrAccountName).
func (d *Directory) Rename(ctx context.Context, p Identity, name string) (Identity, error) {
	switch name = CleanName(name); {
	case p.Account():
		return p, ErrAccountName
	case IsBotID(p.ID):
		return p, fmt.Errorf("%w: a bot account keeps the name it was registered with", ErrBadName)
	}
	if err := d.nameRefused(ctx, name, p.ID); err != nil {
		return p, fmt.Errorf("rename: %w", err)
	}
	p.Name = name
	if err := d.cfg.Store.SavePlayer(ctx, p, false); err != nil {
		return p, fmt.Errorf("rename: %w", err)
	}
	return p, nil
}

// Started is a session just opened: its secret, for the cookie (never
// stored, never logged, shown this once), the session, and the hashes of
// the player's sessions it ended to stay within Config.MaxSessions (the
// least recently used), whose WebSockets its caller closes.
type Started struct {
	Secret  string
	Session Session
	Ended   []string
}

// StartSession opens a session for the player and ends its least
// recently used ones past Config.MaxSessions.
func (d *Directory) StartSession(ctx context.Context, playerID string) (Started, error) {
	secret, hash := newSecret()
	now := d.cfg.Now()
	s := Session{Hash: hash, Player: playerID, Created: now, Expires: now.Add(d.cfg.SessionTTL)}
	if err := d.cfg.Store.SaveSession(ctx, s); err != nil {
		return Started{}, fmt.Errorf("start session: %w", err)
	}
	ended, err := d.cfg.Store.TrimSessions(ctx, playerID, d.cfg.MaxSessions, hash)
	if err != nil {
		return Started{}, fmt.Errorf("start session: %w", err)
	}
	return Started{Secret: secret, Session: s, Ended: ended}, nil
}

// MoveToSession gives the guest g (found by its token) its one session
// cookie: the token moves into a cookie once (ErrMoved after), so that
// someone else who knows the token cannot keep a session of the guest
// (docs/protocol.md, "What an attacker cannot do").
func (d *Directory) MoveToSession(ctx context.Context, g Identity) (Started, error) {
	if err := d.cfg.Store.MoveToSession(ctx, g.ID); err != nil {
		return Started{}, err
	}
	return d.StartSession(ctx, g.ID)
}

// BySession returns the player of the session whose secret is secret, and
// the session, renewed if it was last renewed a day ago or more.
// ErrNotFound when there is none, it has expired, or its player is gone.
func (d *Directory) BySession(ctx context.Context, secret string) (Identity, Session, error) {
	if secret == "" || len(secret) > 256 {
		return Identity{}, Session{}, ErrNotFound
	}
	s, err := d.cfg.Store.SessionByHash(ctx, HashToken(secret))
	if err != nil {
		return Identity{}, Session{}, err
	}
	now := d.cfg.Now()
	if !now.Before(s.Expires) {
		return Identity{}, Session{}, fmt.Errorf("session: %w", ErrNotFound)
	}
	p, err := d.cfg.Store.PlayerByID(ctx, s.Player)
	if err != nil {
		return Identity{}, Session{}, err
	}
	if s.Expires.Sub(now) <= d.cfg.SessionTTL-sessionRenewEvery {
		s.Expires = now.Add(d.cfg.SessionTTL)
		if err := d.cfg.Store.SaveSession(ctx, s); err != nil {
			return Identity{}, Session{}, fmt.Errorf("renew session: %w", err)
		}
	}
	return p, s, nil
}

// EndSession ends the session whose secret is secret.
func (d *Directory) EndSession(ctx context.Context, secret string) error {
	return d.cfg.Store.DeleteSession(ctx, HashToken(secret))
}

// EndSessions ends every session of the player but the one whose hash is
// keep (empty: all).
func (d *Directory) EndSessions(ctx context.Context, playerID, keep string) error {
	return d.cfg.Store.DeleteSessions(ctx, playerID, keep)
}

// CreateAccount makes an account named name with password: of the guest
// g (its id, games, bots and rooms kept; its token retired), or a new one
// when g is the zero Identity. ErrBadName, ErrBadPassword, ErrNameTaken,
// ErrAlreadyAccount; ErrBusy when the hasher's queue is full,
// ErrTooManyAtOnce when from's address holds its share of it.
func (d *Directory) CreateAccount(ctx context.Context, g Identity, name, password string, from Attempt) (Identity, error) {
	if err := CheckAccountName(name); err != nil {
		return Identity{}, err
	}
	if err := CheckPassword(name, password); err != nil {
		return Identity{}, err
	}
	switch {
	case g.Account():
		return Identity{}, ErrAlreadyAccount
	case IsBotID(g.ID):
		return Identity{}, fmt.Errorf("%w: a bot account cannot become an account", ErrAlreadyAccount)
	}
	// Before the cost of a hash: the name, then a look-alike of it.
	if _, err := d.cfg.Store.AccountByKey(ctx, NameKey(name)); err == nil {
		return Identity{}, ErrNameTaken
	}
	if held, err := d.cfg.Store.SkeletonHeld(ctx, Skeletons(name), g.ID); err == nil && held {
		return Identity{}, ErrLookAlike
	}
	hash, err := d.cfg.Hasher.Hash(ctx, from.Addr, password)
	if err != nil {
		return Identity{}, err
	}
	a := Identity{ID: g.ID, Name: name, PasswordHash: hash, Joined: d.cfg.Now().UnixMilli()}
	if a.ID == "" {
		_, h := NewToken()
		a.ID = GuestID(h)
	}
	if err := d.cfg.Store.CreateAccount(ctx, a, g.TokenHash); err != nil {
		return Identity{}, err
	}
	return a, nil
}

// Attempt is where a sign-in (or a password check) comes from: the
// client's address key (netlimit.Key) and the secret of its device cookie
// ("" without one).
type Attempt struct {
	Addr   string
	Device string
}

// SignIn checks name and password and returns the account. Too many
// failures from the address, or against the account from a device that
// never signed in to it, refuse it first (*LimitedError) without checking
// the password; a wrong name and a wrong password are one error
// (ErrBadCredentials) and cost the same.
func (d *Directory) SignIn(ctx context.Context, name, password string, from Attempt) (Identity, error) {
	key := NameKey(name) // once, for the lookup and the limits
	a, err := d.cfg.Store.AccountByKey(ctx, key)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Identity{}, err
	}
	if err := d.check(ctx, a, key, password, from); err != nil {
		return Identity{}, err
	}
	return a, nil
}

// Confirm checks the account's own password (a password change, a
// closing) under the limits of SignIn.
func (d *Directory) Confirm(ctx context.Context, a Identity, password string, from Attempt) error {
	return d.check(ctx, a, NameKey(a.Name), password, from)
}

// check is SignIn's limits and password check for the account a (the zero
// Identity when the name whose NameKey is key has none).
func (d *Directory) check(ctx context.Context, a Identity, key, password string, from Attempt) error {
	keys := []string{"addr:" + from.Addr, "name:" + key}
	counts, err := d.cfg.Store.FailureCounts(ctx, keys)
	if err != nil {
		return err
	}
	limit := int64(d.cfg.MaxFailures)
	if counts[0].N >= limit {
		return &LimitedError{RetryAfter: counts[0].Left, Failed: true}
	}
	if counts[1].N >= limit {
		known := false
		if a.ID != "" && from.Device != "" {
			if known, err = d.cfg.Store.KnownDevice(ctx, a.ID, HashToken(from.Device)); err != nil {
				return err
			}
		}
		if !known {
			return &LimitedError{RetryAfter: counts[1].Left, Failed: true}
		}
	}
	// The sign-ins a minute: a place taken before the hash, given back
	// unless the password was right.
	places := []string{"in-addr:" + from.Addr, "in-name:" + key}
	taken, err := d.cfg.Store.Take(ctx, places, SignInWindow)
	if err != nil {
		return err
	}
	giveBack := func() {
		// A place not given back (the store did not answer) lasts until
		// its window ends: nothing more.
		_ = d.cfg.Store.Untake(context.WithoutCancel(ctx), places)
	}
	if taken[0].N > int64(d.cfg.SignInsPerAddr) || taken[1].N > int64(d.cfg.SignInsPerAccount) {
		giveBack()
		left := taken[0].Left
		if taken[1].N > int64(d.cfg.SignInsPerAccount) {
			left = taken[1].Left
		}
		return &LimitedError{RetryAfter: max(left, time.Second)}
	}
	ok := false
	if len(password) <= PasswordMaxBytes {
		if ok, err = d.cfg.Hasher.Verify(ctx, from.Addr, password, a.PasswordHash); err != nil {
			giveBack()
			return err
		}
	}
	if !ok {
		giveBack()
		if err := d.cfg.Store.Fail(ctx, keys, d.cfg.FailureWindow); err != nil {
			return err
		}
		return ErrBadCredentials
	}
	return nil
}

// RememberDevice records that the device signed in to the account, so
// that a stranger's failures against the account do not lock it out, and
// returns the device's secret: device when it had one, a new one (for a
// new cookie) otherwise.
func (d *Directory) RememberDevice(ctx context.Context, playerID, device string) (string, error) {
	if device == "" || len(device) > 256 {
		device, _ = newSecret()
	}
	if err := d.cfg.Store.AddDevice(ctx, playerID, HashToken(device), d.cfg.MaxDevices, d.cfg.DeviceTTL); err != nil {
		return "", fmt.Errorf("remember device: %w", err)
	}
	return device, nil
}

// ChangePassword sets the account's password to next once old is
// confirmed (Confirm's limits), and ends every other session than keep
// (a session's hash).
func (d *Directory) ChangePassword(ctx context.Context, a Identity, old, next, keep string, from Attempt) error {
	if err := CheckPassword(a.Name, next); err != nil {
		return err
	}
	if err := d.Confirm(ctx, a, old, from); err != nil {
		return err
	}
	hash, err := d.cfg.Hasher.Hash(ctx, from.Addr, next)
	if err != nil {
		return err
	}
	if err := d.cfg.Store.SetPassword(ctx, a.ID, hash); err != nil {
		return err
	}
	return d.cfg.Store.DeleteSessions(ctx, a.ID, keep)
}

// Close closes the account (its password confirmed first: Confirm): its
// identity, sessions, devices and bots go, and its name is held for
// Config.NameHold.
func (d *Directory) Close(ctx context.Context, a Identity) error {
	return d.cfg.Store.CloseAccount(ctx, a.ID, d.cfg.NameHold)
}
