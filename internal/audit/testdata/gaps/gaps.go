// Package gaps holds randomness that tests miss in five ways: a draw no test reaches, a pure
// helper pinned by a table test while its call site is unguarded, a func-typed variable
// that tests overwrite, a draw behind a flaky test, and a generic draw checked for its
// bounds only.
package gaps

import (
	"math/rand/v2"
	"time"
)

// Unreached draws, but no test calls it.
func Unreached(n int) int {
	return rand.IntN(n)
}

// Scale maps a draw u in [0, 1) onto [0, d): a pure helper, pinned by a table test.
func Scale(d time.Duration, u float64) time.Duration {
	return time.Duration(u * float64(d))
}

// Delay is Scale's call site: the draw enters here, and only a smoke test runs it.
func Delay(d time.Duration) time.Duration {
	return Scale(d, rand.Float64())
}

// jitterRand is the draw behind Equal; tests replace it with a fake.
var jitterRand = rand.Float64

// Equal is equal jitter: [d/2, d).
func Equal(d time.Duration) time.Duration {
	return d/2 + time.Duration(jitterRand()*float64(d/2))
}

// Pick returns one of n choices, drawn from r.
func Pick(r *rand.Rand, n int) int {
	return r.IntN(n)
}

// Backoff draws full jitter in any duration-like type: its type is a type parameter.
func Backoff[D ~int64](d D) D {
	return rand.N(d)
}

// Ignored draws on a line whose comment accepts all its mutants.
func Ignored() float64 {
	return rand.Float64() //spreadcheck:ignore every class: a draw the audit is told to accept
}
