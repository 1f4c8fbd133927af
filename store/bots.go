package store

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// BotIDPrefix begins every bot account's player id. Guest ids are "p" and
// base64url, older random ids hex: neither holds a '.', so a prefix with one
// tells a bot from a person by its id alone, wherever the id is shown (a
// room's seats, records), with nothing more to store.
const BotIDPrefix = "bot."

// BotID is the player id of the bot account whose token hashes to
// tokenHash: like PlayerID, a one-way function of it, after BotIDPrefix.
// The bot's identity is saved with SavePlayer under that id, so that the
// token finds it as it finds any player's (PlayerByToken), at hello too.
func BotID(tokenHash string) string {
	sum := sha256.Sum256([]byte("tabuleiro bot id\x00" + tokenHash))
	return BotIDPrefix + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// IsBotID reports whether id is a bot account's player id.
func IsBotID(id string) bool { return strings.HasPrefix(id, BotIDPrefix) }

// ErrTooManyBots is returned by AddBot when the owner has its most bots.
var ErrTooManyBots = errors.New("too many bots")

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
// (SavePlayer). Both stores implement it.
type Bots interface {
	// AddBot adds b to owner's bots unless owner has max bots of b's kind
	// already (class bots, Bot.Turma, and the others are counted apart)
	// (ErrTooManyBots, and nothing changes); one atomic step. The list
	// expires after the guest TTL from its last change.
	AddBot(ctx context.Context, owner string, b Bot, max int) error
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
