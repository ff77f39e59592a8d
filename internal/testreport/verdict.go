package testreport

import (
	"fmt"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// SeedVerdict says whether a test's failures follow from its seed.
type SeedVerdict string

// The verdicts of a replay check.
const (
	// DependsOnSeed: replays of failing seeds fail more often than the test fails anyway.
	DependsOnSeed SeedVerdict = "depends on the seed"
	// IndependentOfSeed: a replay of a failing seed passed, and replays fail no more often
	// than the test does: timing, load or global state decide, not the seed.
	IndependentOfSeed SeedVerdict = "independent of the seed"
	// Undecided: every replay failed, but too few to tell that from the test's own rate.
	Undecided SeedVerdict = "undecided"
)

// ReplayAlpha is the level of the replay check's test: the probability of calling a test's
// failures seed-dependent when they are not.
const ReplayAlpha = 0.01

// Replays of a failing test: up to ReplaySeeds of its failing seeds, each ReplaysPerSeed
// times, every replay a process of its own with that seed and that test alone; but no more
// than fit in ReplayBudget of the test's own run time (at least one).
const (
	ReplaySeeds    = 3
	ReplaysPerSeed = 4
)

// ReplayBudget is the run time that the replays of one failing test may take together, as
// its runs measured it: a test whose failing runs take 30s gets 2 replays instead of 12.
const ReplayBudget = time.Minute

// ReplayCheck is what replaying a test's failing seeds showed.
type ReplayCheck struct {
	Replays  int `json:"replays"`  // replays of failing seeds made
	Failures int `json:"failures"` // of them, those that failed, crashed or hung
	// P is the one-sided p-value of Fisher's exact test that replays of failing seeds fail
	// more often than the test's runs in the main pass.
	P       float64     `json:"p"`
	Verdict SeedVerdict `json:"verdict"` // "depends on the seed", "independent of the seed" or "undecided"
	// Capped says that the replays were fewer than 4 for each seed replayed: the test's runs
	// take too long for more within ReplayBudget (a minute of run time). Seconds is the
	// longest replay's time.
	Capped  bool    `json:"capped,omitempty"`
	Seconds float64 `json:"seconds,omitempty"` // see Capped
}

// replayTally counts a test's replays: their outcomes, the seeds they replayed and the
// longest of them.
type replayTally struct {
	Counts
	seeds   map[uint64]bool
	longest float64
}

func (r *replayTally) add(t *testout.TestResult) {
	r.Counts.Add(t.Outcome)
	if r.seeds == nil {
		r.seeds = map[uint64]bool{}
	}
	r.seeds[t.Seed] = true
	r.longest = max(r.longest, t.Seconds)
}

func judgeReplays(replays replayTally, main Counts, seeded bool) *ReplayCheck {
	c := &ReplayCheck{Replays: replays.Runs, Failures: replays.Bad(), P: 1}
	if c.Replays < ReplaysPerSeed*len(replays.seeds) {
		c.Capped, c.Seconds = true, replays.longest
	}
	if p, err := sizing.FisherGreater(c.Failures, c.Replays, main.Bad(), main.Runs); err == nil {
		c.P = p // an error (no runs at all) leaves p = 1: no evidence either way
	}
	switch {
	case c.P < ReplayAlpha:
		c.Verdict = DependsOnSeed
	case c.Failures < c.Replays:
		c.Verdict = IndependentOfSeed
	default:
		c.Verdict = Undecided
	}
	return c
}

// note says in one sentence what the replays showed, with the numbers.
func (c *ReplayCheck) note(t *TestSummary) string {
	what := fmt.Sprintf("%d of %d replays of failing seeds failed, against %s of all runs (Fisher's exact test, p = %.2g)",
		c.Failures, c.Replays, FormatRate(t.Rate.Rate), c.P)
	switch c.Verdict {
	case DependsOnSeed:
		what = "depends on the seed: " + what + "; the commands below reproduce it"
	case IndependentOfSeed:
		what = "independent of the seed (timing, load or global state): " + what + "; the commands below may pass"
	default:
		what = fmt.Sprintf("undecided: %s, which is not below %g; more failing runs would tell", what, ReplayAlpha)
	}
	if !t.Seeded {
		what += "; the test recorded no spreadcheck.seed (its randomness does not come from spread.Rand)"
	}
	if c.Capped {
		what += fmt.Sprintf("; %d replay%s, not %d: a run of this test takes %s, and a test's replays are kept within %s of run time",
			c.Replays, plural(c.Replays), ReplaySeeds*ReplaysPerSeed, formatSeconds(c.Seconds), ReplayBudget)
	}
	return what
}
