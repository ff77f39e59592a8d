package testreport

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// maxCleanShown is how many tests without failures the text report lists per package before it
// folds the rest into one line.
const maxCleanShown = 10

// maxSeedsShown is how many failing runs the text report lists per test; the JSON report and
// the results file have all of them.
const maxSeedsShown = 5

// maxOutputLines is how much of a test's first failure the text report quotes.
const maxOutputLines = 12

// slowestShown is how many tests the slowest-tests line names.
const slowestShown = 3

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people: a table per package, then for each failing test its
// verdict, the commands that replay its failing runs and the heart of its first failure.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "spreadcheck: %s\n\n", r.headline())
	if r.Diff != nil {
		r.Diff.write(ew)
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, p := range r.Packages {
		writePackage(ew, tw, &p)
	}
	r.writeFooter(ew)
	return ew.err
}

func (r *Report) headline() string {
	parts := []string{fmt.Sprintf("%d runs of %d package%s", r.Runs, len(r.Packages), plural(len(r.Packages)))}
	if len(r.Shards) > 0 {
		parts = append(parts, "shards "+strings.Join(r.Shards, ", "))
	}
	parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
	if r.Seconds > 0 {
		parts = append(parts, strconv.FormatFloat(r.Seconds, 'f', 1, 64)+"s")
	}
	return strings.Join(parts, ", ")
}

func writePackage(w io.Writer, tw *tabwriter.Writer, p *PackageSummary) {
	if p.BuildError != "" {
		fmt.Fprintf(w, "%s: %s\n%s\n\n", p.ImportPath, testbin.BuildVerb(p.Stage), indent(p.BuildError, "    "))
		return
	}
	fmt.Fprintf(w, "%s (%d runs in %d process%s)\n", p.ImportPath, p.Runs, p.Processes, pluralES(p.Processes))
	if note := p.note(); note != "" {
		fmt.Fprintf(w, "    %s\n", note)
	}
	if !p.anyRan() {
		fmt.Fprintf(w, "    %s\n\n", p.whyNoTests())
		return
	}
	writeTable(w, tw, p.Tests)
	for _, t := range p.Tests {
		if isExample(t.Name) && t.Runs+t.Skips < p.Runs {
			fmt.Fprintf(w, "  %s: %d of %d runs, one per test process: package testing runs an example once in a process, whatever -test.count says, and the package's runs shared %d processes (-batch 1 gives every run a process of its own, and the example a run in each)\n",
				t.Name, t.Runs+t.Skips, p.Runs, p.Processes)
		}
	}
	for _, t := range p.Tests {
		switch {
		case t.Bad() > 0 && failsThroughSubtests(&t, p.Tests):
			fmt.Fprintf(w, "\n  %s: %d of %d runs failed, each time through its subtests (below)\n", t.Name, t.Bad(), t.Runs)
		case t.Bad() > 0 || t.Rerun != nil:
			writeTestDetail(w, &t)
		}
	}
	fmt.Fprintln(w)
}

// note says what crashes and hangs cut short, and what could not be run.
func (p *PackageSummary) note() string {
	var parts []string
	if p.Cut > 0 {
		parts = append(parts, fmt.Sprintf("crashes and hangs cut short or kept from starting %d runs of other tests; %d of them were made again in new processes",
			p.Cut, p.Cut-p.Lost))
	}
	if p.Lost > p.Cut {
		parts = append(parts, fmt.Sprintf("%d runs were lost: %s", p.Lost-p.Cut, p.Error))
	} else if p.Lost > 0 {
		parts = append(parts, fmt.Sprintf("%d test runs were lost: the crash came before any test of its run ended", p.Lost))
	}
	return strings.Join(parts, "; ")
}

// isExample reports whether a test's name is that of an example (a top-level ExampleX).
func isExample(name string) bool {
	return strings.HasPrefix(name, "Example") && !strings.Contains(name, "/")
}

// noTests is the footer's line for a session in which no test ran.
func (r *Report) noTests() string {
	for _, p := range r.Packages {
		if p.Processes > 0 {
			return "NO TESTS: no test ran in any package (does -run match a test?)."
		}
	}
	return "NO TESTS: -run and -skip leave no test to run in any package, as each test binary's -test.list says; no test process was started."
}

func (p *PackageSummary) anyRan() bool {
	return slices.ContainsFunc(p.Tests, func(t TestSummary) bool { return t.Name != testout.PackageTest || t.Bad() > 0 })
}

func (p *PackageSummary) whyNoTests() string {
	for _, t := range p.Tests {
		if t.Name == testout.PackageTest && t.Skips > 0 {
			return fmt.Sprintf("no tests ran: TestMain exited 0 before running them in %d of %d processes (the package skips itself)", t.Skips, t.Skips+t.Runs)
		}
	}
	return "no tests ran"
}

