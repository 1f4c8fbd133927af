package players

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCleanName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" <ana>\x00\n ", "<ana>"},
		{"ana \u202e  lima", "ana lima"},
		{"\t", ""},
	} {
		if got := CleanName(tc.in); got != tc.want {
			t.Errorf("CleanName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := strings.Repeat("é", 50)
	if got := []rune(CleanName(long)); len(got) != NameLimit {
		t.Errorf("name of %d runes kept %d", 50, len(got))
	}
}

func TestTokensAreRandomAndHashed(t *testing.T) {
	a, ha := NewToken()
	b, _ := NewToken()
	if a == b || len(a) < 22 || ha == a || ha != HashToken(a) || len(ha) != 64 {
		t.Fatalf("tokens %q %q hash %q", a, b, ha)
	}
	// A token is given on command lines: none may read as an option.
	for range 1000 {
		if tok, _ := NewToken(); strings.Trim(tok, "0123456789abcdef") != "" {
			t.Fatalf("token %q is not lowercase hexadecimal", tok)
		}
	}
	s1, h1 := newSecret()
	s2, _ := newSecret()
	if s1 == s2 || len(s1) != 43 || h1 != HashToken(s1) {
		t.Fatalf("secrets %q %q hash %q", s1, s2, h1)
	}
}

func TestAccountNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"ana", true}, {"Ana_Lima", true}, {"a.b-c_d", true}, {"42", true}, {"ab", true},
		{"a", false}, {"", false}, {"_ana", false}, {"ana.", false}, {"ana lima", false}, {"joão", false},
		{strings.Repeat("a", AccountNameMax), true}, {strings.Repeat("a", AccountNameMax+1), false},
		{"ana\x00", false},
	} {
		err := CheckAccountName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckAccountName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadName) {
			t.Errorf("CheckAccountName(%q) = %v, not ErrBadName", tc.name, err)
		}
	}
	if NameKey("Ana_LIMA") != NameKey("ana_lima") || NameKey("Ana_LIMA") != "ana_lima" {
		t.Error("NameKey is not an account name in ASCII's lower case")
	}
}

// TestNameKey: one key from the whole name; a name that is no account's
// shape (another script's letters, too long, spaces) never gets an
// account's key, and two such names get two keys.
func TestNameKey(t *testing.T) {
	kate := NameKey("kate")
	for _, tc := range []struct {
		name string
		same bool // the key is kate's
	}{
		{"kate", true}, {"KATE", true}, {"Kate", true},
		{"\u212Aate", false}, // KELVIN SIGN, "k" under Unicode's lower case
		{"\u212AATE", false},
		{"k\u0430te", false},                // Cyrillic a
		{"\uff4b\uff41\uff54\uff45", false}, // full width
		{"kate ", false}, {"kate\x00", false},
		{"kate" + strings.Repeat("e", 40), false},
	} {
		key := NameKey(tc.name)
		if (key == kate) != tc.same {
			t.Errorf("NameKey(%q) = %q; the key of kate (%q): %v, want %v", tc.name, key, kate, key == kate, tc.same)
		}
		if len(key) > AccountNameMax+1 {
			t.Errorf("NameKey(%q) = %q: longer than %d bytes", tc.name, key, AccountNameMax+1)
		}
	}
	if NameKey("\u212Aate") == NameKey("\u212AATE") || NameKey(strings.Repeat("é", 40)) == NameKey(strings.Repeat("é", 41)) {
		t.Error("two names that are no account's share a key")
	}
}

func TestPasswordRules(t *testing.T) {
	for _, tc := range []struct {
		name, password string
		ok             bool
	}{
		{"ana", "12345678", true},
		{"ana", "1234567", false},
		{"ana", "çãõáéíóú", true}, // 8 characters, 16 bytes
		{"anapaula", "AnaPaula", false},
		{"ana", strings.Repeat("x", PasswordMaxBytes), true},
		{"ana", strings.Repeat("x", PasswordMaxBytes+1), false},
	} {
		err := CheckPassword(tc.name, tc.password)
		if (err == nil) != tc.ok {
			t.Errorf("CheckPassword(%q, %d chars) = %v, want ok %v", tc.name, len(tc.password), err, tc.ok)
		}
		if err != nil && (!errors.Is(err, ErrBadPassword) || strings.Contains(err.Error(), tc.password)) {
			t.Errorf("CheckPassword error %v: not ErrBadPassword, or it quotes the password", err)
		}
	}
}

