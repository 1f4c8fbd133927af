package torneio

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestGetNamesOldTorneio: a finished tournament saved before entrants had
// names is answered with them, looked up in one call (the store's names for
// persons, the label where nothing is known), standings included.
func TestGetNamesOldTorneio(t *testing.T) {
	st := memstore.New()
	ctx := context.Background()
	ana := players.Identity{ID: players.GuestID("hash-ana"), Name: "Ana", TokenHash: "hash-ana"}
	if err := st.SavePlayer(ctx, ana, false); err != nil {
		t.Fatal(err)
	}
	old := `{"id":"told","game":"queens","status":"finished","owner":"x","created":"2030-01-02T03:04:05Z",` +
		`"entrants":[{"player":"` + ana.ID + `"},{"level":"gulosa"},{"player":"pgone"}],"partidas":[["tradicional",1]],` +
		`"standings":[{"player":"` + ana.ID + `","played":0,"won":0,"drawn":0,"lost":0,"share":0},{"level":"gulosa"},{"player":"pgone"}],"games":[]}`
	if err := st.SaveTorneio(ctx, store.Torneio{ID: "told", Data: []byte(old), Finished: true, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	h := start(t, st)
	calls := 0
	h.t.cfg.Names = func(ctx context.Context, ids []string) map[string]string {
		calls++
		names, err := st.PlayerNames(ctx, ids)
		if err != nil {
			t.Error(err)
		}
		return names
	}
	v, err := h.t.Get(ctx, "told")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Ana", "bot gulosa", "pgone"}
	for i, w := range want {
		if v.Entrants[i].Name != w || v.Standings[i].Name != w {
			t.Errorf("entrant %d: %q, standing %q; want %q", i, v.Entrants[i].Name, v.Standings[i].Name, w)
		}
	}
	if calls != 1 {
		t.Errorf("%d lookups, want 1", calls)
	}
	list, err := h.t.List(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if got, _ := json.Marshal(list[0].Names); string(got) != `["Ana","bot gulosa","pgone"]` {
		t.Errorf("summary names %s", got)
	}
	if l := list[0].Lineup; len(l) != 3 || l[0].Player != ana.ID || l[0].Name != "Ana" || l[1].Level != "gulosa" {
		t.Errorf("summary lineup %+v", l)
	}
}
