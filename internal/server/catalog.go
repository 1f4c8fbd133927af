package server

import (
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/games"
)

// Catalog is the catalog of the games the service hosts.
func Catalog() *engine.Catalog { return games.Catalog() }
