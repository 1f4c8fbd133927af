package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/store"
)

// testBots checks the bot lists: the cap, one owner's list apart from
// another's, and that a bot's identity is found by its token under its bot
// id (a player saved with an id that is not PlayerID).
func testBots(t *testing.T, s store.Store) {
	b := as[store.Bots](t, s)
	ctx := ctxT(t)
	const max = 3
	for i := range max {
		id := store.BotID(fmt.Sprintf("hash-%d", i))
		if err := b.AddBot(ctx, "pana", store.Bot{ID: id, Name: fmt.Sprintf("robo %d", i)}, max); err != nil {
			t.Fatalf("AddBot %d: %v", i, err)
		}
	}
	if err := b.AddBot(ctx, "pana", store.Bot{ID: store.BotID("hash-x"), Name: "one too many"}, max); !errors.Is(err, store.ErrTooManyBots) {
		t.Fatalf("AddBot past the cap: %v, want ErrTooManyBots", err)
	}
	// A class's bots are counted apart, against their own cap.
	for i := range max {
		id := store.BotID(fmt.Sprintf("hash-turma-%d", i))
		if err := b.AddBot(ctx, "pana", store.Bot{ID: id, Name: fmt.Sprintf(`aluno"turma":true %d`, i), Turma: true}, max); err != nil {
			t.Fatalf("AddBot of class bot %d past the other bots' cap: %v", i, err)
		}
	}
	if err := b.AddBot(ctx, "pana", store.Bot{ID: store.BotID("hash-turma-x"), Name: "aluno x", Turma: true}, max); !errors.Is(err, store.ErrTooManyBots) {
		t.Fatalf("AddBot past the class bots' cap: %v, want ErrTooManyBots", err)
	}
	if err := b.AddBot(ctx, "pbia", store.Bot{ID: store.BotID("hash-y"), Name: "dela"}, max); err != nil {
		t.Fatalf("AddBot of another owner: %v", err)
	}
	got, err := b.OwnerBots(ctx, "pana")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	classes := 0
	for _, g := range got {
		if !store.IsBotID(g.ID) {
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
	if got, err := b.OwnerBots(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Fatalf("OwnerBots(nobody) = %v, %v", got, err)
	}
	// The bot's identity: found by its token, with its bot id.
	p := store.Player{ID: store.BotID("tok-hash"), Name: "robo", TokenHash: "tok-hash"}
	if err := s.SavePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PlayerByToken(ctx, "tok-hash"); err != nil || got != p {
		t.Fatalf("PlayerByToken = %+v, %v; want %+v", got, err, p)
	}
	if store.IsBotID(store.PlayerID("tok-hash")) {
		t.Fatal("a guest's id reads as a bot's")
	}
}

// testPlayerNames checks the names found by id: a person's (its id derived
// from its token) after a rename, a bot account's (a tournament names its
// entrants while they are offline), nothing for an unknown id, and a
// refusal past MaxNameLookups.
func testPlayerNames(t *testing.T, s store.Store) {
	pn := as[store.PlayerNames](t, s)
	ctx := ctxT(t)
	ana := store.Player{ID: store.PlayerID("hash-ana"), Name: "Ana", TokenHash: "hash-ana"}
	bia := store.Player{ID: store.PlayerID("hash-bia"), Name: "Bia", TokenHash: "hash-bia"}
	robo := store.Player{ID: store.BotID("hash-robo"), Name: "Robozinho", TokenHash: "hash-robo"}
	for _, p := range []store.Player{ana, bia, {ID: ana.ID, Name: "Ana Lima", TokenHash: ana.TokenHash}, robo} {
		if err := s.SavePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.PlayerByToken(ctx, robo.TokenHash); err != nil || got != robo {
		t.Fatalf("PlayerByToken(the bot's) = %+v, %v; want %+v", got, err, robo)
	}
	got, err := pn.PlayerNames(ctx, []string{ana.ID, "pnobody", bia.ID, robo.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ana.ID: "Ana Lima", bia.ID: "Bia", robo.ID: "Robozinho"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("PlayerNames = %v, want %v", got, want)
	}
	if got, err := pn.PlayerNames(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("PlayerNames(nil) = %v, %v; want none", got, err)
	}
	if _, err := pn.PlayerNames(ctx, make([]string, store.MaxNameLookups+1)); err == nil {
		t.Errorf("PlayerNames of %d ids: no error", store.MaxNameLookups+1)
	}
}

// testBotsOpen checks a bot account's setting "open to tournaments": set on
// a kept identity only, read back for many ids in one call, kept when the
// identity is saved again (a rename), and cleared.
func testBotsOpen(t *testing.T, s store.Store) {
	b := as[store.Bots](t, s)
	ctx := ctxT(t)
	robo := store.Player{ID: store.BotID("hash-robo"), Name: "Robozinho", TokenHash: "hash-robo"}
	zeca := store.Player{ID: store.BotID("hash-zeca"), Name: "Zeca", TokenHash: "hash-zeca"}
	for _, p := range []store.Player{robo, zeca} {
		if err := s.SavePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.SetBotOpen(ctx, store.BotID("hash-nobody"), true); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetBotOpen of an unknown bot: %v, want ErrNotFound", err)
	}
	if err := b.SetBotOpen(ctx, robo.ID, true); err != nil {
		t.Fatal(err)
	}
	ids := []string{robo.ID, zeca.ID, store.BotID("hash-nobody")}
	if got, err := b.BotsOpen(ctx, ids); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]bool{robo.ID: true}) {
		t.Fatalf("BotsOpen = %v, %v; want only %s", got, err, robo.ID)
	}
	// A rename saves the identity again: the setting stays.
	if err := s.SavePlayer(ctx, store.Player{ID: robo.ID, Name: "Robozão", TokenHash: robo.TokenHash}); err != nil {
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
	if _, err := b.BotsOpen(ctx, make([]string, store.MaxNameLookups+1)); err == nil {
		t.Errorf("BotsOpen of %d ids: no error", store.MaxNameLookups+1)
	}
}

// testTorneioAnswers checks the answers to a tournament's invitations: a
// later answer replaces an earlier one of the same player, tournaments
// apart, none is an empty map.
func testTorneioAnswers(t *testing.T, s store.Store) {
	ts := as[store.Torneios](t, s)
	ctx := ctxT(t)
	if got, err := ts.TorneioAnswers(ctx, "tnone"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("TorneioAnswers of none = %v, %v; want an empty map", got, err)
	}
	for _, a := range [][3]string{{"t1", "pana", "accept"}, {"t1", "pbia", "accept"}, {"t1", "pbia", "decline"}, {"t2", "pana", "start"}} {
		if err := ts.AnswerTorneio(ctx, a[0], a[1], a[2]); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := ts.TorneioAnswers(ctx, "t1"); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]string{"pana": "accept", "pbia": "decline"}) {
		t.Fatalf("TorneioAnswers(t1) = %v, %v", got, err)
	}
	if got, err := ts.TorneioAnswers(ctx, "t2"); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]string{"pana": "start"}) {
		t.Fatalf("TorneioAnswers(t2) = %v, %v", got, err)
	}
	if err := ts.AnswerTorneio(ctx, "t1", "", "accept"); err == nil {
		t.Error("an answer of nobody was kept")
	}
}
