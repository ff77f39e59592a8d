package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
	"github.com/spreadcheck/spreadcheck/spread"
)

// Verdict is what the audit concluded about one mutant.
type Verdict string

// The verdicts. Every mutant in a report has exactly one.
const (
	Killed     Verdict = "killed"      // some test failed significantly more often than at baseline
	Survived   Verdict = "survived"    // no test did: the tests let this broken version through
	Equivalent Verdict = "equivalent"  // provably cannot change what the code does
	NotCovered Verdict = "not covered" // no test reaches the site; its mutants were not run
	NotViable  Verdict = "not viable"  // the mutant does not compile
	Ignored    Verdict = "ignored"     // a //spreadcheck:ignore comment accepts it, for its Reason
)

// A Mode is how an audit builds its mutants.
type Mode string

// The modes: every mutant of a package in one build (the default), or one build per mutant
// (Config.PerMutant).
const (
	Schemata  Mode = "schemata"
	PerMutant Mode = "per-mutant"
)

// UnmarshalText refuses a mode that is neither, so that a report read back says how it was
// made.
func (m *Mode) UnmarshalText(b []byte) error {
	switch Mode(b) {
	case Schemata, PerMutant, "":
		*m = Mode(b)
		return nil
	}
	return fmt.Errorf("audit: mode %q: want %q or %q", b, Schemata, PerMutant)
}