func writeTable(w io.Writer, tw *tabwriter.Writer, tests []TestSummary) {
	fmt.Fprintln(tw, "  runs\tfail\tcrash\thang\tskip\trate\t95% interval\tchecks allow\t  test")
	clean := 0
	for _, t := range tests {
		if t.Name == testout.PackageTest && t.Bad() == 0 {
			continue // every process has a package row; it says something only when it failed
		}
		if t.Bad() == 0 {
			if clean++; clean > maxCleanShown {
				continue
			}
		}
		fmt.Fprintf(tw, "  %d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t  %s\n", t.Runs, t.Failures, t.Crashes, t.Hangs, t.Skips,
			FormatRate(t.Rate.Rate), formatInterval(t.Rate, t.Runs), formatAllowed(t.Allowed), t.Name)
	}
	tw.Flush()
	if clean > maxCleanShown {
		fmt.Fprintf(w, "    ... and %d more tests without a failure\n", clean-maxCleanShown)
	}
}

// formatAllowed prints the failure rate per run that a test's spread checks allow, or "-" for
// a test without them.
func formatAllowed(a float64) string {
	if a == 0 {
		return "-"
	}
	return strconv.FormatFloat(a, 'g', 2, 64)
}

// failsThroughSubtests reports whether every failing run of t is a failing run of one of its
// subtests, so that the subtests' details say all there is to say.
func failsThroughSubtests(t *TestSummary, all []TestSummary) bool {
	runs := map[int]bool{}
	for _, s := range all {
		if strings.HasPrefix(s.Name, t.Name+"/") {
			for _, f := range s.Failing {
				runs[f.Run] = true
			}
		}
	}
	for _, f := range t.Failing {
		if !runs[f.Run] {
			return false
		}
	}
	return len(runs) > 0
}

func formatInterval(r Rate, runs int) string {
	if runs == 0 {
		return "-"
	}
	return "[" + FormatRate(r.Lower) + ", " + FormatRate(r.Upper) + "]"
}

func writeTestDetail(w io.Writer, t *TestSummary) {
	fmt.Fprintf(w, "\n  %s: %s\n", t.Name, t.verdict())
	if t.Rerun != nil {
		fmt.Fprintf(w, "    rerun alone: %d of %d runs failed, rate %s, 95%% interval %s\n",
			t.Rerun.Bad(), t.Rerun.Runs, FormatRate(t.Rerun.Rate.Rate), formatInterval(t.Rerun.Rate, t.Rerun.Runs))
		if t.Rerun.Differs {
			fmt.Fprintf(w, "    the rerun and main-pass intervals do not overlap: the test fails at another rate when run alone "+
				"than among the others (load, order or shared state differ), so the two are reported apart\n")
		}
	}
	if note := t.replayNote(); note != "" {
		fmt.Fprintf(w, "    %s\n", note)
	}
	for i, f := range t.Failing {
		if i == maxSeedsShown {
			fmt.Fprintf(w, "    ... %d more failing run%s (all of them in -json)\n", len(t.Failing)-i, plural(len(t.Failing)-i))
			break
		}
		fmt.Fprintf(w, "    run %d (%s): %s\n", f.Run, f.Outcome, f.Replay)
		if f.Log != "" {
			fmt.Fprintf(w, "      log: %s\n", f.Log)
		}
	}
	if t.Output != "" {
		fmt.Fprintf(w, "    first failure:\n%s", indent(excerpt(t.Output, maxOutputLines), "      | "))
	}
}

// verdict says in one sentence what the failures mean.
func (t *TestSummary) verdict() string {
	what := fmt.Sprintf("%d of %d runs failed", t.Bad(), t.Runs)
	if t.EveryRun() {
		what = fmt.Sprintf("failed in every one of its %d runs: a failure, not a flake", t.Runs)
	}
	switch {
	case t.Crashes > 0 && t.Hangs > 0:
		what += fmt.Sprintf(" (%d crashed, %d hung)", t.Crashes, t.Hangs)
	case t.Crashes > 0:
		what += fmt.Sprintf(" (%d crashed)", t.Crashes)
	case t.Hangs > 0:
		what += fmt.Sprintf(" (%d hung)", t.Hangs)
	}
	if t.Allowed == 0 {
		return what
	}
	allowed := strconv.FormatFloat(t.Allowed, 'g', 2, 64)
	if t.Chance < NotChance {
		return fmt.Sprintf("%s where its checks allow %s per run: this is not chance (p = %.2g); the code or the test is broken",
			what, allowed, t.Chance)
	}
	return fmt.Sprintf("%s; its checks allow %s per run, and this many failures happen by chance with p = %.2g",
		what, allowed, t.Chance)
}

