// Package longtest marks the long validations: calibration over many thousands of seeded runs,
// power tables, long fuzzing. They check the statistics rather than the code paths, take
// minutes, and run only when the environment variable SPREADCHECK_LONG is set, as CI sets it.
// Without them, go test ./... spends about 87 s of CPU with the build cache warm (64 s user,
// 22 s system, /usr/bin/time -v over go test -count=1 ./...): over a minute on two idle
// cores, and 444 s on the wall when the machine ran at a load of 33 to 39.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long validations on.
const Env = "SPREADCHECK_LONG"

// Enabled reports whether the long validations run.
func Enabled() bool { return os.Getenv(Env) != "" }

// Skip skips t unless the long validations run.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a long validation: set %s=1 to run it (CI does)", Env)
	}
}
