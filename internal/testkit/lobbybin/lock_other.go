//go:build !unix

package lobbybin

// lockFile is a no-op where there is no flock: test processes that build
// at the same moment may both link (the last rename wins).
func lockFile(string) (unlock func(), err error) { return func() {}, nil }
