// Package players is the one home of a player's identity: the public
// player that rooms, the protocol and records carry (Player), what the store
// keeps of it with its secrets (Identity: a guest's or a bot account's
// token, an account's password hash; Session), the ids derived from tokens,
// the rules of names, the player part of the store's interface (Store) with
// its conformance suite (playerstest), and the service that makes, finds
// and signs in players (Directory: guests, accounts, sessions, passwords
// hashed with argon2id on a bounded pool of their own, and the limits of
// failed sign-ins).
//
// Secrets never leave this package but as hashes: a token or a session is
// given to its owner once and stored as its SHA-256; a password is stored
// as its argon2id hash. No error, log line or metric of this package
// carries one.
package players

import (
	"errors"
	"fmt"
)

// Player is a player as everyone may see it: a seat of a room, a player in
// the protocol's frames (welcome, room.state, the lobby), in a game's
// record and in a player's list of games. It is the one public player
// type.
type Player struct {
	// ID is the player id: a person's or a bot account's; empty for a
	// seat of the server's own bots and for a free seat.
	ID string `json:"id,omitempty"`
	// Name is the name shown.
	Name string `json:"name"`
	// Bot is the level of the server's bot that holds the seat; empty for
	// a person and for a bot account.
	Bot string `json:"bot,omitempty"`
	// BotAccount is set for a bot account, an outside program playing
	// through the bot API (docs/bots-api.md). Of always sets it from the
	// id.
	BotAccount bool `json:"botAccount,omitempty"`
	// Rating is the player's rating in the room's pool, rounded
	// (ratings.Rating.Shown), and Provisional marks it provisional: set
	// for accounts and bot accounts in a game with a pool (package
	// ratings), zero for guests, the server's bots and one-seat games.
	Rating      int  `json:"rating,omitempty"`
	Provisional bool `json:"provisional,omitempty"`
}

// Of is the public player of a person or a bot account (which its id
// tells).
func Of(id, name string) Player {
	return Player{ID: id, Name: name, BotAccount: IsBotID(id)}
}

// ServerBot is the public player of a seat of the server's bot at level.
func ServerBot(level, name string) Player { return Player{Name: name, Bot: level} }

// Free reports whether p is a free seat: neither a player nor a bot.
func (p Player) Free() bool { return p.ID == "" && p.Bot == "" }

// IsBot reports whether p is a bot: the server's or a bot account.
func (p Player) IsBot() bool { return p.Bot != "" || p.BotAccount }

// Seated is a player in a seat: a room's seats in room.state and a
// game's record list them so.
type Seated struct {
	Seat int `json:"seat"`
	Player
}

// Identity is a player as the store keeps it: its public part and the
// hashes of its secrets. A guest and a bot account are found by their
// token; an account by its name and password, then by its sessions.
type Identity struct {
	// ID is the public player id: GuestID or BotID of the token's hash
	// (a guest who became an account keeps its id), a random id for
	// guests made before ids were derived.
	ID string
	// Name is the display name; an account's is its sign-in name.
	Name string
	// TokenHash is the hash (HashToken) of the secret token of a guest or
	// a bot account; empty for an account, whose guest token retired when
	// it became one.
	TokenHash string
	// PasswordHash is an account's password as argon2id hashed it
	// (HashPassword); empty for a guest and a bot account.
	PasswordHash string
	// Joined is when the guest became an account, in Unix milliseconds;
	// 0 for a guest and a bot account.
	Joined int64
	// Owner is a bot account's owner, the player who registered it (its
	// profile names them); empty for a guest and an account, and for a
	// bot registered before owners were kept.
	Owner string
}

// Account reports whether the identity is an account.
func (id Identity) Account() bool { return id.PasswordHash != "" }

// Public is the identity's public player.
func (id Identity) Public() Player { return Of(id.ID, id.Name) }

// Errors of the store and of the Directory.
var (
	// ErrNotFound: no such player, session, account or bot.
	ErrNotFound = errors.New("not found")
	// ErrNameTaken: an account (or a closed account's name held for a
	// while) has the name already, compared without case.
	ErrNameTaken = errors.New("name taken")
	// ErrLookAlike: the name looks like an account's (its Skeletons meet
	// one of the account's); it is an ErrNameTaken.
	ErrLookAlike = fmt.Errorf("it looks like an account's name: %w", ErrNameTaken)
	// ErrRetired: the token is a guest's who became an account; the
	// account signs in with its name and password.
	ErrRetired = errors.New("this guest is now an account: sign in")
	// ErrMoved: the guest's token was moved into a session cookie once
	// already (MoveToSession); it moves no more, so that whoever else
	// knows it cannot mint a session of the guest.
	ErrMoved = errors.New("this guest's token was moved to a session already")
	// ErrTooManyBots: the owner has its most bots already.
	ErrTooManyBots = errors.New("too many bots")
)

// The cookies of a browser (docs/protocol.md, "Accounts"): both HttpOnly,
// SameSite=Lax, so that no script of the page reads them.
const (
	// SessionCookie holds a session's secret (Directory.StartSession).
	SessionCookie = "tabuleiro_session"
	// DeviceCookie holds a device's secret: a browser that signed in to
	// an account before (Directory.RememberDevice).
	DeviceCookie = "tabuleiro_device"
)
