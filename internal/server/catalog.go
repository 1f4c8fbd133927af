package server

import (
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/g2048"
	"github.com/tabuleiro/tabuleiro/engine/morris"
	"github.com/tabuleiro/tabuleiro/engine/orbito"
	"github.com/tabuleiro/tabuleiro/engine/queens"
)

// Catalog is the catalog of the games the service hosts.
//
// TODO(lead): switch to engine/games.Catalog() once that package lands.
func Catalog() *engine.Catalog {
	return engine.NewCatalog(orbito.Game(), morris.Game(), g2048.Game(), queens.Game())
}
