// Package crashtest holds the crash test of the real binary: it builds
// cmd/lobby, runs it on a private Redis, plays many games at once with real
// WebSocket clients (human pairs of every two-player game, humans against
// bots, 2048 solo, spectators everywhere), SIGKILLs the process at random
// moments, starts it again on the same port, reconnects everyone with their
// tokens and checks that every move any client saw acknowledged is still
// there, that no move was applied twice, and that every game can be
// finished.
//
// Every check replays the moves the clients saw on a local copy of the
// engine and compares it with what the server sends: the board, the turn,
// the legal moves, the score, the status and the result must be equal.
//
//	go test -race ./internal/testkit/crashtest/                        # 5 kills
//	go test ./internal/testkit/crashtest/ -crash.kills=50 -crash.scale=3 -timeout 30m
//	TABULEIRO_CRASH_KILLS=20 TABULEIRO_CRASH_SEED=42 go test ./internal/testkit/crashtest/
//
// The package has no code of its own: everything is in its test.
package crashtest
