// Package randutil wraps math/rand/v2 for the module's other packages, as modules do to keep
// one import of it.
package randutil

import "math/rand/v2"

// IntN is a uniform int in [0, n).
func IntN(n int) int { return rand.IntN(n) }
