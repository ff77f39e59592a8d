package testreport

import (
	"fmt"
	"io"
	"strings"
)

// Chosen is a package that a change chose to run, and why.
type Chosen struct {
	Package string   `json:"package"`         // the package's import path
	Rule    Rule     `json:"rule"`            // "code changed" (all its tests ran) or "tests changed"
	Tests   []string `json:"tests,omitempty"` // the changed tests, when only tests changed
}

// Rule is why a change chose a package's tests.
type Rule string

// The rules by which a change chooses tests.
const (
	CodeChanged  Rule = "code changed"  // a file of the package that is not a test file changed: all its tests run
	TestsChanged Rule = "tests changed" // only test files changed: the changed tests run
)

// DiffReport says which change a session was restricted to, and what it chose.
type DiffReport struct {
	Since  string   `json:"since"`    // what the change is against: "since main"
	Chosen []Chosen `json:"chosen"`   // the packages that ran, and why
	Left   int      `json:"left_out"` // packages the change did not touch
}

// String describes the choice in a line of the report.
func (c Chosen) String() string {
	if c.Rule == TestsChanged {
		return fmt.Sprintf("%s: %s (%s)", c.Package, c.Rule, strings.Join(c.Tests, ", "))
	}
	return fmt.Sprintf("%s: %s (all its tests)", c.Package, c.Rule)
}

// write prints what the change chose, a line per package.
func (d *DiffReport) write(w io.Writer) {
	if len(d.Chosen) == 0 {
		fmt.Fprintf(w, "no package's code or tests changed %s (%d package%s left out): nothing to run\n\n", d.Since, d.Left, plural(d.Left))
		return
	}
	fmt.Fprintf(w, "only what changed %s (%d package%s left out):\n", d.Since, d.Left, plural(d.Left))
	for _, c := range d.Chosen {
		fmt.Fprintf(w, "  %s\n", c)
	}
	fmt.Fprintln(w)
}
