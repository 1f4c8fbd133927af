//go:build !unix

package enginetest

import "time"

// ProcessCPU is 0 where getrusage is missing: benchmarks then report no
// CPU time.
func ProcessCPU() time.Duration { return 0 }
