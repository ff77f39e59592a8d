// Package backoff is a bidder's retry backoff, as it shipped and as it was fixed, three
// times over: one copy per test, so that an audit shows what each test lets through.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Shipped is the jitter as it shipped: plus or minus 25% by the parity of the clock. Its
// only test is the weak one.
func Shipped(d time.Duration) time.Duration {
	delay := float64(d)
	jitter := delay * 0.25 * (2*float64(time.Now().UnixNano()%2) - 1)
	return time.Duration(delay + jitter)
}

// Weak is full jitter, [0, d), tested by the weak test: ten draws, then only "not negative".
func Weak(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}

// Fixed is full jitter tested by the fixed test: bounds, half distinct, mean within 5%.
func Fixed(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}

// Checked is full jitter from an injected source, tested with spread.Check.
func Checked(r *rand.Rand, d time.Duration) time.Duration {
	return time.Duration(r.Float64() * float64(d))
}
