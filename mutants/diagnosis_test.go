package mutants_test

import (
	"slices"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/mutants"
	"github.com/spreadcheck/spreadcheck/spread"
)

// TestClassesAreSuspects: every mutant's class is one of spread's Suspects.
func TestClassesAreSuspects(t *testing.T) {
	ms, err := mutants.Of(mutants.Full(), mutants.Extended())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !slices.Contains(spread.Suspects(), m.Class) {
			t.Errorf("mutant %s: class %q is not among spread.Suspects() %v", m.Name, m.Class, spread.Suspects())
		}
	}
	if len(ms) != 9 {
		t.Errorf("Of with Extended: %d mutants, want 9 (two of clock-derived)", len(ms))
	}
}

// TestDiagnosisNamesEveryMutant: for every mutant of every spec, at a base above the
// reference of ignores-base and one below it, spread's report fails and its Diagnosis names
// the mutant's class among its suspects (a sample cannot always tell a constant from a coarse
// clock, or a collapse from a spread that ignores the base: Diagnosis names each).
func TestDiagnosisNamesEveryMutant(t *testing.T) {
	for _, spec := range []mutants.Spec{mutants.Full(), mutants.Equal(), mutants.Percent(0.25)} {
		for _, base := range []time.Duration{time.Second, 10 * time.Millisecond} {
			ms, err := mutants.Of(spec, mutants.Extended())
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, err := spec.Range(base)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if m.EquivalentAt(base) {
					continue
				}
				r, err := spread.Analyze(spread.Draw(1000, func() time.Duration { return m.Jitter(base) }), spread.Uniform(lo, hi))
				if err != nil {
					t.Fatalf("%v at %v, %s: %v", spec, base, m.Name, err)
				}
				if d := r.Diagnosis(); !r.Failed() || !slices.Contains(d, m.Class) {
					t.Errorf("%v at %v, %s: Diagnosis %v does not name %q:\n%s", spec, base, m.Name, d, m.Class, r)
				}
			}
		}
	}
}