// Report is the result of an audit. Its JSON form is a stable contract: tools read it.
type Report struct {
	Module string   `json:"module"`
	Runs   int      `json:"runs"`  // R: runs at baseline and, at most, under each mutant
	Alpha  float64  `json:"alpha"` // the false-kill rate of the whole family
	Family int      `json:"family"`
	Batch  int      `json:"batch,omitempty"` // runs per test process, at baseline and under every mutant
	Seed   uint64   `json:"seed,string"`
	Mode   Mode     `json:"mode"`
	Shards []string `json:"shards,omitempty"`
	// Change is the change the audit was restricted to, when it was (-diff, -diff-file).
	Change *ChangeReport `json:"change,omitempty"`
	// Mutants counts the mutants of the sites in this report's shards, finished or not: an
	// interrupted report's sites hold only those that finished.
	Mutants  int            `json:"mutants"`
	Sites    []SiteReport   `json:"sites"`
	Packages []PackageScore `json:"packages"`
	Baseline []TestBaseline `json:"baseline,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	// Stale lists the -baseline entries that match no survivor: killed now, or gone.
	Stale       []BaselineEntry `json:"stale_baseline,omitempty"`
	Interrupted bool            `json:"interrupted,omitempty"`
	Seconds     float64         `json:"seconds"`
	// Phases say where the audit's time went, stage by stage; a merged report has none.
	Phases []Phase `json:"phases,omitempty"`
}

// Phase is the wall time of one stage of an audit, in the order they ran: find (loading and
// type-checking the packages, finding the sites), build (the mutant schema's test binaries),
// trace (which tests reach which sites), baseline (with the mutants' first look, made beside
// it), mutants (the later looks) and identical (the identical-binary check). An audit that stops early has the phases that ran.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// SiteReport is one site and the verdict on each of its mutants.
type SiteReport struct {
	File    string         `json:"file"` // relative to the module root, slash-separated
	Line    int            `json:"line"` // 1-based
	Expr    string         `json:"expr"` // the source text of the draw
	Package string         `json:"package"`
	Func    string         `json:"func"` // the enclosing function
	Kind    string         `json:"kind"` // the kind of draw (rewrite.DrawKind)
	Mutants []MutantReport `json:"mutants"`
	// Dead, when set, says why the draw's value never reaches the code: the code is broken
	// the way a constant mutant is, and its tests let it through.
	Dead string `json:"dead,omitempty"`
	// Suggest is the spread.Check line that would kill the survivors, when any survived, or
	// fail on the code as it is, when its draw is dead.
	Suggest string `json:"suggest,omitempty"`
}

// MutantReport is the verdict on one mutant, with its evidence.
type MutantReport struct {
	Class   string  `json:"class"` // a mutants class name: constant, sign-flip, clock-derived, collapsed-range
	Verdict Verdict `json:"verdict"`
	// Evidence, for killed and survived: the test compared (the one that killed it, or the
	// one closest to killing it), its failures in the runs under the mutant and at
	// baseline, and the one-sided p-value of Fisher's exact test.
	Test             string   `json:"test,omitempty"`
	CPU              string   `json:"cpu,omitempty"` // the test's -test.cpu value, when -cpu was given
	Runs             int      `json:"runs,omitempty"`
	Failures         int      `json:"failures"`
	BaselineRuns     int      `json:"baseline_runs,omitempty"`
	BaselineFailures int      `json:"baseline_failures"`
	PValue           *float64 `json:"p_value,omitempty"`
	Level            float64  `json:"level,omitempty"`   // the p-value below which a mutant is killed
	Timeout          bool     `json:"timeout,omitempty"` // killed by a hang: the test ran past the timeout
	// Check is, for a survivor, the spread check that rejects this class.
	Check  string `json:"check,omitempty"`
	Reason string `json:"reason,omitempty"` // why equivalent, not viable, not covered or ignored
	// Accepted, on a survivor or a not covered mutant, is the reason the -baseline file gives
	// for accepting it: it no longer fails the audit.
	Accepted string `json:"accepted,omitempty"`
	// Fewer lists the tests that fail significantly less often under the mutant.
	Fewer []Fewer `json:"fewer_failures,omitempty"`
}

// Fewer is a test whose failure rate drops under a mutant: the mutant hides a flake.
type Fewer struct {
	Test             string  `json:"test"`
	Runs             int     `json:"runs"`
	Failures         int     `json:"failures"`
	BaselineRuns     int     `json:"baseline_runs"`
	BaselineFailures int     `json:"baseline_failures"`
	PValue           float64 `json:"p_value"`
}

// PackageScore is the mutation score of one package: killed / (killed + survived + not
// covered); equivalent, not viable and ignored mutants do not count.
type PackageScore struct {
	Package    string  `json:"package"`
	Killed     int     `json:"killed"`
	Survived   int     `json:"survived"`
	NotCovered int     `json:"not_covered"`
	Equivalent int     `json:"equivalent"`
	NotViable  int     `json:"not_viable"`
	Ignored    int     `json:"ignored,omitempty"`
	Score      float64 `json:"score"`
}

// TestBaseline is one test's failures in the unmutated runs of one group: the tests that reach
// a site, which run together (Run) at baseline and under the site's mutants.
type TestBaseline struct {
	Package  string `json:"package"`
	Test     string `json:"test"`
	Run      string `json:"run"`           // the -test.run pattern of its processes
	CPU      string `json:"cpu,omitempty"` // the -test.cpu value
	Runs     int    `json:"runs"`
	Failures int    `json:"failures"`
	Excluded bool   `json:"excluded,omitempty"` // failed every run: it cannot tell a mutant
	// Alone says that its group ran a process per run, at baseline and under every mutant:
	// one of its tests failed only in the later runs of a process (see the warnings).
	Alone bool `json:"alone,omitempty"`
}

// checkFor is the spread check that rejects each class at n = 1,000.
var checkFor = map[string]string{
	string(spread.SuspectConstant):       "distinct",
	string(spread.SuspectSignFlip):       "bounds",
	string(spread.SuspectClockDerived):   "independence",
	string(spread.SuspectCollapsedRange): "coverage",
}

// ExitCode returns the exit status the report calls for.
func (r *Report) ExitCode() int {
	if r.Interrupted {
		return testreport.ExitInterrupted
	}
	for _, s := range r.Sites {
		if s.Dead != "" {
			return testreport.ExitFlaky
		}
		for _, m := range s.Mutants {
			if (m.Verdict == Survived || m.Verdict == NotCovered) && m.Accepted == "" {
				return testreport.ExitFlaky
			}
		}
	}
	return testreport.ExitClean
}

// score fills in Packages from the sites.
func (r *Report) score() {
	by := map[string]*PackageScore{}
	for _, s := range r.Sites {
		p := by[s.Package]
		if p == nil {
			p = &PackageScore{Package: s.Package}
			by[s.Package] = p
		}
		for _, m := range s.Mutants {
			switch m.Verdict {
			case Killed:
				p.Killed++
			case Survived:
				p.Survived++
			case NotCovered:
				p.NotCovered++
			case Equivalent:
				p.Equivalent++
			case NotViable:
				p.NotViable++
			case Ignored:
				p.Ignored++
			}
		}
	}
	r.Packages = nil
	for _, p := range by {
		if d := p.Killed + p.Survived + p.NotCovered; d > 0 {
			p.Score = float64(p.Killed) / float64(d)
		}
		r.Packages = append(r.Packages, *p)
	}
	sort.Slice(r.Packages, func(i, j int) bool { return r.Packages[i].Package < r.Packages[j].Package })
}

// WriteJSON writes the report as one JSON object. Its arrays are never null: sites, packages
// and each site's mutants are empty arrays when there is nothing in them, and the arrays
// that may be left out (shards, baseline, warnings, fewer_failures) are left out.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.arrays())
}

// arrays returns a copy of the report whose arrays that the JSON always holds are not nil.
func (r *Report) arrays() *Report {
	c := *r
	c.Sites = append(make([]SiteReport, 0, len(r.Sites)), r.Sites...)
	c.Packages = append(make([]PackageScore, 0, len(r.Packages)), r.Packages...)
	for i := range c.Sites {
		if c.Sites[i].Mutants == nil {
			c.Sites[i].Mutants = []MutantReport{}
		}
	}
	return &c
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("audit: %s: %v", path, err)
	}
	return &r, nil
}

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	if len(r.Sites) == 0 && r.Change != nil {
		fmt.Fprintf(b, "spreadcheck audit: no site of %s on a line changed %s (%s elsewhere): nothing to audit\n",
			orDot(r.Module), r.Change.Since, plural(r.Change.Outside, "site"))
		_, err := io.WriteString(w, b.String())
		return err
	}
	if len(r.Sites) == 0 {
		fmt.Fprintf(b, "spreadcheck audit: no randomness found in %s: nothing to audit\n", orDot(r.Module))
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(b, "spreadcheck audit: %s, %s, up to %d runs each%s, seed %d; a mutant is killed when a test fails more often than at baseline (Fisher's exact test, false-kill rate %g for the family of %s)\n",
		plural(len(r.Sites), "site"), plural(max(r.Mutants, r.finished()), "mutant"), r.Runs, r.processes(), r.Seed, r.Alpha, plural(r.Family, "comparison"))
	if r.Change != nil {
		fmt.Fprintf(b, "only the sites on lines changed %s: %s elsewhere left out\n", r.Change.Since, plural(r.Change.Outside, "site"))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "warning: %s\n", w)
	}
	for _, s := range r.Sites {
		fmt.Fprintf(b, "\n%s:%d  %s  in %s\n", s.File, s.Line, s.Expr, s.Func)
		if s.Dead != "" {
			fmt.Fprintf(b, "  NEVER REACHES THE CODE: %s\n", s.Dead)
		}
		for _, m := range s.Mutants {
			fmt.Fprintf(b, "  %-16s %-12s %s\n", m.Class, verdictWord(m), evidence(m))
			for _, f := range m.Fewer {
				fmt.Fprintf(b, "  %-16s %-12s %s fails less often: %d of %d runs (baseline %d of %d), p = %.2g\n",
					"", "", f.Test, f.Failures, f.Runs, f.BaselineFailures, f.BaselineRuns, f.PValue)
			}
		}
		if s.Suggest != "" {
			fmt.Fprintf(b, "  add: %s\n", s.Suggest)
		}
	}
	b.WriteString("\nmutation score (killed of killed, survived and not covered):\n")
	for _, p := range r.Packages {
		ignored := ""
		if p.Ignored > 0 {
			ignored = fmt.Sprintf(", %d ignored", p.Ignored)
		}
		fmt.Fprintf(b, "  %s  %d of %d (%.0f%%); %d equivalent, %d not viable%s\n", p.Package, p.Killed,
			p.Killed+p.Survived+p.NotCovered, 100*p.Score, p.Equivalent, p.NotViable, ignored)
	}
	if r.Interrupted {
		fmt.Fprintf(b, "interrupted: %d of %s finished; the report covers those\n", r.finished(), plural(max(r.Mutants, r.finished()), "mutant"))
	}
	if len(r.Stale) > 0 {
		fmt.Fprintf(b, "\nstale baseline entries (their mutant is killed now, or their draw is gone): remove them\n")
		for _, e := range r.Stale {
			fmt.Fprintf(b, "  %s  %s  %s in %s: %s\n", e.Package, e.Class, e.Expr, e.Func, e.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// processes says how the runs share test processes.
func (r *Report) processes() string {
	switch r.Batch {
	case 0:
		return ""
	case 1:
		return " (a process each)"
	}
	if slices.ContainsFunc(r.Baseline, func(b TestBaseline) bool { return b.Alone }) {
		return fmt.Sprintf(" (%d to a process; one for the tests that fail in later runs of a process, see the warning)", r.Batch)
	}
	return fmt.Sprintf(" (%d to a process)", r.Batch)
}

// plural returns "1 site", "2 sites", "2 processes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

// finished counts the mutants with a verdict.
func (r *Report) finished() int {
	n := 0
	for _, s := range r.Sites {
		n += len(s.Mutants)
	}
	return n
}

func verdictWord(m MutantReport) string {
	switch {
	case m.Accepted != "":
		return "accepted"
	case m.Verdict == Survived:
		return "SURVIVED"
	}
	return string(m.Verdict)
}

// evidence says why a mutant got its verdict, in one line.
func evidence(m MutantReport) string {
	test := m.Test
	if m.CPU != "" {
		test += " (-cpu " + m.CPU + ")"
	}
	switch m.Verdict {
	case Killed:
		how := ""
		if m.Timeout {
			how = " (timeout: it hung)"
		}
		return fmt.Sprintf("%s failed %d of %s%s (baseline %d of %d), p = %.2g", test, m.Failures, plural(m.Runs, "run"), how,
			m.BaselineFailures, m.BaselineRuns, deref(m.PValue))
	case Survived:
		s := fmt.Sprintf("%s, no test failed more often", plural(m.Runs, "run"))
		if m.Test != "" {
			s = fmt.Sprintf("%s; closest: %s failed %d (baseline %d of %d), p = %.2g", plural(m.Runs, "run"), test, m.Failures,
				m.BaselineFailures, m.BaselineRuns, deref(m.PValue))
		}
		s += "; " + m.Check + " would kill it"
		if m.Reason != "" {
			s += "; " + m.Reason
		}
		return s + accepted(m)
	}
	return m.Reason + accepted(m)
}

// accepted says that the baseline accepts a survivor, and why.
func accepted(m MutantReport) string {
	if m.Accepted == "" {
		return ""
	}
	return fmt.Sprintf("; the baseline accepts it: %s", m.Accepted)
}

func deref(p *float64) float64 {
	if p == nil {
		return 1
	}
	return *p
}

// WriteMarkdown writes a summary for a CI job page.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := &strings.Builder{}
	b.WriteString("## spreadcheck audit")
	if r.Module != "" {
		fmt.Fprintf(b, " of `%s`", r.Module)
	}
	fmt.Fprintf(b, "\n\n%d runs at baseline and at most %d under each mutant%s; false-kill rate %g for the whole audit.\n\n", r.Runs, r.Runs, r.processes(), r.Alpha)
	if len(r.Sites) == 0 {
		b.WriteString("No randomness found: nothing to audit.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("| package | killed | survived | not covered | equivalent | not viable | score |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, p := range r.Packages {
		fmt.Fprintf(b, "| `%s` | %d | %d | %d | %d | %d | %.0f%% |\n", p.Package, p.Killed, p.Survived, p.NotCovered,
			p.Equivalent, p.NotViable, 100*p.Score)
	}
	b.WriteString("\n| site | draw | constant | sign-flip | clock-derived | collapsed-range |\n|---|---|---|---|---|---|\n")
	for _, s := range r.Sites {
		cells := map[string]string{}
		for _, m := range s.Mutants {
			v := string(m.Verdict)
			switch {
			case m.Accepted != "":
				v += " (accepted)"
			case m.Verdict == Survived:
				v = "**survived**"
			}
			cells[m.Class] = v
		}
		fmt.Fprintf(b, "| `%s:%d` | `%s` |", s.File, s.Line, strings.ReplaceAll(s.Expr, "|", "\\|"))
		for _, c := range rewrite.Classes() {
			fmt.Fprintf(b, " %s |", orDash(cells[string(c)]))
		}
		b.WriteString("\n")
	}
	for _, s := range r.Sites {
		if s.Dead != "" {
			fmt.Fprintf(b, "\n`%s:%d`: **the draw never reaches the code**: %s\n", s.File, s.Line, s.Dead)
		}
		if s.Suggest != "" {
			fmt.Fprintf(b, "\n`%s:%d`: add `%s`\n", s.File, s.Line, s.Suggest)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Merge joins the reports of the shards of one audit: every site once, each mutant from the
// shard that ran it. Reports of different audits (module, runs, seed, alpha) do not merge,
// and neither do shards that overlap.
func Merge(reports ...*Report) (*Report, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("audit: no reports to merge")
	}
	out := *reports[0]
	out.Sites, out.Shards, out.Warnings, out.Baseline, out.Mutants, out.Phases = nil, nil, nil, nil, 0, nil
	index := map[string]int{}
	for _, r := range reports {
		if r.Module != out.Module || r.Runs != out.Runs || r.Seed != out.Seed || r.Alpha != out.Alpha || r.Family != out.Family {
			return nil, fmt.Errorf("audit: reports of different audits (module, -runs, -seed, -alpha or sites differ) do not merge")
		}
		out.Shards = append(out.Shards, r.Shards...)
		out.Mutants += r.Mutants
		out.Interrupted = out.Interrupted || r.Interrupted
		out.Seconds = max(out.Seconds, r.Seconds)
		out.Warnings = appendNew(out.Warnings, r.Warnings...)
		for _, b := range r.Baseline {
			if !slices.Contains(out.Baseline, b) {
				out.Baseline = append(out.Baseline, b)
			}
		}
		if r.Batch != out.Batch {
			out.Batch = 0 // the shards chose different batch sizes
		}
		for _, s := range r.Sites {
			key := fmt.Sprintf("%s:%d:%s", s.File, s.Line, s.Expr)
			i, ok := index[key]
			if !ok {
				index[key] = len(out.Sites)
				s.Mutants = append([]MutantReport(nil), s.Mutants...)
				out.Sites = append(out.Sites, s)
				continue
			}
			if err := mergeSite(&out.Sites[i], s); err != nil {
				return nil, err
			}
		}
	}
	sort.SliceStable(out.Sites, func(i, j int) bool {
		a, b := out.Sites[i], out.Sites[j]
		return a.File < b.File || a.File == b.File && a.Line < b.Line
	})
	for i := range out.Sites {
		s := &out.Sites[i]
		sortMutants(s.Mutants)
		if !s.survivors() && s.Dead == "" {
			s.Suggest = ""
		}
	}
	out.score()
	return &out, nil
}

func (s *SiteReport) survivors() bool {
	for _, m := range s.Mutants {
		if m.Verdict == Survived {
			return true
		}
	}
	return false
}

func mergeSite(into *SiteReport, s SiteReport) error {
	for _, m := range s.Mutants {
		for _, o := range into.Mutants {
			if o.Class == m.Class {
				return fmt.Errorf("audit: %s:%d %s appears in two shards: the shards overlap", s.File, s.Line, m.Class)
			}
		}
		into.Mutants = append(into.Mutants, m)
	}
	if into.Suggest == "" {
		into.Suggest = s.Suggest
	}
	if into.Dead == "" {
		into.Dead = s.Dead
	}
	return nil
}

// sortMutants puts a site's mutants in the order of spread.Suspectes.
func sortMutants(ms []MutantReport) {
	rank := func(c string) int {
		for i, k := range rewrite.Classes() {
			if string(k) == c {
				return i
			}
		}
		return len(rewrite.Classes())
	}
	sort.SliceStable(ms, func(i, j int) bool { return rank(ms[i].Class) < rank(ms[j].Class) })
}

func appendNew(list []string, xs ...string) []string {
	for _, x := range xs {
		found := false
		for _, y := range list {
			found = found || x == y
		}
		if !found {
			list = append(list, x)
		}
	}
	return list
}
