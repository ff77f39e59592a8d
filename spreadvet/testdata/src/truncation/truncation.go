// Package truncation converts fractions to integers.
package truncation

import (
	"math/rand/v2"
	"time"
)

func Jitter(d time.Duration) time.Duration { // want Jitter:"random\\(rand.Float64, Uniform\\[0, 1\\*\\$0\\)\\)"
	return time.Duration(rand.Float64()) * d // want `truncating conversion: time.Duration\(rand.Float64\(\)\) converts a fraction to an integer, which is always 0, so time.Duration\(rand.Float64\(\)\) \* d is 0; multiply first, then convert: time.Duration\(rand.Float64\(\) \* float64\(d\)\)`
}

func Half(n int) int { // want Half:"random\\(rand.Float64, Uniform\\[0, 0.5\\*\\$0\\)\\)"
	f := rand.Float64() / 2
	return int(f) * n // want `truncating conversion: int\(f\)`
}

// Not flagged: the product converted, a fraction scaled past 1, a float that is not a
// fraction.

func Full(d time.Duration) time.Duration { // want Full:"random\\(rand.Float64, Uniform\\[0, 1\\*\\$0\\)\\)"
	return time.Duration(rand.Float64() * float64(d))
}

func Percent() int { // want Percent:"random\\(rand.Float64, Uniform\\[0, 100\\)\\)"
	return int(rand.Float64() * 100)
}

func Seconds(s float64) time.Duration { return time.Duration(s) * time.Second }

// Lifetime jitters a connection's lifetime by up to jitter, in seconds converted before they
// are scaled (pgx's pool): whole seconds only, none below one.
func Lifetime(jitter time.Duration) time.Duration { // want Lifetime:"random\\(rand.Float64.*\\)"
	secs := rand.Float64() * jitter.Seconds()
	return time.Duration(secs) * time.Second // want `truncating conversion: time.Duration\(secs\) floors a random secs to a whole number before time.Duration\(secs\) \* time.Second scales it, so the result moves in whole steps of time.Second and a range under one step draws nothing; multiply first, then convert: time.Duration\(secs \* float64\(time.Second\)\)`
}

// Whole picks whole seconds on purpose, by a bounded draw: no float converted. Not flagged.
func Whole(n int) time.Duration { // want Whole:"random\\(rand.IntN.*\\)"
	return time.Duration(rand.IntN(n)) * time.Second
}

// Millis adds whole milliseconds drawn as an integer to a float base, as heimdall's backoff
// does: the conversion floors the base alone, and every drawn value survives. Not flagged.
func Millis(base float64, jitter int64) time.Duration { // want Millis:"random\\(rand.Int64N.*\\)"
	return time.Duration(base*2+float64(rand.Int64N(jitter+1))) * time.Millisecond
}
