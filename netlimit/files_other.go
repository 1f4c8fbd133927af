//go:build !unix

package netlimit

import "errors"

// OpenFileLimit is not known on this system.
func OpenFileLimit() (uint64, error) {
	return 0, errors.New("open-file limit: not known on this system")
}
