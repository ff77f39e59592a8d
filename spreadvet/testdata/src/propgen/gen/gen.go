// Package gen holds generators shaped like gopter's: each returns a func that draws from the
// parameters' source.
package gen

import (
	"time"

	"propgen"
)

// Bool generates a bool.
func Bool() propgen.Gen { // want Bool:"random\\(calls NextBool\\)"
	return func(p *propgen.GenParameters) *propgen.GenResult {
		return &propgen.GenResult{Result: p.NextBool()}
	}
}

// Int64Range generates an int64 in [lo, hi], or nothing when hi < lo.
func Int64Range(lo, hi int64) propgen.Gen { // want Int64Range:"random\\(calls NextUint64, quiet when \\$0 > \\$1\\)"
	if hi < lo {
		return Fail()
	}
	size := uint64(hi - lo + 1)
	return func(p *propgen.GenParameters) *propgen.GenResult {
		return &propgen.GenResult{Result: lo + int64(p.NextUint64()%size)}
	}
}

// Float64Range generates a float64 in [lo, hi), or nothing when hi < lo.
func Float64Range(lo, hi float64) propgen.Gen { // want Float64Range:"random\\(rand.Float64\\)"
	d := hi - lo
	if d < 0 {
		return Fail()
	}
	return func(p *propgen.GenParameters) *propgen.GenResult {
		return &propgen.GenResult{Result: lo + p.Rng.Float64()*d}
	}
}

// Time generates a time in the years 0 to 9999.
func Time() propgen.Gen { // want Time:"random\\(rand.Int63n\\)"
	return func(p *propgen.GenParameters) *propgen.GenResult {
		return &propgen.GenResult{Result: time.Unix(p.Rng.Int63n(253402214400), 0)}
	}
}

// TimeRange generates a time in [from, from+d).
func TimeRange(from time.Time, d time.Duration) propgen.Gen { // want TimeRange:"random\\(rand.Int63n\\)"
	return func(p *propgen.GenParameters) *propgen.GenResult {
		return &propgen.GenResult{Result: from.Add(time.Duration(p.Rng.Int63n(int64(d))))}
	}
}

// Const generates v, every time.
func Const(v any) propgen.Gen {
	return func(*propgen.GenParameters) *propgen.GenResult { return &propgen.GenResult{Result: v} }
}

// Fail generates nothing.
func Fail() propgen.Gen {
	return func(*propgen.GenParameters) *propgen.GenResult { return &propgen.GenResult{} }
}
