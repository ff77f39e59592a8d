package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// maxCleanShown is how many tests without failures the text report lists per package before it
// folds the rest into one line.
const maxCleanShown = 10

// maxSeedsShown is how many failing runs the text report lists per test; the JSON report and
// the results file have all of them.
const maxSeedsShown = 5

// maxOutputLines is how much of a test's first failure the text report quotes.
const maxOutputLines = 12

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people: a table per package, then for each failing test its
// verdict, the commands that replay its failing runs and the start of its first failure.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "spreadcheck: %s\n\n", r.headline())
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, p := range r.Packages {
		r.writePackage(ew, tw, &p)
	}
	r.writeFooter(ew)
	return ew.err
}

func (r *Report) headline() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d runs of %d package%s", r.Runs, len(r.Packages), plural(len(r.Packages))))
	if len(r.Shards) > 0 {
		parts = append(parts, "shards "+strings.Join(r.Shards, ", "))
	}
	parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
	if r.Seconds > 0 {
		parts = append(parts, strconv.FormatFloat(r.Seconds, 'f', 1, 64)+"s")
	}
	return strings.Join(parts, ", ")
}

func (r *Report) writePackage(w io.Writer, tw *tabwriter.Writer, p *PackageSummary) {
	if p.BuildError != "" {
		fmt.Fprintf(w, "%s: build failed\n%s\n\n", p.ImportPath, indent(p.BuildError, "    "))
		return
	}
	fmt.Fprintf(w, "%s (%d runs)\n", p.ImportPath, p.Runs)
	if len(p.Tests) == 0 {
		fmt.Fprintf(w, "    no tests ran\n\n")
		return
	}
	fmt.Fprintln(tw, "  runs\tfail\tcrash\thang\tskip\trate\t95% interval\tchecks allow\t  test")
	clean := 0
	for _, t := range p.Tests {
		if t.Bad() == 0 {
			clean++
			if clean > maxCleanShown {
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
		fmt.Fprintf(w, "    rerun: %d of %d runs failed, rate %s, 95%% interval %s\n",
			t.Rerun.Bad(), t.Rerun.Runs, FormatRate(t.Rerun.Rate.Rate), formatInterval(t.Rerun.Rate, t.Rerun.Runs))
	}
	if note := t.replayNote(); note != "" {
		fmt.Fprintf(w, "    %s\n", note)
	}
	for i, f := range t.Failing {
		if i == maxSeedsShown {
			fmt.Fprintf(w, "    ... %d more failing runs (all of them in -json)\n", len(t.Failing)-i)
			break
		}
		fmt.Fprintf(w, "    run %d (%s): %s\n", f.Run, f.Outcome, f.Replay)
		if f.Log != "" {
			fmt.Fprintf(w, "      log: %s\n", f.Log)
		}
	}
	if t.Output != "" {
		fmt.Fprintf(w, "    first failure:\n%s", indent(headLines(t.Output, maxOutputLines), "      | "))
	}
}

// verdict says in one sentence what the failures mean.
func (t *TestSummary) verdict() string {
	what := fmt.Sprintf("%d of %d runs failed", t.Bad(), t.Runs)
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
	case t.Replayed == Reproduced:
		return "replaying a failing run's seed fails again: the commands below reproduce it"
	case t.Replayed == NotReproduced:
		return "replaying a failing run's seed PASSED: the failure does not follow from SPREADCHECK_SEED " +
			"(the test may use the global math/rand source, the clock or state left by other tests), so these commands may not reproduce it"
	case t.Bad() > 0 && !t.Seeded && t.Name != PackageTest:
		return "the test recorded no spreadcheck.seed: the commands below replay it only if it draws its randomness from SPREADCHECK_SEED " +
			"(a test on the global math/rand source cannot be replayed)"
	}
	return ""
}

func (r *Report) writeFooter(w io.Writer) {
	// The runs made, which a shard or an interrupted session has fewer of than asked for.
	done := 0
	for _, p := range r.Packages {
		done = max(done, p.Runs)
	}
	if done > 0 {
		fmt.Fprintf(w, "%d runs see a flake of %s or more at least once with 95%% probability; a %s flake needs %d runs.\n",
			done, FormatRate(DetectableRate(done)), FormatRate(r.Detect), r.DetectRuns)
	}
	switch {
	case r.Interrupted:
		fmt.Fprintln(w, "INTERRUPTED: the report covers the runs that finished.")
	case r.BuildErrors > 0:
		fmt.Fprintf(w, "BUILD FAILED: %d package%s did not compile.\n", r.BuildErrors, plural(r.BuildErrors))
	}
	if len(r.Flaky) > 0 {
		verb := "fail"
		if len(r.Flaky) == 1 {
			verb = "fails"
		}
		fmt.Fprintf(w, "FLAKY: %d test%s %s more often than -max-flake %s at 95%% confidence: %s\n",
			len(r.Flaky), plural(len(r.Flaky)), verb, FormatRate(r.MaxFlake), strings.Join(r.Flaky, ", "))
	} else if !r.Interrupted && r.BuildErrors == 0 {
		fmt.Fprintf(w, "ok: no test fails more often than -max-flake %s at 95%% confidence.\n", FormatRate(r.MaxFlake))
	}
}

// WriteMarkdown writes a short summary for a CI step summary (such as $GITHUB_STEP_SUMMARY):
// one table row per test that failed, and the replay command of each one's first failing run.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "### spreadcheck: %s\n\n", r.headline())
	status := "no test fails more often than " + FormatRate(r.MaxFlake) + " at 95% confidence"
	switch {
	case r.Interrupted:
		status = "interrupted; the figures cover the runs that finished"
	case r.BuildErrors > 0:
		status = fmt.Sprintf("%d package(s) did not compile", r.BuildErrors)
	case len(r.Flaky) > 0:
		status = fmt.Sprintf("%d test(s) fail more often than %s at 95%% confidence", len(r.Flaky), FormatRate(r.MaxFlake))
	}
	fmt.Fprintf(ew, "**%s**\n\n", status)
	tests, failing := 0, 0
	for _, p := range r.Packages {
		if p.BuildError != "" {
			fmt.Fprintf(ew, "- `%s`: build failed\n", p.ImportPath)
		}
		for _, t := range p.Tests {
			tests++
			if t.Bad() > 0 {
				failing++
			}
		}
	}
	fmt.Fprintf(ew, "%d tests, %d with failures.\n\n", tests, failing)
	if failing == 0 {
		return ew.err
	}
	fmt.Fprintln(ew, "| test | runs | failed | crash | hang | rate | 95% interval | replay the first failure |")
	fmt.Fprintln(ew, "|---|--:|--:|--:|--:|--:|---|---|")
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if t.Bad() == 0 {
				continue
			}
			replay := ""
			if len(t.Failing) > 0 {
				replay = "`" + strings.ReplaceAll(t.Failing[0].Replay, "|", `\|`) + "`"
			}
			fmt.Fprintf(ew, "| `%s.%s` | %d | %d | %d | %d | %s | %s | %s |\n", p.ImportPath, t.Name, t.Runs,
				t.Failures, t.Crashes, t.Hangs, FormatRate(t.Rate.Rate), formatInterval(t.Rate, t.Runs), replay)
		}
	}
	return ew.err
}

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

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}

func headLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimRight(s, "\n"), "\n", n+1)
	if len(lines) > n {
		lines[n] = "..."
	}
	return strings.Join(lines, "\n")
}
