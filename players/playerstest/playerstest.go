// Package playerstest is the conformance suite of players.Store: both
// stores (memstore, redisstore) run it, so that they keep the same rules.
//
//	func TestPlayers(t *testing.T) {
//		playerstest.Run(t, func(t *testing.T, guestTTL time.Duration) players.Store {
//			return memstore.New(memstore.WithGuestTTL(guestTTL))
//		})
//	}
package playerstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
)

// Factory returns a new, empty store for one subtest whose guests expire
// after guestTTL. Run closes it when it has a Close method.
type Factory func(t *testing.T, guestTTL time.Duration) players.Store

// Most subtests' stores keep guests for an hour; the ones about expiry for
// expiryTTL.
const (
	longTTL   = time.Hour
	expiryTTL = 2 * time.Second
)

// Run runs every conformance subtest, each on a new store, in parallel.
func Run(t *testing.T, newStore Factory) {
	tests := []struct {
		name  string
		short bool // the store's guests expire after expiryTTL
		fn    func(t *testing.T, s players.Store)
	}{
		{"Players", false, testPlayers},
		{"InvalidInput", false, testInvalidInput},
		{"DerivedPlayerIDs", false, testDerivedPlayerIDs},
		{"GuestsExpireUnlessRenewed", true, testGuestsExpire},
		{"Bots", false, testBots},
		{"PlayerNames", false, testPlayerNames},
		{"BotsOpen", false, testBotsOpen},
		{"MoveToSessionOnce", false, testMoveToSession},
		{"Accounts", false, testAccounts},
		{"AccountNameTakenWithoutCase", false, testNameTaken},
		{"AccountNameOneOfMany", false, testNameConcurrent},
		{"AccountsAndTheirBotsLast", true, testAccountsLast},
		{"CloseAccount", false, testCloseAccount},
		{"LookAlikeNames", false, testLookAlikes},
		{"Sessions", false, testSessions},
		{"SessionsExpire", false, testSessionsExpire},
		{"Failures", false, testFailures},
		{"TakeAndUntake", false, testTake},
		{"SessionsTrimmedLeastRecentlyUsed", false, testTrimSessions},
		{"Devices", false, testDevices},
		{"ContextCancelled", false, testContextCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ttl := longTTL
			if tc.short {
				ttl = expiryTTL
			}
			s := newStore(t, ttl)
			if c, ok := s.(interface{ Close() error }); ok {
				t.Cleanup(func() {
					if err := c.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
			}
			tc.fn(t, s)
		})
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

// guest is a guest identity whose id derives from its token hash.
func guest(hash, name string) players.Identity {
	return players.Identity{ID: players.GuestID(hash), Name: name, TokenHash: hash}
}

func mustSavePlayer(t *testing.T, s players.Store, p players.Identity, lasting bool) {
	t.Helper()
	if err := s.SavePlayer(ctxT(t), p, lasting); err != nil {
		t.Fatalf("SavePlayer(%s): %v", p.ID, err)
	}
}

// account makes the guest of hash an account named name.
func account(t *testing.T, s players.Store, hash, name string) players.Identity {
	t.Helper()
	g := guest(hash, name)
	mustSavePlayer(t, s, g, false)
	a := players.Identity{ID: g.ID, Name: name, PasswordHash: "$argon2id$" + hash, Joined: 1700000000000}
	if err := s.CreateAccount(ctxT(t), a, hash); err != nil {
		t.Fatalf("CreateAccount(%s): %v", name, err)
	}
	return a
}

func testPlayers(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	p := players.Identity{ID: "p1", Name: "Ana", TokenHash: "h1"} // an id made before ids were derived
	mustSavePlayer(t, s, p, false)
	mustSavePlayer(t, s, players.Identity{ID: "p2", Name: "Bia", TokenHash: "h2"}, false)
	got, err := s.PlayerByToken(ctx, "h1")
	if err != nil || got != p {
		t.Fatalf("PlayerByToken(h1) = %+v, %v; want %+v", got, err, p)
	}
	p.Name = "Ana Maria"
	mustSavePlayer(t, s, p, false)
	if got, err := s.PlayerByToken(ctx, "h1"); err != nil || got != p {
		t.Fatalf("PlayerByToken(h1) after rename = %+v, %v; want %+v", got, err, p)
	}
	if got, err := s.PlayerByToken(ctx, "h2"); err != nil || got.ID != "p2" || got.Name != "Bia" {
		t.Fatalf("PlayerByToken(h2) = %+v, %v", got, err)
	}
	if _, err := s.PlayerByToken(ctx, "h3"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("PlayerByToken(h3) error = %v, want ErrNotFound", err)
	}
	// A guest with a derived id is found by its id too.
	g := guest("h4", "Caio")
	mustSavePlayer(t, s, g, false)
	if got, err := s.PlayerByID(ctx, g.ID); err != nil || got != g {
		t.Fatalf("PlayerByID = %+v, %v; want %+v", got, err, g)
	}
	if _, err := s.PlayerByID(ctx, "pnobody"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("PlayerByID(unknown) error = %v, want ErrNotFound", err)
	}
}

func testInvalidInput(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	if err := s.SavePlayer(ctx, players.Identity{ID: "", Name: "x", TokenHash: "h"}, false); err == nil {
		t.Error("SavePlayer with an empty id succeeded")
	}
	if err := s.SavePlayer(ctx, players.Identity{ID: "p", Name: "x", TokenHash: ""}, false); err == nil {
		t.Error("SavePlayer with an empty token hash succeeded")
	}
	if err := s.CreateAccount(ctx, players.Identity{ID: "p", Name: "x"}, ""); err == nil {
		t.Error("CreateAccount without a password hash succeeded")
	}
	if err := s.SaveSession(ctx, players.Session{Hash: "", Player: "p", Expires: time.Now().Add(time.Hour)}); err == nil {
		t.Error("SaveSession with an empty hash succeeded")
	}
	if err := s.SetPassword(ctx, "pnobody", "$argon2id$x"); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("SetPassword of no account: %v, want ErrNotFound", err)
	}
	if err := s.CloseAccount(ctx, "pnobody", time.Hour); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("CloseAccount of no account: %v, want ErrNotFound", err)
	}
}

func testDerivedPlayerIDs(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	if players.GuestID("h") != players.GuestID("h") || players.GuestID("h") == players.GuestID("i") {
		t.Fatal("GuestID is not a function of the token hash alone")
	}
	if id := players.GuestID("h"); len(id) != 17 || !strings.HasPrefix(id, "p") {
		t.Fatalf("GuestID(h) = %q, want p and 16 characters", id)
	}
	p := guest("tok", "Ana")
	mustSavePlayer(t, s, p, false)
	if got, err := s.PlayerByToken(ctx, "tok"); err != nil || got != p {
		t.Fatalf("PlayerByToken = %+v, %v; want %+v", got, err, p)
	}
	// Another token whose derived id nobody saved is not found, even if
	// its hash was someone's id.
	if _, err := s.PlayerByToken(ctx, p.ID); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("PlayerByToken of an id: %v, want ErrNotFound", err)
	}
}

