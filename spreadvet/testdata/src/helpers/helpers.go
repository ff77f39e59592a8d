// Package helpers jitters; its tests check the jitter with assertion helpers, their own bool
// helpers, few draws and arguments that change on each pass.
package helpers

import (
	"math/rand/v2"
	"time"
)

// Ceiling is the most attempt n may wait.
func Ceiling(n int) time.Duration { return time.Second << n }

// Backoff is full jitter under Ceiling(n).
func Backoff(n int) time.Duration { // want Backoff:"random\\(rand.N\\)"
	return rand.N(Ceiling(n))
}

// Full is full jitter under d.
func Full(d time.Duration) time.Duration { // want Full:"random\\(rand.N, Uniform\\[0, 1\\*\\$0\\)\\)"
	return rand.N(d)
}

// Fraction is in [0, 1).
func Fraction() float64 { // want Fraction:"random\\(rand.Float64, Uniform\\[0, 1\\)\\)"
	return rand.Float64()
}

// Deep calls Full through two functions: more calls away from the draw than a single draw
// with no loop is taken to test.
func Deep() time.Duration { return middle() } // want Deep:"random\\(calls middle\\)"

func middle() time.Duration { return Full(time.Second) } // want middle:"random\\(calls Full\\)"

// Steps waits a second the first time, then a jittered second to two.
type Steps struct{ n int }

func (s *Steps) Next() time.Duration { // want Next:"random\\(rand.N, Uniform\\[1000000000, 2000000000\\)\\)"
	s.n++
	if s.n == 1 {
		return time.Second
	}
	return time.Second + rand.N(time.Second)
}

// Done is what Retry returns once the retries are over.
const Done time.Duration = -1

// Retry is the jittered wait before attempt n, or Done from the tenth on.
func Retry(n int) time.Duration { // want Retry:"random\\(rand.N.*\\)"
	if n >= 10 {
		return Done
	}
	return rand.N(time.Second << n)
}

// Waiter hands out waits; NewWaiter's moves from one to the next.
type Waiter interface{ Next() time.Duration }

// NewWaiter returns a Waiter that steps.
func NewWaiter() Waiter { return &Steps{} } // want NewWaiter:"constructs\\(Next random\\)"
