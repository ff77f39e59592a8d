package backoffuse_test

import "testing"
import "backoff"

// The same, with imports written one per declaration.
func TestFractionSlice(t *testing.T) {
	var fs []float64
	for i := 0; i < 50; i++ {
		fs = append(fs, backoff.Fraction()) // want `blind test: TestFractionSlice draws backoff.Fraction 50 times and asserts nothing about them, so a constant or a collapsed range passes it; check the spread: spread.Check\(t, fs, spread.Uniform\[float64\]\(0, 1\)\)`
	}
	t.Log(len(fs))
}
