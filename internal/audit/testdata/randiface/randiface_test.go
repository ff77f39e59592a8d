package randiface

import "testing"

// TestApplyRange checks the range of 100 jittered values: a negated draw puts them in
// (-d/2, d/2] and fails it; a constant draw stays in range and passes.
func TestApplyRange(t *testing.T) {
	j := NewJitter(nil)
	for range 100 {
		if v := j.Apply(10); v < 5 || v >= 15 {
			t.Fatalf("Apply(10) = %v, want [5, 15)", v)
		}
	}
}

// TestPickRange checks the range of 100 picks: a negated pick is below 0 in most of them; a
// constant pick passes.
func TestPickRange(t *testing.T) {
	j := NewJitter(nil)
	for range 100 {
		if v := j.Pick(10); v < 0 || v >= 10 {
			t.Fatalf("Pick(10) = %d, want [0, 10)", v)
		}
	}
}