// replayNote says whether the seeds can be trusted to replay the failures.
func (t *TestSummary) replayNote() string {
	switch {
	case t.Replay != nil:
		return t.Replay.note(t)
	case t.Bad() > 0 && !t.Seeded && t.Name != testout.PackageTest:
		return "the test recorded no spreadcheck.seed: the commands below replay it only if its randomness comes from SPREADCHECK_SEED " +
			"(a test on the global math/rand source, the clock or shared state cannot be replayed)"
	}
	return ""
}

// excerpt returns the heart of a failure's output in at most n lines: from its panic on, for
// a crash; its last lines otherwise, where t.Fatal's message is.
func excerpt(s string, n int) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			lines = lines[i:]
			if len(lines) > n {
				lines = append(lines[:n-1], "...")
			}
			return strings.Join(lines, "\n")
		}
	}
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n+1:]...)
	}
	return strings.Join(lines, "\n")
}

func (r *Report) writeFooter(w io.Writer) {
	// The runs made, which a shard or an interrupted session has fewer of than asked for.
	done := 0
	for _, p := range r.Packages {
		done = max(done, p.Runs)
	}
	if line := r.slowest(); line != "" {
		fmt.Fprintln(w, line)
	}
	if done > 0 {
		fmt.Fprintf(w, "%d runs see a flake of %s or more at least once with 95%% probability; a %s flake needs %d runs.\n",
			done, FormatRate(DetectableRate(done)), FormatRate(r.Detect), r.DetectRuns)
	}
	for _, line := range r.statusLines() {
		fmt.Fprintln(w, line)
	}
}

// statusLines are the report's last lines: what stopped it, what failed, or that all is well.
func (r *Report) statusLines() []string {
	var lines []string
	switch {
	case r.Interrupted:
		lines = append(lines, "INTERRUPTED: the report covers the runs that finished.")
	case len(r.MissingShards) > 0:
		lines = append(lines, fmt.Sprintf("INCOMPLETE: shard%s %s of the session %s missing; the report covers the others.",
			plural(len(r.MissingShards)), strings.Join(r.MissingShards, ", "), isAre(len(r.MissingShards))))
	case r.Stopped != "":
		lines = append(lines, "STOPPED: "+r.Stopped+".")
	}
	if r.BuildErrors > 0 {
		lines = append(lines, fmt.Sprintf("BUILD FAILED: %d package%s did not build.", r.BuildErrors, plural(r.BuildErrors)))
	}
	if r.NoTests {
		lines = append(lines, r.noTests())
	}
	if len(r.Failing) > 0 {
		lines = append(lines, fmt.Sprintf("FAILING: %d test%s failed in every run: %s", len(r.Failing), plural(len(r.Failing)), strings.Join(r.Failing, ", ")))
	}
	if len(r.Flaky) > 0 {
		verb := "fail"
		if len(r.Flaky) == 1 {
			verb = "fails"
		}
		lines = append(lines, fmt.Sprintf("FLAKY: %d test%s %s more often than -max-flake %s at 95%% confidence: %s",
			len(r.Flaky), plural(len(r.Flaky)), verb, FormatRate(r.MaxFlake), strings.Join(r.Flaky, ", ")))
	}
	if len(lines) == 0 {
		lines = append(lines, fmt.Sprintf("ok: no test fails more often than -max-flake %s at 95%% confidence.", FormatRate(r.MaxFlake)))
	}
	return lines
}

// slowest names the tests with the longest median run time, with their 99th percentile.
func (r *Report) slowest() string {
	type named struct {
		name string
		d    Durations
	}
	var all []named
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if t.Name != testout.PackageTest && !strings.Contains(t.Name, "/") && t.Duration.Median > 0 {
				all = append(all, named{p.ImportPath + "." + t.Name, t.Duration})
			}
		}
	}
	if len(all) == 0 {
		return ""
	}
	slices.SortStableFunc(all, func(a, b named) int { return cmp.Compare(b.d.Median, a.d.Median) })
	var parts []string
	for _, n := range all[:min(slowestShown, len(all))] {
		parts = append(parts, fmt.Sprintf("%s (median %s, p99 %s)", n.name, formatSeconds(n.d.Median), formatSeconds(n.d.P99)))
	}
	return "slowest tests: " + strings.Join(parts, ", ")
}

func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'f', 2, 64) + "s" }

// errWriter keeps the first write error so that the report code can print freely.
type errWriter struct {
	w   io.Writer
	err error
}

// Write never fails: after the first error it drops what it is given.
func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func pluralES(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}
