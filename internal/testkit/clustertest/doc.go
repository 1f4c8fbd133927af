// Package clustertest runs several real lobby nodes (cmd/lobby -cluster) on
// one private Redis and checks what several nodes must do: players and
// spectators spread over the nodes play whole games; a node SIGKILLed
// mid-game loses nothing (its rooms go on elsewhere, every move any client
// saw acknowledged is in the final history, nothing else is); quick match
// pairs players on different nodes; and a node paused (SIGSTOP) past its
// lease while another takes its room over cannot write after SIGCONT.
//
//	go test -race ./internal/testkit/clustertest/
//
// The package has no code of its own: everything is in its test.
package clustertest
