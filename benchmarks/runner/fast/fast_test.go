// Package fast is the benchmark's suite of sub-millisecond tests, as many real suites are
// (those of retry and backoff modules among them): twenty subtests of a few microseconds of
// CPU work each (about 20 µs of CPU each with package testing's own work), so that the
// start-up of a process costs more than a whole run of the tests.
package fast

import (
	"fmt"
	"testing"

	"github.com/spreadcheck/spreadcheck/benchmarks/runner/internal/work"
)

func TestFast(t *testing.T) {
	for i := range 20 {
		t.Run(fmt.Sprint(i), func(t *testing.T) { work.Hash(t, 2) })
	}
}
