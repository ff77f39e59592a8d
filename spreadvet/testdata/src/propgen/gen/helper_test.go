package gen_test

import (
	"testing"

	"propgen"
)

// commonGeneratorTest samples g and fails when valueCheck says no, as gopter's helper does.
func commonGeneratorTest(t *testing.T, name string, g propgen.Gen, valueCheck func(any) bool) {
	for i := 0; i < 100; i++ {
		value, ok := g.Sample()
		if !ok || value == nil {
			t.Errorf("invalid result (%s): %#v", name, value)
		} else if !valueCheck(value) {
			t.Errorf("invalid value (%s): %#v", name, value)
		}
	}
}

// hits counts the samples of g that hit says yes to: the verdict is a statistic of the
// draws, no check of one.
func hits(g propgen.Gen, hit func(any) bool) int {
	n := 0
	for i := 0; i < 1000; i++ {
		value, _ := g.Sample()
		if hit(value) {
			n++
		}
	}
	return n
}
