package testreport

import "testing"

// TestJudgeReplays pins the verdicts on counts, the first row being the case that a single
// replay got wrong: a test failing 55% of the time whatever its seed, whose replays happened
// to fail.
func TestJudgeReplays(t *testing.T) {
	for _, c := range []struct {
		replays, main Counts
		seeded        bool
		want          SeedVerdict
	}{
		{Counts{Runs: 4, Failures: 4}, Counts{Runs: 100, Failures: 55}, false, Undecided},
		{Counts{Runs: 12, Failures: 12}, Counts{Runs: 100, Failures: 55}, false, DependsOnSeed},
		{Counts{Runs: 12, Failures: 12}, Counts{Runs: 300, Failures: 30}, true, DependsOnSeed},
		{Counts{Runs: 12, Failures: 6}, Counts{Runs: 100, Failures: 50}, false, IndependentOfSeed},
		{Counts{Runs: 12, Failures: 1}, Counts{Runs: 300, Failures: 30}, true, IndependentOfSeed},
		{Counts{Runs: 12, Failures: 11}, Counts{Runs: 300, Failures: 30}, true, DependsOnSeed}, // partly
	} {
		got := judgeReplays(replayTally{Counts: c.replays}, c.main, c.seeded)
		if got.Verdict != c.want || got.Replays != c.replays.Runs || got.Failures != c.replays.Bad() {
			t.Errorf("replays %d/%d against %d/%d: %+v, want %q", c.replays.Bad(), c.replays.Runs, c.main.Bad(), c.main.Runs, got, c.want)
		}
	}
}
