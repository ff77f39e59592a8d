// Package failing has a test that fails every run: the audit leaves it out of its verdicts
// and still audits with the rest.
package failing

import "math/rand/v2"

// Jitter returns a number in [0, n).
func Jitter(n int) int {
	return rand.IntN(n)
}
