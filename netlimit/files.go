package netlimit

import (
	"fmt"
	"math"
)

// MinConns is the fewest client connections ConnBudget accepts to leave:
// below it the process could not serve a handful of people and the health
// checks together.
const MinConns = 32

// ConnBudget is how many client connections a process whose open-file limit
// is files may hold while keeping reserve descriptors for everything else
// (the store's connection pool, listeners, logs, the runtime's own). An
// error says how far the limit falls short.
func ConnBudget(files uint64, reserve int) (int, error) {
	if files > math.MaxInt32 { // RLIM_INFINITY, or as good as
		files = math.MaxInt32
	}
	n := int(files) - reserve
	if n < MinConns {
		return 0, fmt.Errorf("the open-file limit (%d) leaves %d connections after the %d kept for the process, fewer than %d: raise it (ulimit -n)",
			files, n, reserve, MinConns)
	}
	return n, nil
}
