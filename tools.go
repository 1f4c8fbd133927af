//go:build tools

// This file pins modules that the service uses so that go.mod keeps them
// while the packages that import them are written.
package tools

import (
	_ "github.com/gorilla/websocket"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/redis/go-redis/v9"
	_ "go.uber.org/goleak"
	_ "go.uber.org/zap"
)
