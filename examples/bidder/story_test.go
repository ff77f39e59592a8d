package bidder_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/examples/bidder"
	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/mutants"
	"github.com/spreadcheck/spreadcheck/spread"
)

// base is the delay of the first retry in the story's tests.
const base = time.Second

// config is the policy under test, with the jitter given.
func config(j mutants.Jitter) bidder.Config {
	return bidder.Config{BaseDelay: base, MaxDelay: 30 * time.Second, Jitter: j}
}

// weakTest is the story's original test, verbatim but for the jitter it is given: ten
// delays into a set, then only "not negative".
func weakTest(t testing.TB, j mutants.Jitter) {
	cfg := config(j)
	delays := make(map[time.Duration]bool)
	for i := 0; i < 10; i++ {
		delays[bidder.CalculateDelay(cfg, 0)] = true
	}

	// Should have some variation (may not always be true due to randomness)
	// Just check it doesn't panic and returns reasonable values
	for delay := range delays {
		if delay < 0 {
			t.Errorf("delay should not be negative, got %v", delay)
		}
	}
}

// fixedTest is the story's new test: every value inside [0, base), at least half of 1,000
// draws distinct, and the mean within 5% (of the base) of where it should be.
func fixedTest(t testing.TB, j mutants.Jitter) {
	cfg := config(j)
	const n = 1000
	distinct := make(map[time.Duration]bool)
	var sum time.Duration
	for range n {
		d := bidder.CalculateDelay(cfg, 0)
		if d < 0 || d >= base {
			t.Fatalf("bounds: delay %v outside [0, %v)", d, base)
		}
		distinct[d] = true
		sum += d
	}
	if len(distinct) < n/2 {
		t.Errorf("distinct: %d distinct delays of %d, want at least %d", len(distinct), n, n/2)
	}
	if mean := sum / n; (mean - base/2).Abs() > base/20 {
		t.Errorf("mean: %v, want within %v of %v", mean, base/20, base/2)
	}
}

// spreadTest is the same test written with spread.Check: 1,000 delays against the
// declared distribution, every limit sized for a false-failure rate of 1e-9.
func spreadTest(t testing.TB, j mutants.Jitter) {
	cfg := config(j)
	delays := spread.Draw(1000, func() time.Duration { return bidder.CalculateDelay(cfg, 0) })
	spread.Check(t, delays, spread.Uniform(0, base))
}

// TestSpreadCheckRejectsEveryMutant is the story's claim, proved: the spread.Check test
// passes the fix and fails every mutant of full jitter.
func TestSpreadCheckRejectsEveryMutant(t *testing.T) {
	mutants.Verify(t, bidder.FullJitter(spread.Rand(t)), mutants.Full(), spreadTest)
}

// TestSpreadCheckRejectsExtendedMutants adds overshoot, quantized, ignores-base and
// truncated.
func TestSpreadCheckRejectsExtendedMutants(t *testing.T) {
	mutants.Verify(t, bidder.FullJitter(spread.Rand(t)), mutants.Full(), spreadTest, mutants.Extended())
}

// microsecondClock is the story's production clock: a fake that moves a whole microsecond
// between readings, so that every reading's nanoseconds are even.
type microsecondClock struct{ *fakeclock.Fake }

func (c microsecondClock) Now() time.Time {
	now := c.Fake.Now()
	if err := c.Fake.Advance(time.Microsecond); err != nil {
		panic(err)
	}
	return now
}

func newMicrosecondClock() microsecondClock {
	return microsecondClock{fakeclock.NewFake(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))}
}

// TestShippedJitterNeverJittered: on the production clock the shipped jitter returns one
// value, 0.75 of the delay, on every call; the story's chart shows one distinct value.
func TestShippedJitterNeverJittered(t *testing.T) {
	j := bidder.ShippedJitter(newMicrosecondClock())
	distinct := map[time.Duration]bool{}
	for range 100_000 {
		distinct[j(100*time.Millisecond)] = true
	}
	if len(distinct) != 1 || !distinct[75*time.Millisecond] {
		t.Errorf("shipped jitter gave %d distinct values, want only 75ms", len(distinct))
	}
}

// TestShippedJitterOvershoots: on a clock with odd readings the shipped jitter waits a
// quarter past the configured ceiling; the fix never reaches it.
func TestShippedJitterOvershoots(t *testing.T) {
	clock := fakeclock.NewFake(time.Date(2025, 3, 1, 12, 0, 0, 1, time.UTC))
	cfg := bidder.Config{BaseDelay: time.Second, MaxDelay: 4 * time.Second, Jitter: bidder.ShippedJitter(clock)}
	if d := bidder.CalculateDelay(cfg, 10); d != 5*time.Second {
		t.Errorf("shipped jitter at the ceiling 4s waited %v, want 5s", d)
	}
	cfg.Jitter = bidder.FullJitter(rand.New(rand.NewPCG(1, 2)))
	for range 1000 {
		if d := bidder.CalculateDelay(cfg, 10); d < 0 || d >= 4*time.Second {
			t.Fatalf("full jitter waited %v, want [0, 4s)", d)
		}
	}
}

// A column of the story's table: a test and the name it goes by.
type column struct {
	name  string
	suite func(testing.TB, mutants.Jitter)
}

var columns = []column{
	{"story's weak test", weakTest},
	{"story's fixed test", fixedTest},
	{"spread.Check", spreadTest},
}

