package players

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Store is the player part of the service's store: identities, bot lists,
// accounts, sessions and the counts of failed sign-ins. Both stores
// (store/memstore, store/redisstore) implement it and pass one conformance
// suite (playerstest). Every method honours ctx and is safe for concurrent
// use.
//
// Expiry: a guest's identity, and the bots and lists of a guest, expire
// after the store's guest TTL unless renewed (by PlayerByToken,
// PlayerByID, or a save of an unfinished room the guest is seated in); an
// account and what it owns last until the account is closed. A session
// expires at its Expires.
type Store interface {
	Identities
	Bots
	Accounts
	Sessions
	Guards
}

// Identities keeps guests' and bot accounts' identities, found by token.
type Identities interface {
	// SavePlayer creates or updates the identity of a guest or a bot
	// account (p.ID and p.TokenHash set): kept under p.ID when p.ID is
	// GuestID or BotID of the token's hash, else (guests made before ids
	// were derived) under the token's hash. It expires after the guest TTL
	// unless renewed, or lasts when lasting (a bot of an account). A bot
	// account's Owner is kept with it; a save with none keeps the one
	// kept.
	SavePlayer(ctx context.Context, p Identity, lasting bool) error
	// PlayerByToken returns the identity whose token hashes to tokenHash
	// and renews a guest's for the guest TTL. ErrRetired when it is a
	// guest's who became an account; ErrNotFound when there is none.
	PlayerByToken(ctx context.Context, tokenHash string) (Identity, error)
	// PlayerByID returns the identity kept under id (a guest's derived id,
	// a bot's, an account's) and renews a guest's; ErrNotFound otherwise.
	PlayerByID(ctx context.Context, id string) (Identity, error)
	// PlayerNames returns the display name of each id whose identity is
	// kept under it; ids it does not know are left out. At most
	// MaxNameLookups ids, in one round trip; it renews nothing.
	PlayerNames(ctx context.Context, ids []string) (map[string]string, error)
	// MoveToSession claims the one move of the guest id's token into a
	// session cookie (POST /api/guest with the token): nil the first
	// time, ErrMoved every time after, ErrNotFound when no guest is kept
	// under id. The claim lives and expires with the identity and
	// survives a SavePlayer (a rename).
	MoveToSession(ctx context.Context, id string) error
}

// MaxNameLookups bounds the ids of one PlayerNames call (a tournament's
// entrants: torneio.MaxEntrants).
const MaxNameLookups = 64

// CheckNameLookup is the argument check both stores' PlayerNames make: a
// live ctx and at most MaxNameLookups ids.
func CheckNameLookup(ctx context.Context, ids []string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("player names: %w", err)
	}
	if len(ids) > MaxNameLookups {
		return fmt.Errorf("player names: %d ids, at most %d", len(ids), MaxNameLookups)
	}
	return nil
}

// Bot is a bot account as its owner's list holds it.
type Bot struct {
	// ID is the bot's player id (BotID).
	ID string `json:"id"`
	// Name is the name the bot was registered with.
	Name string `json:"name"`
	// Turma marks a class's bot: one a teacher registered for a class
	// tournament (docs/bots-api.md, "Your project as a bot"). Class bots
	// are counted apart from the others, against a larger cap.
	Turma bool `json:"turma,omitempty"`
}

// Bots keeps each player's list of bot accounts, which bounds how many one
// player may register. The bots' identities themselves are players
// (SavePlayer).
type Bots interface {
	// AddBot adds b to owner's bots unless owner has max bots of b's kind
	// already (class bots, Bot.Turma, and the others are counted apart)
	// (ErrTooManyBots, and nothing changes); one atomic step. The list
	// expires after the guest TTL from its last change, or lasts when
	// lasting (an account's).
	AddBot(ctx context.Context, owner string, b Bot, max int, lasting bool) error
	// OwnerBots returns owner's bots, in no particular order.
	OwnerBots(ctx context.Context, owner string) ([]Bot, error)
	// SetBotOpen sets whether the bot account id is open to tournaments:
	// whether anyone, not only its owner, may enter it in one. The
	// setting is kept with the bot's identity (SavePlayer), lives and
	// expires with it and survives a SavePlayer of it; ErrNotFound when
	// no identity is kept under id. Its caller checks the owner.
	SetBotOpen(ctx context.Context, id string, open bool) error
	// BotsOpen returns which of ids (at most MaxNameLookups, one round
	// trip) are bot accounts open to tournaments; the others are left
	// out.
	BotsOpen(ctx context.Context, ids []string) (map[string]bool, error)
}

