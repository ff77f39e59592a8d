package audit

import (
	"fmt"
	"path"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/annotate"
)

// Annotations returns a GitHub Actions annotation on the line of every site whose tests let a
// mutant through: a warning naming the classes that survived or were not covered, with each
// one's evidence and the spread line that would kill it; an error for a draw that never
// reaches the code. root is the module's root relative to the directory the annotations are
// read from (a GitHub Actions step's: the repository's root), "" when they are the same.
func (r *Report) Annotations(root string) []annotate.Annotation {
	var as []annotate.Annotation
	for i := range r.Sites {
		if a, ok := siteAnnotation(&r.Sites[i]); ok {
			a.File = path.Join(root, a.File)
			as = append(as, a)
		}
	}
	return as
}

func siteAnnotation(s *SiteReport) (annotate.Annotation, bool) {
	a := annotate.Annotation{Level: annotate.Warning, File: s.File, Line: s.Line}
	if s.Dead != "" {
		a.Level, a.Title = annotate.Error, fmt.Sprintf("%s never reaches the code", s.Expr)
		a.Message = s.Dead
		if s.Suggest != "" {
			a.Message += "\nadd: " + s.Suggest
		}
		return a, true
	}
	var weak []string
	var lines []string
	for _, m := range s.Mutants {
		if m.Verdict != Survived && m.Verdict != NotCovered || m.Accepted != "" {
			continue
		}
		weak = append(weak, m.Class)
		line := fmt.Sprintf("%s: %s", m.Class, m.Verdict)
		switch {
		case m.Verdict == NotCovered && m.Reason != "":
			line += " (" + m.Reason + ")"
		case m.Verdict == Survived && m.Test != "":
			line += fmt.Sprintf(" (closest: %s failed %d of %d runs, baseline %d of %d)", m.Test, m.Failures, m.Runs, m.BaselineFailures, m.BaselineRuns)
		}
		if m.Check != "" {
			line += "; " + m.Check + " would kill it"
		}
		lines = append(lines, line)
	}
	if len(weak) == 0 {
		return a, false
	}
	a.Title = fmt.Sprintf("spreadcheck audit: %s of %s let through", strings.Join(weak, ", "), s.Expr)
	if s.Suggest != "" {
		lines = append(lines, "add: "+s.Suggest)
	}
	a.Message = strings.Join(lines, "\n")
	return a, true
}
