// Package deploy holds what runs Tabuleiro outside a developer's shell: the
// Dockerfile, a compose file with Redis and a Caddy proxy, Kubernetes
// manifests and the Redis configuration (see README.md in this folder).
//
// It has no code of its own. Its tests parse every file and check that the
// pieces agree with each other and with the service: probe paths the server
// really serves, selectors that match, a grace period longer than the drain.
package deploy
