package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseMemoryLimit parses the value of -memory-limit: a number of bytes
// with an optional unit, B, KiB, MiB, GiB or TiB, as the GOMEMLIMIT
// environment variable of the Go runtime takes it ("350MiB"). Empty is 0:
// no limit set here.
func parseMemoryLimit(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = strings.TrimSpace(n), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("memory limit %q: want a positive number of bytes with an optional unit (B, KiB, MiB, GiB, TiB)", s)
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("memory limit %q: too large", s)
	}
	return n << shift, nil
}