func testGuestsExpire(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	kept := guest("kept", "Ana")
	idle := guest("idle", "Bia")
	old := players.Identity{ID: "p-random-old", Name: "Caio", TokenHash: "old"} // an id made before ids were derived
	byID := guest("byid", "Duda")
	for _, p := range []players.Identity{kept, idle, old, byID} {
		mustSavePlayer(t, s, p, false)
	}
	saved := time.Now()
	// Half way, two of them say hello and one is found by its session's
	// id: it renews them.
	sleepUntil(saved.Add(expiryTTL / 2))
	for _, p := range []players.Identity{kept, old} {
		if got, err := s.PlayerByToken(ctx, p.TokenHash); err != nil || got != p {
			t.Fatalf("PlayerByToken(%s) half way: %+v, %v", p.TokenHash, got, err)
		}
	}
	if got, err := s.PlayerByID(ctx, byID.ID); err != nil || got != byID {
		t.Fatalf("PlayerByID half way: %+v, %v", got, err)
	}
	renewed := time.Now()
	// Past the first expiry, before the renewed one.
	sleepUntil(saved.Add(expiryTTL + expiryTTL/5))
	if time.Since(renewed) < expiryTTL { // checked only if the machine kept time
		for _, p := range []players.Identity{kept, old, byID} {
			if got, err := s.PlayerByToken(ctx, p.TokenHash); err != nil || got != p {
				t.Fatalf("PlayerByToken(%s) renewed: %+v, %v", p.TokenHash, got, err)
			}
		}
	}
	if _, err := s.PlayerByToken(ctx, "idle"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("an identity idle past the guest TTL: error %v, want ErrNotFound", err)
	}
	// Nobody's hello again: everyone goes.
	sleepUntil(time.Now().Add(expiryTTL + expiryTTL/5))
	for _, p := range []players.Identity{kept, old, byID} {
		if _, err := s.PlayerByToken(ctx, p.TokenHash); !errors.Is(err, players.ErrNotFound) {
			t.Fatalf("PlayerByToken(%s) idle past the guest TTL: error %v, want ErrNotFound", p.TokenHash, err)
		}
	}
}

