// Package generators takes its randomness as a func parameter (rehttp's
// ExpJitterDelayWithRand): the caller that hands it math/rand's function draws, one that
// hands it a fixed func does not.
package generators

import (
	"math/rand/v2"
	"time"
)

// DelayWith returns a delay func that draws a delay below base<<i with generator.
func DelayWith(base time.Duration, generator func(n int64) int64) func(i int) time.Duration {
	return func(i int) time.Duration { return time.Duration(generator(int64(base) << i)) }
}

// Delay hands DelayWith math/rand's Int64N.
func Delay(base time.Duration) func(i int) time.Duration { // want Delay:"random\\(rand.Int64N through DelayWith\\)"
	return DelayWith(base, rand.Int64N)
}
