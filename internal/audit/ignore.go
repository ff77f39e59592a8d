package audit

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/spread"
)

// ignoreDirective is the comment that tells the audit to accept what a line's draws let
// through: "//spreadcheck:ignore constant: the value is pinned by the protocol" ignores the
// constant mutant of each site on the line, for that reason; several classes are separated by
// commas, and no class names every class. The site stays in the report, each ignored mutant
// with its reason.
const ignoreDirective = "//spreadcheck:ignore"

// ignore is what a //spreadcheck:ignore comment says: the classes (none for all) and why.
type ignore struct {
	classes []spread.Suspect
	reason  string
}

// ignores reads the file's //spreadcheck:ignore comments, by line, and returns a warning for
// each that names no reason or a class that does not exist.
func ignores(fset *token.FileSet, file *ast.File) (map[int]ignore, []string) {
	lines := map[int]ignore{}
	var warnings []string
	for _, g := range file.Comments {
		for _, c := range g.List {
			rest, ok := strings.CutPrefix(c.Text, ignoreDirective)
			if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue
			}
			pos := fset.Position(c.Pos())
			ig, warn := parseIgnore(strings.TrimSpace(rest))
			if warn != "" {
				warnings = append(warnings, fmt.Sprintf("%s:%d: %s", pos.Filename, pos.Line, warn))
			}
			lines[pos.Line] = ig
		}
	}
	return lines, warnings
}

// parseIgnore reads what follows the directive: "class, class: reason", "reason" (every
// class) or nothing (every class, with a warning that it gives no reason). A list of names
// before a colon that are not all classes is part of the reason.
func parseIgnore(s string) (ignore, string) {
	if s == "" {
		return ignore{reason: "ignored by a //spreadcheck:ignore comment that gives no reason"},
			"//spreadcheck:ignore gives no reason: say why, as //spreadcheck:ignore constant: why"
	}
	head, reason, ok := strings.Cut(s, ":")
	if !ok {
		return ignore{reason: s}, ""
	}
	var classes []spread.Suspect
	for _, name := range strings.Split(head, ",") {
		c, known := classNamed(strings.TrimSpace(name))
		if !known {
			if strings.Contains(head, ",") || len(strings.Fields(head)) == 1 {
				return ignore{reason: s}, fmt.Sprintf("//spreadcheck:ignore names %q, which is no class (%s): the whole comment is taken as the reason, for every class",
					strings.TrimSpace(name), classNames())
			}
			return ignore{reason: s}, ""
		}
		classes = append(classes, c)
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		return ignore{classes: classes, reason: "ignored by a //spreadcheck:ignore comment that gives no reason"},
			"//spreadcheck:ignore " + head + ": gives no reason"
	}
	return ignore{classes: classes, reason: reason}, ""
}

func classNamed(name string) (spread.Suspect, bool) {
	for _, c := range rewrite.Classes() {
		if string(c) == name {
			return c, true
		}
	}
	return "", false
}

func classNames() string {
	var names []string
	for _, c := range rewrite.Classes() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}

// apply records on the site which of its classes the comment ignores.
func (ig ignore) apply(s *Site) {
	if s.Ignored == nil {
		s.Ignored = map[string]string{}
	}
	for _, c := range s.Draw.Kind.Classes() {
		if len(ig.classes) == 0 || slices.Contains(ig.classes, c) {
			s.Ignored[string(c)] = ig.reason
		}
	}
}