// Accounts keeps accounts: a name, unique without case, and a password
// hash on an identity that never expires.
type Accounts interface {
	// CreateAccount makes a an account (a.ID, a.Name, a.PasswordHash and
	// a.Joined set): it claims a.Name (ErrNameTaken when an account or a
	// held name has it, compared without case, and nothing changes), keeps
	// the identity under a.ID for good, and, for a guest who becomes the
	// account (retire, the guest's token hash, not empty), retires the
	// guest's token (PlayerByToken answers ErrRetired) and makes the
	// guest's bots and bot list last. An id that is an account already is
	// refused.
	CreateAccount(ctx context.Context, a Identity, retire string) error
	// AccountByKey returns the account whose name's NameKey is key (a
	// name compared without case), or ErrNotFound.
	AccountByKey(ctx context.Context, key string) (Identity, error)
	// SkeletonHeld reports whether an account other than id, or a closed
	// account's name still held, has one of skeletons (Skeletons of a
	// name) among its name's: one round trip, whatever the accounts.
	// CreateAccount claims the skeletons of an account's name (after its
	// name; ErrLookAlike when another account holds one, and nothing
	// changes) and CloseAccount holds them as it holds the name.
	SkeletonHeld(ctx context.Context, skeletons []string, id string) (bool, error)
	// IndexSkeletons claims the skeletons of the accounts made before
	// the store kept them (and holds those of the names held), once: a
	// store that did it, or that always kept them, answers 0 at once.
	// It returns the accounts indexed.
	IndexSkeletons(ctx context.Context) (int, error)
	// SetPassword replaces the account's password hash; ErrNotFound when
	// id is no account.
	SetPassword(ctx context.Context, id, hash string) error
	// CloseAccount deletes the account's identity, sessions, devices, bots
	// (their identities and the list) and unfinished-room index, and
	// holds its name for hold, so that nobody takes it at once
	// (CreateAccount answers ErrNameTaken until then). ErrNotFound when id
	// is no account.
	CloseAccount(ctx context.Context, id string, hold time.Duration) error
}

// Session is a signed-in browser: the hash of the secret its cookie holds
// and the player it is.
type Session struct {
	// Hash is HashToken of the session's secret.
	Hash string
	// Player is the player id.
	Player string
	// Created is when it was made; Expires when it ends unless renewed.
	Created, Expires time.Time
}

// Sessions keeps sessions, each under its hash with its expiry, and each
// player's index of them.
type Sessions interface {
	// SaveSession creates s, or renews it to s.Expires; it expires then.
	SaveSession(ctx context.Context, s Session) error
	// SessionByHash returns the session, or ErrNotFound (none, or expired
	// by the store's clock).
	SessionByHash(ctx context.Context, hash string) (Session, error)
	// DeleteSession ends one session; a session that is not there is no
	// error.
	DeleteSession(ctx context.Context, hash string) error
	// DeleteSessions ends every session of player but keep (empty: all).
	DeleteSessions(ctx context.Context, player, keep string) error
	// PlayerSessions returns the player's live sessions, in no particular
	// order.
	PlayerSessions(ctx context.Context, player string) ([]Session, error)
	// TrimSessions ends the player's least recently used live sessions
	// past the newest max (by Expires, which each use renews, then by
	// Created), never keep, and returns the hashes it ended; the index's
	// entries of sessions gone are dropped too. With at most max live
	// sessions it reads one count and changes nothing.
	TrimSessions(ctx context.Context, player string, max int, keep string) ([]string, error)
}

// LeastRecentlyUsed returns the hashes of the sessions of ss past the
// newest max, never keep: the ones TrimSessions ends (by Expires, then
// Created, then hash, oldest first). Both stores use it.
func LeastRecentlyUsed(ss []Session, max int, keep string) []string {
	if len(ss) <= max {
		return nil
	}
	ss = slices.Clone(ss)
	slices.SortFunc(ss, func(a, b Session) int {
		switch {
		case a.Hash == b.Hash:
			return 0
		case a.Hash == keep:
			return 1
		case b.Hash == keep:
			return -1
		}
		if c := a.Expires.Compare(b.Expires); c != 0 {
			return c
		}
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Hash, b.Hash)
	})
	out := make([]string, 0, len(ss)-max)
	for _, se := range ss[:len(ss)-max] {
		if se.Hash != keep {
			out = append(out, se.Hash)
		}
	}
	return out
}

// Failures is a count of failed sign-ins under one key, and how long its
// window has left (zero when the count is zero).
type Failures struct {
	N    int64
	Left time.Duration
}

// Guards keeps what limits sign-ins: failures and sign-ins counted per key
// in fixed windows, and each account's known devices (browsers that signed
// in to it), which a stranger's failures from elsewhere do not lock out.
type Guards interface {
	// Fail counts one failure under each key; a key's window starts with
	// its first failure and lasts window.
	Fail(ctx context.Context, keys []string, window time.Duration) error
	// FailureCounts returns the count of each key, in order.
	FailureCounts(ctx context.Context, keys []string) ([]Failures, error)
	// Take counts one under each key, as Fail does, and returns each
	// key's count after it, in order: the places a sign-in takes before
	// its password is hashed (Directory's sign-ins a minute).
	Take(ctx context.Context, keys []string, window time.Duration) ([]Failures, error)
	// Untake gives back one count Take took under each key, within its
	// window (a key whose window ended, or that is at zero, stays as it
	// is; nothing is made without a window).
	Untake(ctx context.Context, keys []string) error
	// AddDevice remembers the device hash for the account for ttl, keeping
	// the max newest ones.
	AddDevice(ctx context.Context, player, hash string, max int, ttl time.Duration) error
	// KnownDevice reports whether the device hash signed in to the account.
	KnownDevice(ctx context.Context, player, hash string) (bool, error)
}
