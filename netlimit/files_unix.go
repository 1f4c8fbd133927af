//go:build unix

package netlimit

import (
	"fmt"
	"syscall"
)

// OpenFileLimit returns the process's limit on open files (the soft
// RLIMIT_NOFILE, which the Go runtime raises to the hard limit at start).
func OpenFileLimit() (uint64, error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, fmt.Errorf("open-file limit: %w", err)
	}
	return uint64(r.Cur), nil
}
