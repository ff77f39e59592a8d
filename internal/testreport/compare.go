package testreport

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// ChangeVerdict says whether a test's failure rate changed between two sessions.
type ChangeVerdict string

// The verdicts of Compare.
const (
	Better   ChangeVerdict = "fails less often"
	Worse    ChangeVerdict = "fails more often"
	NoChange ChangeVerdict = "no evidence of a change"
)

// CompareAlpha is the level of Compare's test: the probability of calling a test's rate
// changed when it is not.
const CompareAlpha = 0.05

// Change is what two sessions say of one test's failure rate: its counts before and after,
// Fisher's exact test of equal rates (two-sided), and a 95% interval for the difference
// (after minus before, Newcombe's hybrid score method).
type Change struct {
	Package string        `json:"package"`
	Name    string        `json:"name"`
	Before  Counts        `json:"before"`
	After   Counts        `json:"after"`
	Diff    float64       `json:"diff"` // the after rate minus the before rate
	Lower   float64       `json:"lower"`
	Upper   float64       `json:"upper"`
	P       float64       `json:"p"`
	Verdict ChangeVerdict `json:"verdict"`
}

// Compare answers, for each test that failed in either session, whether its failure rate
// changed: the question after a fix ("did it get better, or was I lucky?"). The records are
// those of two sessions (their main passes count); a test must have runs in both.
func Compare(before, after []resultsfile.Record) []Change {
	b, a := mainCounts(before), mainCounts(after)
	var out []Change
	for k, cb := range b {
		ca, ok := a[k]
		if !ok || ca.Runs == 0 || cb.Runs == 0 || ca.Bad()+cb.Bad() == 0 {
			continue
		}
		out = append(out, change(k, *cb, *ca))
	}
	slices.SortFunc(out, func(x, y Change) int {
		return strings.Compare(x.Package+"\x00"+x.Name, y.Package+"\x00"+y.Name)
	})
	return out
}

func change(k testKey, before, after Counts) Change {
	c := Change{Package: k.pkg, Name: k.name, Before: before, After: after}
	c.P = 1 // no evidence of a change unless the test says so
	if p, err := sizing.FisherTwoSided(after.Bad(), after.Runs, before.Bad(), before.Runs); err == nil {
		c.P = p
	}
	c.Lower, c.Upper, _ = sizing.NewcombeInterval(after.Bad(), after.Runs, before.Bad(), before.Runs, 1-Confidence)
	c.Diff = float64(after.Bad())/float64(after.Runs) - float64(before.Bad())/float64(before.Runs)
	switch {
	case c.P >= CompareAlpha:
		c.Verdict = NoChange
	case c.Diff < 0:
		c.Verdict = Better
	default:
		c.Verdict = Worse
	}
	return c
}

// mainCounts tallies each test's main-pass outcomes.
func mainCounts(recs []resultsfile.Record) map[testKey]*Counts {
	m := map[testKey]*Counts{}
	for _, r := range recs {
		if r.Phase != resultsfile.Main {
			continue
		}
		for _, t := range r.Tests {
			k := testKey{r.ImportPath, t.Name}
			if m[k] == nil {
				m[k] = &Counts{}
			}
			m[k].Add(t.Outcome)
		}
	}
	return m
}

// WriteComparison prints the changes as a table, one test a line, its verdict last.
func WriteComparison(w io.Writer, changes []Change) error {
	ew := &errWriter{w: w}
	if len(changes) == 0 {
		fmt.Fprintln(ew, "no test failed in either session")
		return ew.err
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  before\tafter\tchange, 95% interval\tp\ttest")
	for _, c := range changes {
		fmt.Fprintf(tw, "  %s\t%s\t%s [%s, %s]\t%.2g\t%s.%s: %s\n", fraction(c.Before), fraction(c.After),
			signedRate(c.Diff), signedRate(c.Lower), signedRate(c.Upper), c.P, c.Package, c.Name, c.Verdict)
	}
	tw.Flush()
	return ew.err
}

func fraction(c Counts) string {
	return fmt.Sprintf("%d/%d (%s)", c.Bad(), c.Runs, FormatRate(float64(c.Bad())/float64(c.Runs)))
}

func signedRate(x float64) string {
	if x < 0 {
		return "-" + FormatRate(-x)
	}
	return "+" + FormatRate(x)
}
