package testreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// WriteMarkdown writes a short summary for a CI step summary (such as $GITHUB_STEP_SUMMARY):
// one table row per test that failed, and the replay command of each one's first failing run.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "### spreadcheck: %s\n\n", r.headline())
	fmt.Fprintf(ew, "**%s**\n\n", strings.Join(r.statusLines(), " "))
	tests, failing := 0, 0
	for _, p := range r.Packages {
		if p.BuildError != "" {
			fmt.Fprintf(ew, "- %s: %s\n", code(p.ImportPath), testbin.BuildVerb(p.Stage))
		}
		for _, t := range p.Tests {
			if t.Name != testout.PackageTest {
				tests++
			}
			if t.Bad() > 0 && !failsThroughSubtests(&t, p.Tests) {
				failing++
			}
		}
	}
	fmt.Fprintf(ew, "%d tests, %d with failures.\n\n", tests, failing)
	if failing > 0 {
		r.writeMarkdownTable(ew)
	}
	return ew.err
}

// writeMarkdownTable writes a row per test that failed, but not for a parent that failed only
// through its subtests, whose rows say it all.
func (r *Report) writeMarkdownTable(w io.Writer) {
	fmt.Fprintln(w, "| test | runs | failed | crash | hang | rate | 95% interval | replay the first failure |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|---|---|")
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if t.Bad() == 0 || failsThroughSubtests(&t, p.Tests) {
				continue
			}
			replay := ""
			if len(t.Failing) > 0 {
				replay = code(t.Failing[0].Replay)
			}
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %s | %s | %s |\n", code(p.ImportPath+"."+t.Name), t.Runs,
				t.Failures, t.Crashes, t.Hangs, FormatRate(t.Rate.Rate), formatInterval(t.Rate, t.Runs), replay)
		}
	}
}

// code returns s as a Markdown code span fit for a table cell: fenced by more backticks than
// it holds in a row, with its pipes escaped (GitHub splits cells at a pipe even in code).
func code(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(fence) > 1 {
		s = " " + s + " "
	}
	return fence + s + fence
}
