// Package replay holds what package spread and the spreadcheck runner must agree on to replay a
// run: the environment variables that carry a run's seed and number, the seed of each iteration
// of a test in a process that runs it several times, the -run pattern that selects exactly one
// test, and the one builder of the command lines that replay a run (Command).
package replay

import (
	"regexp"
	"strings"
)

const (
	// SeedEnv carries a run's seed, a uint64 in decimal; spread.Rand reads it.
	SeedEnv = "SPREADCHECK_SEED"
	// RunEnv carries a run's number, from 1.
	RunEnv = "SPREADCHECK_RUN"
)

// RunPattern returns the go test -run pattern that selects exactly the named test or subtest:
// each element of the name anchored and quoted, e.g. "^TestX$/^a\.b$".
func RunPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