// testBots checks the bot lists: the cap, one owner's list apart from
// another's, and that a bot's identity is found by its token under its bot
// id (a player saved with an id that is not GuestID).
func testBots(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	const max = 3
	for i := range max {
		id := players.BotID(fmt.Sprintf("hash-%d", i))
		if err := s.AddBot(ctx, "pana", players.Bot{ID: id, Name: fmt.Sprintf("robo %d", i)}, max, false); err != nil {
			t.Fatalf("AddBot %d: %v", i, err)
		}
	}
	if err := s.AddBot(ctx, "pana", players.Bot{ID: players.BotID("hash-x"), Name: "one too many"}, max, false); !errors.Is(err, players.ErrTooManyBots) {
		t.Fatalf("AddBot past the cap: %v, want ErrTooManyBots", err)
	}
	// A class's bots are counted apart, against their own cap.
	for i := range max {
		id := players.BotID(fmt.Sprintf("hash-turma-%d", i))
		if err := s.AddBot(ctx, "pana", players.Bot{ID: id, Name: fmt.Sprintf(`aluno"turma":true %d`, i), Turma: true}, max, false); err != nil {
			t.Fatalf("AddBot of class bot %d past the other bots' cap: %v", i, err)
		}
	}
	if err := s.AddBot(ctx, "pana", players.Bot{ID: players.BotID("hash-turma-x"), Name: "aluno x", Turma: true}, max, false); !errors.Is(err, players.ErrTooManyBots) {
		t.Fatalf("AddBot past the class bots' cap: %v, want ErrTooManyBots", err)
	}
	if err := s.AddBot(ctx, "pbia", players.Bot{ID: players.BotID("hash-y"), Name: "dela"}, max, false); err != nil {
		t.Fatalf("AddBot of another owner: %v", err)
	}
	got, err := s.OwnerBots(ctx, "pana")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	classes := 0
	for _, g := range got {
		if !players.IsBotID(g.ID) {
			t.Errorf("bot id %q is not a bot id", g.ID)
		}
		if g.Turma {
			classes++
			continue
		}
		names = append(names, g.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "robo 0,robo 1,robo 2" || classes != max {
		t.Fatalf("OwnerBots = %v", names)
	}
	if got, err := s.OwnerBots(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Fatalf("OwnerBots(nobody) = %v, %v", got, err)
	}
	// The bot's identity: found by its token and by its id, with its bot
	// id and its owner, whom a save without one (a rename) keeps.
	p := players.Identity{ID: players.BotID("tok-hash"), Name: "robo", TokenHash: "tok-hash", Owner: "pana"}
	mustSavePlayer(t, s, p, false)
	if got, err := s.PlayerByToken(ctx, "tok-hash"); err != nil || got != p {
		t.Fatalf("PlayerByToken = %+v, %v; want %+v", got, err, p)
	}
	renamed := p
	renamed.Name, renamed.Owner = "robo novo", ""
	mustSavePlayer(t, s, renamed, false)
	renamed.Owner = "pana"
	if got, err := s.PlayerByID(ctx, p.ID); err != nil || got != renamed {
		t.Fatalf("PlayerByID after a rename = %+v, %v; want %+v", got, err, renamed)
	}
	if players.IsBotID(players.GuestID("tok-hash")) {
		t.Fatal("a guest's id reads as a bot's")
	}
}

// testPlayerNames checks the names found by id: a person's (its id derived
// from its token) after a rename, a bot account's, an account's, nothing for
// an unknown id, and a refusal past MaxNameLookups.
func testPlayerNames(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	ana := guest("hash-ana", "Ana")
	bia := guest("hash-bia", "Bia")
	robo := players.Identity{ID: players.BotID("hash-robo"), Name: "Robozinho", TokenHash: "hash-robo"}
	for _, p := range []players.Identity{ana, bia, {ID: ana.ID, Name: "Ana Lima", TokenHash: ana.TokenHash}, robo} {
		mustSavePlayer(t, s, p, false)
	}
	caio := account(t, s, "hash-caio", "caio")
	if got, err := s.PlayerByToken(ctx, robo.TokenHash); err != nil || got != robo {
		t.Fatalf("PlayerByToken(the bot's) = %+v, %v; want %+v", got, err, robo)
	}
	got, err := s.PlayerNames(ctx, []string{ana.ID, "pnobody", bia.ID, robo.ID, caio.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ana.ID: "Ana Lima", bia.ID: "Bia", robo.ID: "Robozinho", caio.ID: "caio"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("PlayerNames = %v, want %v", got, want)
	}
	if got, err := s.PlayerNames(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("PlayerNames(nil) = %v, %v; want none", got, err)
	}
	if _, err := s.PlayerNames(ctx, make([]string, players.MaxNameLookups+1)); err == nil {
		t.Errorf("PlayerNames of %d ids: no error", players.MaxNameLookups+1)
	}
}

// testAccounts checks a guest becoming an account: found by name without
// case and by id, its token retired, its password replaced, and a second
// conversion of the same id refused.
func testAccounts(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	a := account(t, s, "tok-ana", "Ana_Lima")
	for _, n := range []string{"Ana_Lima", "ana_lima", "ANA_LIMA"} {
		if got, err := s.AccountByKey(ctx, players.NameKey(n)); err != nil || got != a {
			t.Fatalf("AccountByKey(%s) = %+v, %v; want %+v", n, got, err, a)
		}
	}
	if got, err := s.PlayerByID(ctx, a.ID); err != nil || got != a {
		t.Fatalf("PlayerByID = %+v, %v; want %+v", got, err, a)
	}
	if _, err := s.PlayerByToken(ctx, "tok-ana"); !errors.Is(err, players.ErrRetired) {
		t.Fatalf("PlayerByToken of the retired guest token: %v, want ErrRetired", err)
	}
	if _, err := s.AccountByKey(ctx, players.NameKey("nobody")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("AccountByKey(nobody): %v, want ErrNotFound", err)
	}
	// A guest is no account.
	g := guest("tok-bia", "Bia")
	mustSavePlayer(t, s, g, false)
	if _, err := s.AccountByKey(ctx, players.NameKey("Bia")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("AccountByKey of a guest's name: %v, want ErrNotFound", err)
	}
	if err := s.SetPassword(ctx, g.ID, "$argon2id$new"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("SetPassword of a guest: %v, want ErrNotFound", err)
	}
	if err := s.SetPassword(ctx, a.ID, "$argon2id$new"); err != nil {
		t.Fatal(err)
	}
	a.PasswordHash = "$argon2id$new"
	if got, err := s.AccountByKey(ctx, players.NameKey("ana_lima")); err != nil || got != a {
		t.Fatalf("after SetPassword: %+v, %v; want %+v", got, err, a)
	}
	// The same id cannot become an account twice (under another name).
	twice := players.Identity{ID: a.ID, Name: "other", PasswordHash: "$argon2id$x", Joined: 2}
	if err := s.CreateAccount(ctx, twice, ""); err == nil {
		t.Fatal("a second CreateAccount of the same id succeeded")
	}
	if _, err := s.AccountByKey(ctx, players.NameKey("other")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("the refused second account's name: %v, want ErrNotFound", err)
	}
	// A saved guest identity never overwrites an account.
	if err := s.SavePlayer(ctx, players.Identity{ID: a.ID, Name: "x", TokenHash: "tok-other"}, false); err == nil {
		t.Fatal("SavePlayer over an account succeeded")
	}
	// A new account without a guest.
	fresh := players.Identity{ID: players.GuestID("fresh"), Name: "caio", PasswordHash: "$argon2id$c", Joined: 3}
	if err := s.CreateAccount(ctx, fresh, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := s.AccountByKey(ctx, players.NameKey("Caio")); err != nil || got != fresh {
		t.Fatalf("AccountByKey(Caio) = %+v, %v", got, err)
	}
}

func testNameTaken(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	account(t, s, "tok-a", "Maria")
	g := guest("tok-b", "guest")
	mustSavePlayer(t, s, g, false)
	taken := players.Identity{ID: g.ID, Name: "mARIA", PasswordHash: "$argon2id$b", Joined: 1}
	if err := s.CreateAccount(ctx, taken, g.TokenHash); !errors.Is(err, players.ErrNameTaken) {
		t.Fatalf("CreateAccount with a taken name in other case: %v, want ErrNameTaken", err)
	}
	// Nothing changed: the guest is still a guest, found by its token.
	if got, err := s.PlayerByToken(ctx, g.TokenHash); err != nil || got != g {
		t.Fatalf("the refused guest: %+v, %v; want %+v", got, err, g)
	}
}

// testNameConcurrent: several guests claim one name at once; one wins.
func testNameConcurrent(t *testing.T, s players.Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		g := guest(fmt.Sprintf("tok-%d", i), "g")
		mustSavePlayer(t, s, g, false)
		wg.Go(func() {
			errs[i] = s.CreateAccount(context.Background(),
				players.Identity{ID: g.ID, Name: fmt.Sprintf("Same%c", "Nn"[i%2]), PasswordHash: "$argon2id$", Joined: 1}, g.TokenHash)
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, players.ErrNameTaken):
			t.Errorf("claim %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d claims of one name won, want 1", won)
	}
}

// testAccountsLast: on a store whose guests expire after expiryTTL, an
// account and the bots it had as a guest outlive it; a guest's do not.
func testAccountsLast(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	g := guest("tok-owner", "owner")
	mustSavePlayer(t, s, g, false)
	bot := players.Identity{ID: players.BotID("tok-bot"), Name: "robo", TokenHash: "tok-bot"}
	mustSavePlayer(t, s, bot, false)
	if err := s.AddBot(ctx, g.ID, players.Bot{ID: bot.ID, Name: bot.Name}, 5, false); err != nil {
		t.Fatal(err)
	}
	other := guest("tok-other", "other")
	mustSavePlayer(t, s, other, false)
	a := players.Identity{ID: g.ID, Name: "owner", PasswordHash: "$argon2id$o", Joined: 1}
	if err := s.CreateAccount(ctx, a, g.TokenHash); err != nil {
		t.Fatal(err)
	}
	// A bot the account registers afterwards lasts too.
	later := players.Identity{ID: players.BotID("tok-later"), Name: "later", TokenHash: "tok-later"}
	if err := s.AddBot(ctx, a.ID, players.Bot{ID: later.ID, Name: later.Name}, 5, true); err != nil {
		t.Fatal(err)
	}
	mustSavePlayer(t, s, later, true)
	sleepUntil(time.Now().Add(expiryTTL + expiryTTL/2))
	if got, err := s.PlayerByID(ctx, a.ID); err != nil || got != a {
		t.Fatalf("the account past the guest TTL: %+v, %v", got, err)
	}
	for _, b := range []players.Identity{bot, later} {
		if got, err := s.PlayerByToken(ctx, b.TokenHash); err != nil || got != b {
			t.Fatalf("the account's bot %s past the guest TTL: %+v, %v", b.Name, got, err)
		}
	}
	if bots, err := s.OwnerBots(ctx, a.ID); err != nil || len(bots) != 2 {
		t.Fatalf("the account's bots past the guest TTL: %v, %v", bots, err)
	}
	if _, err := s.PlayerByToken(ctx, other.TokenHash); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("a guest past the guest TTL: %v, want ErrNotFound", err)
	}
}

func testCloseAccount(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	a := account(t, s, "tok-ana", "ana")
	bot := players.Identity{ID: players.BotID("tok-bot"), Name: "robo", TokenHash: "tok-bot"}
	if err := s.AddBot(ctx, a.ID, players.Bot{ID: bot.ID, Name: bot.Name}, 5, true); err != nil {
		t.Fatal(err)
	}
	mustSavePlayer(t, s, bot, true)
	exp := time.Now().Add(time.Hour)
	for _, h := range []string{"s1", "s2"} {
		if err := s.SaveSession(ctx, players.Session{Hash: h, Player: a.ID, Created: time.Now(), Expires: exp}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddDevice(ctx, a.ID, "dev", 10, time.Hour); err != nil {
		t.Fatal(err)
	}
	other := account(t, s, "tok-bia", "bia")
	if err := s.SaveSession(ctx, players.Session{Hash: "s3", Player: other.ID, Created: time.Now(), Expires: exp}); err != nil {
		t.Fatal(err)
	}
	const hold = 2 * time.Second
	if err := s.CloseAccount(ctx, a.ID, hold); err != nil {
		t.Fatal(err)
	}
	closed := time.Now()
	if _, err := s.PlayerByID(ctx, a.ID); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("PlayerByID of a closed account: %v, want ErrNotFound", err)
	}
	if _, err := s.AccountByKey(ctx, players.NameKey("ana")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("AccountByKey of a closed account: %v, want ErrNotFound", err)
	}
	for _, h := range []string{"s1", "s2"} {
		if _, err := s.SessionByHash(ctx, h); !errors.Is(err, players.ErrNotFound) {
			t.Fatalf("a closed account's session %s: %v, want ErrNotFound", h, err)
		}
	}
	if _, err := s.PlayerByToken(ctx, bot.TokenHash); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("a closed account's bot: %v, want ErrNotFound", err)
	}
	if bots, err := s.OwnerBots(ctx, a.ID); err != nil || len(bots) != 0 {
		t.Fatalf("a closed account's bot list: %v, %v", bots, err)
	}
	if ok, err := s.KnownDevice(ctx, a.ID, "dev"); err != nil || ok {
		t.Fatalf("a closed account's device: %v, %v", ok, err)
	}
	// Another account is untouched.
	if _, err := s.SessionByHash(ctx, "s3"); err != nil {
		t.Fatalf("another account's session: %v", err)
	}
	// The name is held, then free.
	g := guest("tok-new", "new")
	mustSavePlayer(t, s, g, false)
	claim := players.Identity{ID: g.ID, Name: "ANA", PasswordHash: "$argon2id$n", Joined: 2}
	if err := s.CreateAccount(ctx, claim, g.TokenHash); !errors.Is(err, players.ErrNameTaken) {
		t.Fatalf("claiming a closed account's held name: %v, want ErrNameTaken", err)
	}
	sleepUntil(closed.Add(hold + hold/4))
	if err := s.CreateAccount(ctx, claim, g.TokenHash); err != nil {
		t.Fatalf("claiming a closed account's name after its hold: %v", err)
	}
}

func testSessions(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	now := time.Now().Truncate(time.Millisecond)
	exp := now.Add(time.Hour)
	mk := func(h, p string) players.Session {
		return players.Session{Hash: h, Player: p, Created: now, Expires: exp}
	}
	for _, se := range []players.Session{mk("a1", "pa"), mk("a2", "pa"), mk("a3", "pa"), mk("b1", "pb")} {
		if err := s.SaveSession(ctx, se); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SessionByHash(ctx, "a2")
	if err != nil || !sameSession(got, mk("a2", "pa")) {
		t.Fatalf("SessionByHash(a2) = %+v, %v", got, err)
	}
	if _, err := s.SessionByHash(ctx, "zz"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("SessionByHash(unknown): %v, want ErrNotFound", err)
	}
	// Renewed: a later expiry.
	renewed := mk("a2", "pa")
	renewed.Expires = exp.Add(time.Hour)
	if err := s.SaveSession(ctx, renewed); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionByHash(ctx, "a2"); err != nil || !sameSession(got, renewed) {
		t.Fatalf("renewed session = %+v, %v; want %+v", got, err, renewed)
	}
	// A hash is never another player's.
	if err := s.SaveSession(ctx, mk("a2", "pb")); err == nil {
		t.Fatal("SaveSession of pa's hash for pb succeeded")
	}
	list := func(p string) []string {
		ss, err := s.PlayerSessions(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var hs []string
		for _, se := range ss {
			hs = append(hs, se.Hash)
		}
		slices.Sort(hs)
		return hs
	}
	if got := list("pa"); !slices.Equal(got, []string{"a1", "a2", "a3"}) {
		t.Fatalf("PlayerSessions(pa) = %v", got)
	}
	if err := s.DeleteSession(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "a1"); err != nil {
		t.Fatalf("deleting a deleted session: %v", err)
	}
	if _, err := s.SessionByHash(ctx, "a1"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("a deleted session: %v, want ErrNotFound", err)
	}
	if err := s.DeleteSessions(ctx, "pa", "a3"); err != nil {
		t.Fatal(err)
	}
	if got := list("pa"); !slices.Equal(got, []string{"a3"}) {
		t.Fatalf("PlayerSessions(pa) after deleting all but a3 = %v", got)
	}
	if err := s.DeleteSessions(ctx, "pa", ""); err != nil {
		t.Fatal(err)
	}
	if got := list("pa"); len(got) != 0 {
		t.Fatalf("PlayerSessions(pa) after deleting all = %v", got)
	}
	if got := list("pb"); !slices.Equal(got, []string{"b1"}) {
		t.Fatalf("PlayerSessions(pb) = %v: another player's sessions changed", got)
	}
}

// sameSession compares sessions to the millisecond the stores keep.
func sameSession(a, b players.Session) bool {
	return a.Hash == b.Hash && a.Player == b.Player && a.Created.UnixMilli() == b.Created.UnixMilli() &&
		a.Expires.UnixMilli() == b.Expires.UnixMilli()
}

func testSessionsExpire(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	start := time.Now()
	se := players.Session{Hash: "short", Player: "pa", Created: start, Expires: start.Add(expiryTTL)}
	if err := s.SaveSession(ctx, se); err != nil {
		t.Fatal(err)
	}
	long := players.Session{Hash: "long", Player: "pa", Created: start, Expires: start.Add(time.Hour)}
	if err := s.SaveSession(ctx, long); err != nil {
		t.Fatal(err)
	}
	sleepUntil(start.Add(expiryTTL + expiryTTL/4))
	if _, err := s.SessionByHash(ctx, "short"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("a session past its expiry: %v, want ErrNotFound", err)
	}
	if ss, err := s.PlayerSessions(ctx, "pa"); err != nil || len(ss) != 1 || ss[0].Hash != "long" {
		t.Fatalf("PlayerSessions after one expired = %+v, %v", ss, err)
	}
}

func testFailures(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	const window = 2 * time.Second
	start := time.Now()
	for range 3 {
		if err := s.Fail(ctx, []string{"addr:1", "name:ana"}, window); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Fail(ctx, []string{"addr:2"}, window); err != nil {
		t.Fatal(err)
	}
	got, err := s.FailureCounts(ctx, []string{"addr:1", "name:ana", "addr:2", "addr:3"})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < window/2 { // checked only if the machine kept time
		want := []int64{3, 3, 1, 0}
		for i, f := range got {
			if f.N != want[i] {
				t.Fatalf("FailureCounts = %+v, want counts %v", got, want)
			}
			if (f.N > 0) != (f.Left > 0) || f.Left > window {
				t.Fatalf("FailureCounts[%d] = %+v: time left out of (0, %v]", i, f, window)
			}
		}
	}
	sleepUntil(start.Add(window + window/4))
	got, err = s.FailureCounts(ctx, []string{"addr:1", "name:ana"})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range got {
		if f.N != 0 {
			t.Fatalf("FailureCounts[%d] past the window = %+v, want 0", i, f)
		}
	}
}

func testDevices(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	const max = 3
	for i := range max + 1 {
		if err := s.AddDevice(ctx, "pa", fmt.Sprintf("d%d", i), max, time.Hour); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // the order of the additions
	}
	for i, want := range []bool{false, true, true, true} {
		if ok, err := s.KnownDevice(ctx, "pa", fmt.Sprintf("d%d", i)); err != nil || ok != want {
			t.Fatalf("KnownDevice(d%d) = %v, %v; want %v (the oldest of %d dropped)", i, ok, err, want, max+1)
		}
	}
	if ok, err := s.KnownDevice(ctx, "pb", "d1"); err != nil || ok {
		t.Fatalf("another player's device: %v, %v", ok, err)
	}
}

func testContextCancelled(t *testing.T, s players.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"SavePlayer":    func() error { return s.SavePlayer(ctx, guest("h", "n"), false) },
		"PlayerByToken": func() error { _, err := s.PlayerByToken(ctx, "h"); return err },
		"PlayerByID":    func() error { _, err := s.PlayerByID(ctx, "p"); return err },
		"CreateAccount": func() error {
			return s.CreateAccount(ctx, players.Identity{ID: "p", Name: "n", PasswordHash: "x"}, "")
		},
		"AccountByKey": func() error { _, err := s.AccountByKey(ctx, players.NameKey("n")); return err },
		"SaveSession": func() error {
			return s.SaveSession(ctx, players.Session{Hash: "h", Player: "p", Expires: time.Now().Add(time.Hour)})
		},
		"SessionByHash": func() error { _, err := s.SessionByHash(ctx, "h"); return err },
		"Fail":          func() error { return s.Fail(ctx, []string{"k"}, time.Minute) },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", name, err)
		}
	}
	if _, err := s.AccountByKey(context.Background(), players.NameKey("n")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("a cancelled CreateAccount made an account: %v", err)
	}
}

// testBotsOpen checks a bot account's setting "open to tournaments": set on
// a kept identity only, read back for many ids in one call, kept when the
// identity is saved again (a rename), and cleared.
func testBotsOpen(t *testing.T, s players.Store) {
	b := s
	ctx := ctxT(t)
	robo := players.Identity{ID: players.BotID("hash-robo"), Name: "Robozinho", TokenHash: "hash-robo"}
	zeca := players.Identity{ID: players.BotID("hash-zeca"), Name: "Zeca", TokenHash: "hash-zeca"}
	for _, p := range []players.Identity{robo, zeca} {
		if err := s.SavePlayer(ctx, p, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.SetBotOpen(ctx, players.BotID("hash-nobody"), true); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("SetBotOpen of an unknown bot: %v, want ErrNotFound", err)
	}
	if err := b.SetBotOpen(ctx, robo.ID, true); err != nil {
		t.Fatal(err)
	}
	ids := []string{robo.ID, zeca.ID, players.BotID("hash-nobody")}
	if got, err := b.BotsOpen(ctx, ids); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]bool{robo.ID: true}) {
		t.Fatalf("BotsOpen = %v, %v; want only %s", got, err, robo.ID)
	}
	// A rename saves the identity again: the setting stays.
	if err := s.SavePlayer(ctx, players.Identity{ID: robo.ID, Name: "Robozão", TokenHash: robo.TokenHash}, false); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PlayerByToken(ctx, robo.TokenHash); err != nil || got.Name != "Robozão" {
		t.Fatalf("PlayerByToken after the setting = %+v, %v", got, err)
	}
	if got, err := b.BotsOpen(ctx, ids); err != nil || !got[robo.ID] {
		t.Fatalf("after a rename BotsOpen = %v, %v; the setting was lost", got, err)
	}
	if err := b.SetBotOpen(ctx, robo.ID, false); err != nil {
		t.Fatal(err)
	}
	if got, err := b.BotsOpen(ctx, ids); err != nil || len(got) != 0 {
		t.Fatalf("after closing BotsOpen = %v, %v; want none", got, err)
	}
	if _, err := b.BotsOpen(ctx, make([]string, players.MaxNameLookups+1)); err == nil {
		t.Errorf("BotsOpen of %d ids: no error", players.MaxNameLookups+1)
	}
}

// testMoveToSession checks that a guest's token moves into a session once:
// the second claim is ErrMoved, a rename keeps the claim, and neither an
// unknown id nor an account can be claimed.
func testMoveToSession(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	g := guest("hash-move", "Kate")
	mustSavePlayer(t, s, g, false)
	if err := s.MoveToSession(ctx, g.ID); err != nil {
		t.Fatalf("the first MoveToSession: %v", err)
	}
	if err := s.MoveToSession(ctx, g.ID); !errors.Is(err, players.ErrMoved) {
		t.Fatalf("the second MoveToSession: %v, want ErrMoved", err)
	}
	g.Name = "Kate Lima"
	mustSavePlayer(t, s, g, false) // a rename
	if err := s.MoveToSession(ctx, g.ID); !errors.Is(err, players.ErrMoved) {
		t.Fatalf("MoveToSession after a rename: %v, want ErrMoved", err)
	}
	other := guest("hash-other", "Bia")
	mustSavePlayer(t, s, other, false)
	if err := s.MoveToSession(ctx, other.ID); err != nil {
		t.Fatalf("another guest's first MoveToSession: %v", err)
	}
	if err := s.MoveToSession(ctx, players.GuestID("hash-nobody")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("MoveToSession of nobody: %v, want ErrNotFound", err)
	}
	a := account(t, s, "hash-acct", "conta")
	if err := s.MoveToSession(ctx, a.ID); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("MoveToSession of an account: %v, want ErrNotFound", err)
	}
}

// testTake checks the counts a sign-in takes before its hash: Take counts
// and answers the counts after it, Untake gives one back and never goes
// below zero nor makes a count, and the keys are Fail's and
// FailureCounts' (one counter).
func testTake(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	const window = time.Minute
	for i := int64(1); i <= 3; i++ {
		got, err := s.Take(ctx, []string{"in-addr:1", "in-name:kate"}, window)
		if err != nil || len(got) != 2 || got[0].N != i || got[1].N != i || got[0].Left <= 0 || got[0].Left > window {
			t.Fatalf("Take #%d = %+v, %v; want counts %d with time left in (0, %v]", i, got, err, i, window)
		}
	}
	if err := s.Untake(ctx, []string{"in-addr:1", "in-nobody"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.FailureCounts(ctx, []string{"in-addr:1", "in-name:kate", "in-nobody"})
	if err != nil || got[0].N != 2 || got[1].N != 3 || got[2].N != 0 {
		t.Fatalf("after one Untake: %+v, %v; want 2, 3 and 0", got, err)
	}
	for range 5 {
		if err := s.Untake(ctx, []string{"in-addr:1"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Take(ctx, []string{"in-addr:1", "in-nobody"}, window); err != nil || got[0].N != 1 || got[1].N != 1 {
		t.Fatalf("Take after giving back more than was taken: %+v, %v; want 1 and 1 (never below zero)", got, err)
	}
}

// testTrimSessions checks the cap on a player's sessions: nothing ends
// within it; past it the least recently used (soonest Expires) go, never
// the one kept, and another player's are untouched.
func testTrimSessions(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	now := time.Now().Truncate(time.Millisecond)
	const max = 5
	for i := range max {
		// s0 expires first: the least recently used.
		se := players.Session{Hash: fmt.Sprintf("s%d", i), Player: "pa", Created: now, Expires: now.Add(time.Hour + time.Duration(i)*time.Minute)}
		if err := s.SaveSession(ctx, se); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveSession(ctx, players.Session{Hash: "other", Player: "pb", Created: now, Expires: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if ended, err := s.TrimSessions(ctx, "pa", max, "s4"); err != nil || len(ended) != 0 {
		t.Fatalf("TrimSessions within the cap ended %v, %v", ended, err)
	}
	// s1 was used again: renewed past the others.
	if err := s.SaveSession(ctx, players.Session{Hash: "s1", Player: "pa", Created: now, Expires: now.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// Two more sign-ins, the newest kept: s0 and s2 go.
	for _, h := range []string{"new1", "new2"} {
		if err := s.SaveSession(ctx, players.Session{Hash: h, Player: "pa", Created: now, Expires: now.Add(time.Hour + 10*time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	ended, err := s.TrimSessions(ctx, "pa", max, "new2")
	slices.Sort(ended)
	if err != nil || !slices.Equal(ended, []string{"s0", "s2"}) {
		t.Fatalf("TrimSessions past the cap ended %v, %v; want the least recently used s0 and s2", ended, err)
	}
	live, err := s.PlayerSessions(ctx, "pa")
	if err != nil || len(live) != max {
		t.Fatalf("after TrimSessions: %d live sessions, %v; want %d", len(live), err, max)
	}
	var hs []string
	for _, se := range live {
		hs = append(hs, se.Hash)
	}
	if !slices.Contains(hs, "new2") || !slices.Contains(hs, "s1") || slices.Contains(hs, "s0") {
		t.Fatalf("live after TrimSessions: %v; want the kept new2 and the renewed s1, not the least recently used s0", hs)
	}
	for _, h := range ended {
		if _, err := s.SessionByHash(ctx, h); !errors.Is(err, players.ErrNotFound) {
			t.Fatalf("ended session %s still found: %v", h, err)
		}
	}
	if _, err := s.SessionByHash(ctx, "other"); err != nil {
		t.Fatalf("another player's session: %v", err)
	}
}

// testLookAlikes checks the skeletons of the accounts' names: one read
// finds an account whose name looks like a guest's, an account's own is
// not held against it, a look-alike account is refused (ErrLookAlike, and
// its name stays free), and a closed account's skeletons are held with its
// name.
func testLookAlikes(t *testing.T, s players.Store) {
	ctx := ctxT(t)
	kate := account(t, s, "hash-kate", "Kate")
	for _, name := range []string{"kate", "k\u0430te", "\uff4b\uff41\uff54\uff45", "kate\u0301", "KATE"} {
		if held, err := s.SkeletonHeld(ctx, players.Skeletons(name), ""); err != nil || !held {
			t.Errorf("SkeletonHeld(%q) = %v, %v; want true (account Kate)", name, held, err)
		}
		if held, err := s.SkeletonHeld(ctx, players.Skeletons(name), kate.ID); err != nil || held {
			t.Errorf("SkeletonHeld(%q) for Kate herself = %v, %v; want false", name, held, err)
		}
	}
	for _, name := range []string{"Ana", "João", "katia"} {
		if held, err := s.SkeletonHeld(ctx, players.Skeletons(name), ""); err != nil || held {
			t.Errorf("SkeletonHeld(%q) = %v, %v; want false", name, held, err)
		}
	}
	m := account(t, s, "hash-mia", "mia")
	g := guest("hash-rnia", "rnia")
	mustSavePlayer(t, s, g, false)
	err := s.CreateAccount(ctx, players.Identity{ID: g.ID, Name: "rnia", PasswordHash: "$argon2id$rnia", Joined: 1}, g.TokenHash)
	if !errors.Is(err, players.ErrLookAlike) || !errors.Is(err, players.ErrNameTaken) {
		t.Fatalf("CreateAccount(rnia) beside mia: %v, want ErrLookAlike", err)
	}
	if _, err := s.AccountByKey(ctx, players.NameKey("rnia")); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("the refused look-alike's name: %v, want it free", err)
	}
	if got, err := s.PlayerByToken(ctx, g.TokenHash); err != nil || got.Account() {
		t.Fatalf("the refused guest: %+v, %v; want it a guest still", got, err)
	}
	account(t, s, "hash-rnb", "rnb") // its own skeletons, free
	if err := s.CloseAccount(ctx, m.ID, time.Hour); err != nil {
		t.Fatal(err)
	}
	if held, err := s.SkeletonHeld(ctx, players.Skeletons("rnia"), ""); err != nil || !held {
		t.Fatalf("a closed account's skeleton: held %v, %v; want held with its name", held, err)
	}
	if n, err := s.IndexSkeletons(ctx); err != nil {
		t.Fatalf("IndexSkeletons: %d, %v", n, err)
	}
	if held, err := s.SkeletonHeld(ctx, players.Skeletons("kate"), ""); err != nil || !held {
		t.Fatalf("after IndexSkeletons: held %v, %v", held, err)
	}
}
