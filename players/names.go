package players

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NameLimit is the longest display name, in runes.
const NameLimit = 32

// CleanText strips control characters, format characters (Unicode category
// Cf: bidi overrides and isolates such as U+202E and U+2066-2069, zero-width
// characters, U+FEFF) and line or paragraph separators, and surrounding
// space, so that a name or a chat line cannot reorder or hide the text shown
// around it. Text is never HTML-escaped here: clients render it as text.
func CleanText(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) || c == '\u2028' || c == '\u2029' {
			return -1
		}
		return c
	}, s)
	return strings.TrimSpace(s)
}

// CleanName is a display name as it is kept: CleanText, without the
// other default ignorable code points (fillers such as U+3164 HANGUL
// FILLER: invisible letters), runs of spaces made one, at most NameLimit
// runes. It may be empty, or have no visible letter (Visible): the
// Directory refuses those.
func CleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
			return -1
		}
		return r
	}, CleanText(s))
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > NameLimit {
		s = strings.TrimSpace(string([]rune(s)[:NameLimit]))
	}
	return s
}

// GuestName is the name a guest who chose none is given.
func GuestName() string { return fmt.Sprintf("guest-%04d", rand.IntN(10000)) }

// Rules of an account's name and password (docs/protocol.md, "Accounts").
const (
	// AccountNameMin and AccountNameMax bound an account's name, in
	// characters.
	AccountNameMin, AccountNameMax = 2, NameLimit
	// PasswordMin is the shortest password, in characters;
	// PasswordMaxBytes the longest, in bytes (a longer one is refused
	// before it is hashed).
	PasswordMin      = 8
	PasswordMaxBytes = 256
)

// ErrBadName and ErrBadPassword wrap the refusals of CheckAccountName and
// CheckPassword, whose messages say what to change.
var (
	ErrBadName     = errors.New("bad account name")
	ErrBadPassword = errors.New("bad password")
)

// CheckAccountName checks an account's name: AccountNameMin to
// AccountNameMax characters among the ASCII letters and digits, '_', '-'
// and '.', beginning and ending with a letter or a digit. Like lichess's,
// names are ASCII: two names that look alike are then alike to the store
// too once compared without case (NameKey), which no Unicode name rule
// short of a confusables table gives.
func CheckAccountName(name string) error {
	if n := len(name); n < AccountNameMin || n > AccountNameMax {
		return fmt.Errorf("%w: a name has %d to %d characters", ErrBadName, AccountNameMin, AccountNameMax)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch {
		case alnum:
		case (c == '_' || c == '-' || c == '.') && i > 0 && i < len(name)-1:
		default:
			return fmt.Errorf("%w: a name has letters (a to z), digits, and _ - . between them", ErrBadName)
		}
	}
	return nil
}

// NameKey is the one form in which names are compared, computed once from
// the whole name: an account's name (CheckAccountName: ASCII) in lower
// case (ASCII's, so that no other script's letter folds into it, as
// U+212A KELVIN SIGN does into "k" under Unicode's lower case), and for
// any other name a key no account has ("#" and a hash of the whole name,
// so that it stays short). The account lookup (Accounts.AccountByKey) and
// the per-name limit of failed sign-ins both use it: a sign-in name that
// is not an account's shape is simply a wrong name.
func NameKey(name string) string {
	if CheckAccountName(name) != nil {
		return "#" + HashToken("name\x00" + name)[:32]
	}
	b := []byte(name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// CheckPassword checks a new password of the account name: at least
// PasswordMin characters, at most PasswordMaxBytes bytes, and not the name
// (compared without case).
func CheckPassword(name, password string) error {
	switch {
	case utf8.RuneCountInString(password) < PasswordMin:
		return fmt.Errorf("%w: a password has at least %d characters", ErrBadPassword, PasswordMin)
	case len(password) > PasswordMaxBytes:
		return fmt.Errorf("%w: a password has at most %d bytes", ErrBadPassword, PasswordMaxBytes)
	case strings.EqualFold(password, name):
		return fmt.Errorf("%w: the password cannot be the name", ErrBadPassword)
	}
	return nil
}

// Why is a refusal's reason for a person: what follows the last colon of
// the error (players' refusals say there what to change).
func Why(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}
