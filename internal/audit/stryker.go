package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// The mutation-testing-report-schema (version 2) that Stryker's tools, PIT's report plugin and
// others write, so that one viewer and one dashboard read them all.
type (
	strykerReport struct {
		SchemaVersion string                     `json:"schemaVersion"`
		Thresholds    strykerThresholds          `json:"thresholds"`
		Files         map[string]strykerFile     `json:"files"`
		TestFiles     map[string]strykerTestFile `json:"testFiles,omitempty"`
		Framework     *strykerFramework          `json:"framework,omitempty"`
	}
	strykerThresholds struct {
		High int `json:"high"`
		Low  int `json:"low"`
	}
	strykerFile struct {
		Language string          `json:"language"`
		Source   string          `json:"source"`
		Mutants  []strykerMutant `json:"mutants"`
	}
	strykerMutant struct {
		ID           string          `json:"id"`
		MutatorName  string          `json:"mutatorName"`
		Description  string          `json:"description,omitempty"`
		Location     strykerLocation `json:"location"`
		Status       string          `json:"status"`
		StatusReason string          `json:"statusReason,omitempty"`
		KilledBy     []string        `json:"killedBy,omitempty"`
		CoveredBy    []string        `json:"coveredBy,omitempty"`
	}
	strykerLocation struct {
		Start strykerPosition `json:"start"`
		End   strykerPosition `json:"end"`
	}
	strykerPosition struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	strykerTestFile struct {
		Tests []strykerTest `json:"tests"`
	}
	strykerTest struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	strykerFramework struct {
		Name string `json:"name"`
	}
)

// classDescriptions say what each class does to a draw, for the report's readers.
var classDescriptions = map[string]string{
	"constant":        "the draw returns one value every call",
	"sign-flip":       "the draw is negated, turning the offset it feeds the other way",
	"clock-derived":   "the draw is read from a clock instead of a random source",
	"collapsed-range": "the draw's range is halved",
}

// WriteStryker writes the report in the mutation-testing-report-schema: one file entry per
// audited file, with its source read from root (the module's root directory), and one mutant
// per site and class: killed as Killed (Timeout when it hung), survived as Survived, not
// covered as NoCoverage, not viable as CompileError, equivalent and ignored as Ignored. The
// class is the mutator's name, the draw's source range the location, the test that killed
// or came closest the killing or covering test, and the evidence (runs, failures, baseline
// failures, p-value) the status reason.
func (r *Report) WriteStryker(w io.Writer, root string) error {
	out := strykerReport{SchemaVersion: "2", Thresholds: strykerThresholds{High: 80, Low: 60},
		Files: map[string]strykerFile{}, TestFiles: map[string]strykerTestFile{}, Framework: &strykerFramework{Name: "spreadcheck audit"}}
	tests := map[string]map[string]bool{} // package -> test names
	for i := range r.Sites {
		s := &r.Sites[i]
		f, ok := out.Files[s.File]
		if !ok {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.File)))
			if err != nil {
				return fmt.Errorf("the source of %s: %v", s.File, err)
			}
			f = strykerFile{Language: "go", Source: string(src), Mutants: []strykerMutant{}}
		}
		loc := drawLocation(f.Source, s.Line, s.Expr)
		for _, m := range s.Mutants {
			sm := strykerMutant{ID: fmt.Sprintf("%s:%d:%d:%s", s.File, loc.Start.Line, loc.Start.Column, m.Class),
				MutatorName: m.Class, Description: classDescriptions[m.Class], Location: loc}
			sm.Status, sm.StatusReason = strykerStatus(m), strings.TrimSpace(evidence(m))
			if m.Test != "" {
				id := s.Package + "." + m.Test
				if m.Verdict == Killed {
					sm.KilledBy = []string{id}
				}
				sm.CoveredBy = []string{id}
				if tests[s.Package] == nil {
					tests[s.Package] = map[string]bool{}
				}
				tests[s.Package][m.Test] = true
			}
			f.Mutants = append(f.Mutants, sm)
		}
		out.Files[s.File] = f
	}
	for pkg, names := range tests {
		var tf strykerTestFile
		for name := range names {
			tf.Tests = append(tf.Tests, strykerTest{ID: pkg + "." + name, Name: name})
		}
		sort.Slice(tf.Tests, func(i, j int) bool { return tf.Tests[i].ID < tf.Tests[j].ID })
		out.TestFiles[pkg] = tf
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// strykerStatus maps a verdict onto the schema's statuses.
func strykerStatus(m MutantReport) string {
	switch m.Verdict {
	case Killed:
		if m.Timeout {
			return "Timeout"
		}
		return "Killed"
	case Survived:
		return "Survived"
	case NotCovered:
		return "NoCoverage"
	case NotViable:
		return "CompileError"
	}
	return "Ignored" // equivalent, ignored
}

// drawLocation returns where the draw's text stands on its line of src, its end exclusive;
// the whole line when the text is not found there (a report of other source). Columns count
// characters, from 1.
func drawLocation(src string, line int, expr string) strykerLocation {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return strykerLocation{Start: strykerPosition{max(line, 1), 1}, End: strykerPosition{max(line, 1), 2}}
	}
	text := lines[line-1]
	i := strings.Index(text, expr)
	if i < 0 || expr == "" {
		return strykerLocation{Start: strykerPosition{line, 1}, End: strykerPosition{line, utf8.RuneCountInString(text) + 1}}
	}
	start := utf8.RuneCountInString(text[:i]) + 1
	endLine, endCol := line, start+utf8.RuneCountInString(expr)
	if k := strings.LastIndexByte(expr, '\n'); k >= 0 {
		endLine, endCol = line+strings.Count(expr, "\n"), utf8.RuneCountInString(expr[k+1:])+1
	}
	return strykerLocation{Start: strykerPosition{line, start}, End: strykerPosition{endLine, endCol}}
}