// cell is a table cell: the verdict and, for a failure, the check that failed (the part
// of the failure's reason before its first colon or comma).
func cell(o mutants.Outcome, isMutant bool) string {
	reason, _, _ := strings.Cut(o.Reason(), ",")
	reason, _, _ = strings.Cut(reason, ":")
	switch {
	case !isMutant && !o.Failed:
		return "passes"
	case !isMutant:
		return "**FAILS** (" + reason + ")"
	case o.Failed:
		return "rejected (" + reason + ")"
	}
	return "**survived**"
}

// storyTable runs every column against the fix, the shipped jitter and each mutant of full
// jitter, and returns the Markdown table.
func storyTable(t *testing.T, opts ...mutants.Option) string {
	type row struct{ name, class string }
	var rows []row
	cells := map[row][]string{}
	for _, col := range columns {
		fix := bidder.FullJitter(rand.New(rand.NewPCG(2026, 3)))
		rep, err := mutants.Run(t, fix, mutants.Full(), col.suite, opts...)
		if err != nil {
			t.Fatal(err)
		}
		shipped, err := mutants.Try(t, bidder.ShippedJitter(newMicrosecondClock()), col.suite)
		if err != nil {
			t.Fatal(err)
		}
		add := func(r row, c string) {
			if _, ok := cells[r]; !ok {
				rows = append(rows, r)
			}
			cells[r] = append(cells[r], c)
		}
		add(row{"the fix: `rand.Float64() * delay`", "correct"}, cell(rep.Correct, false))
		add(row{"as shipped: ±25% by clock parity, microsecond clock", "constant"}, cell(shipped, true))
		for _, o := range rep.Mutants {
			class := string(o.Class)
			if !slices.Contains(fourClasses, o.Class) {
				class += " (extended)"
			}
			add(row{o.Name, class}, cell(o, true))
		}
	}
	var b strings.Builder
	b.WriteString("| jitter | class |")
	for _, c := range columns {
		fmt.Fprintf(&b, " %s |", c.name)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(columns)) + "\n")
	for _, r := range rows {
		name := r.name
		if r.class == string(spread.SuspectCollapsedRange) {
			name = "**" + name + "**" // the row to highlight: a good random number, still rejected
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, r.class, strings.Join(cells[r], " | "))
	}
	return b.String()
}

// TestStoryTable reproduces the story's table, pinned in testdata/story.md (go test
// -update rewrites it): the weak test lets three of the four classes through, the story's
// fixed test misses only the fine clock, spread.Check rejects every mutant.
func TestStoryTable(t *testing.T) {
	got := storyTable(t, mutants.Extended())
	golden.Check(t, filepath.Join("testdata", "story.md"), got)
	t.Logf("\n%s", got)
}

// fourClasses are the classes of mutants.Of without Extended.
var fourClasses = []spread.Suspect{spread.SuspectConstant, spread.SuspectSignFlip, spread.SuspectClockDerived, spread.SuspectCollapsedRange}

// TestWeakTestLetsThreeClassesThrough states the weak test's column as a claim: only
// sign-flip, whose delays go negative, is rejected.
func TestWeakTestLetsThreeClassesThrough(t *testing.T) {
	rep, err := mutants.Run(t, bidder.FullJitter(rand.New(rand.NewPCG(1, 1))), mutants.Full(), weakTest)
	if err != nil {
		t.Fatal(err)
	}
	survivors := map[spread.Suspect]bool{}
	for _, o := range rep.Mutants {
		if !o.Failed {
			survivors[o.Class] = true
		}
	}
	if rep.Correct.Failed || len(survivors) != 3 || survivors[spread.SuspectSignFlip] {
		t.Errorf("weak test: want the fix passed and every class but sign-flip surviving:\n%s", rep)
	}
}

// TestFixedTestMissesOnlyTheFineClock: the story's fixed test rejects constant, sign-flip,
// collapsed-range and the coarse clock it was written against, but a clock that steps round
// the range has the right bounds, many distinct values and the right mean: only a check of
// independence sees it.
func TestFixedTestMissesOnlyTheFineClock(t *testing.T) {
	rep, err := mutants.Run(t, bidder.FullJitter(rand.New(rand.NewPCG(1, 1))), mutants.Full(), fixedTest)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Mutants {
		if o.Failed == (o.Name == "clock-derived/fine") {
			t.Errorf("fixed test on %s: rejected %v", o.Name, o.Failed)
		}
	}
	if rep.Correct.Failed {
		t.Errorf("fixed test fails the fix:\n%s", rep)
	}
}

// TestSpreadCheckRejectsBrokenSources swaps broken sources into the *rand.Rand the fix
// takes, as a test of code that injects its randomness would: spread.Check rejects each,
// and passes a healthy one.
func TestSpreadCheckRejectsBrokenSources(t *testing.T) {
	var reads int64 // a fine clock: 211,324,865 ns further on at every reading
	fine, err := mutants.ClockSource(func() time.Time { reads++; return time.Unix(0, (reads-1)*211324865) })
	if err != nil {
		t.Fatal(err)
	}
	collapsed, err := mutants.CollapsedSource(rand.NewPCG(7, 8), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]rand.Source{
		"constant":  new(mutants.Source),
		"clock":     fine,
		"collapsed": collapsed,
		"healthy":   rand.NewPCG(7, 8),
	} {
		o, err := mutants.Try(t, bidder.FullJitter(rand.New(src)), spreadTest)
		if err != nil {
			t.Fatal(err)
		}
		if o.Failed != (name != "healthy") {
			t.Errorf("%s source: spread.Check failed %v: %s", name, o.Failed, o.Reason())
		}
	}
}
