package audit

import (
	"strings"
	"testing"
)

func TestLooks(t *testing.T) {
	for r, want := range map[int][]int{1: {1}, 2: {1, 2}, 20: {3, 5, 10, 20}, 100: {13, 25, 50, 100}} {
		got := looks(r)
		if len(got) != len(want) {
			t.Errorf("looks(%d) = %v, want %v", r, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("looks(%d) = %v, want %v", r, got, want)
			}
		}
	}
}

func TestCannotKill(t *testing.T) {
	// 0 failures in 10 of 20 runs: 10 more failures would give p = C(20,10)/C(40,20)... small.
	if cannotKill(0, 10, 20, 0, 20, 1e-3) {
		t.Error("10 runs still to go can kill a mutant at 1e-3")
	}
	// 0 failures in 19 of 20 runs: one more failure cannot reach 1e-3.
	if !cannotKill(0, 19, 20, 0, 20, 1e-3) {
		t.Error("one run to go cannot kill at 1e-3, yet cannotKill says it can")
	}
}

// TestRunsNeeded: a test failing 14 of 20 baseline runs cannot kill at 20 runs even if a
// mutant makes it fail every run, and the hint names the runs that would; one failing 1 of
// 20 can, so its survivor gets no hint.
func TestRunsNeeded(t *testing.T) {
	level := 0.01 / (24 * 4.0)
	if got := runsNeeded(&tally{runs: 20, fails: 14}, 20, level); !strings.Contains(got, "-runs 40") {
		t.Errorf("14 of 20: hint %q, want one naming -runs 40", got)
	}
	if got := runsNeeded(&tally{runs: 20, fails: 1}, 20, level); got != "" {
		t.Errorf("1 of 20: hint %q, want none", got)
	}
	if got := runsNeeded(&tally{runs: 20, fails: 20}, 20, level); got != "" {
		t.Errorf("20 of 20: hint %q, want none (such a test is left out)", got)
	}
}
