package players

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// GuestID is the id of the guest whose token hashes to tokenHash: a
// one-way function of it (SHA-256, 96 bits in base64url after a "p"), so
// that a store can find a player's identity from either (the token at
// hello, the id when it saves a room the player is seated in) while the id,
// which is public, tells nothing of the token. Guests made before ids were
// derived keep their random ids; the stores still find them by token. A
// guest who becomes an account keeps its id.
func GuestID(tokenHash string) string {
	sum := sha256.Sum256([]byte("tabuleiro player id\x00" + tokenHash))
	return "p" + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// BotIDPrefix begins every bot account's player id. Guest ids are "p" and
// base64url, older random ids hex: neither holds a '.', so a prefix with one
// tells a bot from a person by its id alone, wherever the id is shown (a
// room's seats, records), with nothing more to store.
const BotIDPrefix = "bot."

// BotID is the player id of the bot account whose token hashes to
// tokenHash: like GuestID, a one-way function of it, after BotIDPrefix.
// The bot's identity is saved with SavePlayer under that id, so that the
// token finds it as it finds any player's (PlayerByToken), at hello too.
func BotID(tokenHash string) string {
	sum := sha256.Sum256([]byte("tabuleiro bot id\x00" + tokenHash))
	return BotIDPrefix + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// IsBotID reports whether id is a bot account's player id.
func IsBotID(id string) bool { return strings.HasPrefix(id, BotIDPrefix) }

// NewToken returns a 128-bit secret token and its hash. The token is
// hexadecimal: a bot's token goes on command lines (docs/bots-api.md),
// where a base64url token, starting with "-" once in 64, read as an option.
func NewToken() (token, hash string) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token = hex.EncodeToString(b[:])
	return token, HashToken(token)
}

// HashToken is the form in which a token or a session is stored: its
// SHA-256 in hexadecimal. Both are random and 128 bits or more, so a fast
// hash is enough (a password, chosen by a person, is hashed with argon2id).
func HashToken(token string) string {
	s := sha256.Sum256([]byte(token))
	return hex.EncodeToString(s[:])
}

// newSecret returns a 256-bit secret for a session or a device cookie,
// in base64url (a cookie value needs no quoting), and its hash.
func newSecret() (secret, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	secret = base64.RawURLEncoding.EncodeToString(b[:])
	return secret, HashToken(secret)
}
