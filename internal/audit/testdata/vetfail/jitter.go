// Package vetfail has a test that go vet rejects: audited with -vet=off (the default) it
// runs; with vet on, the build fails and the audit says why.
package vetfail

import "math/rand/v2"

// Jitter returns a number in [0, n).
func Jitter(n int) int {
	return rand.IntN(n)
}