func TestPublicPlayer(t *testing.T) {
	if p := Of(BotID("h"), "robo"); !p.BotAccount || !p.IsBot() || p.Free() {
		t.Errorf("Of(bot id) = %+v", p)
	}
	if p := Of(GuestID("h"), "ana"); p.BotAccount || p.IsBot() || p.Free() {
		t.Errorf("Of(guest id) = %+v", p)
	}
	if p := ServerBot("forte", "bot forte"); !p.IsBot() || p.Free() || p.ID != "" {
		t.Errorf("ServerBot = %+v", p)
	}
	if !(Player{}).Free() {
		t.Error("the zero Player is not a free seat")
	}
	id := Identity{ID: "p1", Name: "ana", PasswordHash: "$argon2id$x"}
	if !id.Account() || id.Public() != (Player{ID: "p1", Name: "ana"}) {
		t.Errorf("Identity %+v: Account %v Public %+v", id, id.Account(), id.Public())
	}
}

// TestLookAlikes: the skeletons that make a name look like another, and the
// names with nothing visible.
func TestLookAlikes(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"kate", "k\u0430te", true},                // Cyrillic a
		{"kate", "\uff4b\uff41\uff54\uff45", true}, // full width
		{"kate", "kate\u0301", true},               // a combining mark
		{"kate", "ka\u200Bte", true},               // ZERO WIDTH SPACE
		{"kate", "ka\u3164te", true},               // HANGUL FILLER inside
		{"kate", "KATE", true},                     // case
		{"Kate", "\u212Aate", true},                // KELVIN SIGN
		{"rn", "m", true}, {"Ian", "lan", true},    // letters that look alike
		{"ana1", "anal", true}, {"b0b", "bob", true}, // digits
		{"joao", "João", true}, // accents are marks
		{"kate", "katia", false}, {"ana", "ano", false}, {"João", "Conceição", false},
		{"lan", "ian", false}, // l and i are told apart in lower case
	} {
		shared := false
		for _, x := range Skeletons(tc.a) {
			for _, y := range Skeletons(tc.b) {
				shared = shared || x == y
			}
		}
		if shared != tc.same {
			t.Errorf("%q (%q) and %q (%q) look alike: %v, want %v", tc.a, Skeletons(tc.a), tc.b, Skeletons(tc.b), shared, tc.same)
		}
	}
	for _, tc := range []struct {
		name    string
		visible bool
	}{
		{"\u3164", false}, {"\u3164\u3164", false}, {"\u2800", false}, {"\u2800 \u2800", false},
		{"\u115F\u1160", false}, {"\uFFA0", false}, {"\u0301\u0301", false}, {"\u200B", false}, {"...", false}, {"", false},
		{"a", true}, {"João", true}, {"7", true}, {"ana\u2800", true}, {"李", true},
	} {
		if got := Visible(tc.name); got != tc.visible {
			t.Errorf("Visible(%q) = %v, want %v", tc.name, got, tc.visible)
		}
	}
	// An account's name has a short skeleton: MaxSkeleton bounds them all.
	for c := 0; c < 128; c++ {
		name := strings.Repeat(string(rune(c)), AccountNameMax)
		for _, k := range Skeletons(name) {
			if CheckAccountName(name) == nil && len(k) > MaxSkeleton {
				t.Fatalf("the skeleton of %q has %d bytes, over MaxSkeleton", name, len(k))
			}
		}
	}
}

// FuzzCleanName: the name cleaner never panics, and what it keeps is valid
// UTF-8, within NameLimit, without control or format characters,
// invisible fillers or surrounding space, and cleaned already.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"ana", " <ana>\x00\n ", "ana \u202e  lima", "\u3164", "\u2800", "k\u0430te",
		"\uff4b\uff41\uff54\uff45", "kate\u0301", "ka\u200Bte", "João", "Conceição", strings.Repeat("é", 50),
		strings.Repeat("a\u0301", 40), "\xff\xfe", "a \u3164 b", strings.Repeat(" x", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CleanName(s)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > NameLimit {
			t.Fatalf("CleanName(%q) = %q: invalid or over %d runes", s, got, NameLimit)
		}
		if got != strings.TrimSpace(got) || strings.Contains(got, "  ") {
			t.Fatalf("CleanName(%q) = %q: surrounding or doubled space", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
				t.Fatalf("CleanName(%q) = %q keeps %U", s, got, r)
			}
		}
		if again := CleanName(got); again != got {
			t.Fatalf("CleanName is not idempotent: %q, then %q", got, again)
		}
		_ = Skeletons(got) // never panics either
		_ = Visible(got)
	})
}
