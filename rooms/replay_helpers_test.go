package rooms

import (
	"context"
	"math/rand/v2"
	"testing"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/morris"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// backendStore is a new store of the backend named, "memstore" or "redis"
// (a real Redis, internal/testkit/redistest), closed when t ends.
func backendStore(t *testing.T, backend string) store.Store {
	t.Helper()
	if backend != "redis" {
		return memstore.New()
	}
	addr := redistest.Start(t)
	rs, err := redisstore.New(context.Background(), addr, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	return rs
}

// randomMove is a random legal move of the seat to move in st, not a pass
// while there is another move.
func randomMove(rng *rand.Rand, st engine.State) (int, string) {
	seat, _ := st.Turn()
	legal := st.Legal(seat)
	mv := legal[rng.IntN(len(legal))]
	for mv == "pass" && len(legal) > 1 {
		mv = legal[rng.IntN(len(legal))]
	}
	return seat, mv
}

// storedRoom loads the room from st and gives its snapshot as a restore
// sees it: the last one written, with the moves saved since replayed
// (Manager.SnapshotOf).
func storedRoom(t *testing.T, st store.Store, id string) (store.Room, []byte) {
	t.Helper()
	saved, err := st.LoadRoom(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{}, morris.Game()), Log: zap.NewNop()})
	snap, err := m.SnapshotOf(saved)
	if err != nil {
		t.Fatal(err)
	}
	return saved, snap
}
