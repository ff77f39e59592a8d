package main

import (
	"fmt"
	"io"
	"strings"
)

// Finding is one diagnostic spreadvet printed on a module of the corpus.
type Finding struct {
	Module  string // module@version
	File    string // slash path inside the module
	Line    int
	Kind    Kind
	Message string // what follows the kind
}

// Enclosing returns the first line of the function declaration of module's file that holds
// line, or 0 when no function does.
type Enclosing func(module, file string, line int) int

// nearby is how many lines apart a finding and a label may be outside one function.
const nearby = 3

// matches reports whether finding f is at label l: the same file, and the same function or
// within nearby lines.
func matches(l Label, f Finding, enclosing Enclosing) bool {
	if l.Module != f.Module || l.File != f.File {
		return false
	}
	if d := l.Line - f.Line; -nearby <= d && d <= nearby {
		return true
	}
	fn := enclosing(l.Module, l.File, l.Line)
	return fn != 0 && fn == enclosing(f.Module, f.File, f.Line)
}

// Row is the score of one module, or of them all.
type Row struct {
	Module    Module
	Cases     int // labels that spreadvet should find
	Found     int // cases some finding matches
	Negatives int // labels on code it must not flag
	Findings  int
	True      int // findings that match a case
	// After counts the cases labelled after spreadvet reported them (a finding no one had
	// labelled, confirmed by its mutant): found by construction, they say nothing of recall.
	After int
}

// afterMark starts the why of a label made after spreadvet reported the case.
const afterMark = "[labelled after spreadvet reported it"

// BeforeRecall is the recall on the cases labelled before spreadvet ran on them, and ok is
// false when there are none.
func (r Row) BeforeRecall() (p float64, ok bool) { return ratio(r.Found-r.After, r.Cases-r.After) }

// Precision is the share of findings that are true, and ok is false when there are none.
func (r Row) Precision() (p float64, ok bool) { return ratio(r.True, r.Findings) }

// Recall is the share of cases found, and ok is false when there are none.
func (r Row) Recall() (p float64, ok bool) { return ratio(r.Found, r.Cases) }

func ratio(a, b int) (float64, bool) {
	if b == 0 {
		return 0, false
	}
	return float64(a) / float64(b), true
}

// FalseFinding is a finding that matches no case; Negative is the label of code that must not
// be flagged that it lies on, if any.
type FalseFinding struct {
	Finding
	Negative *Label
}

// Score is the measure of spreadvet on the corpus.
type Score struct {
	Rows   []Row
	Total  Row
	Misses []Label
	False  []FalseFinding
	Failed []Failure // modules spreadvet failed on: their cases count as missed
}

// Failure is a module spreadvet did not finish on, and what it printed first.
type Failure struct {
	Module string
	Error  string
}

// Measure scores findings against labels, module by module in the order of mods.
func Measure(mods []Module, labels []Label, findings []Finding, enclosing Enclosing) Score {
	var s Score
	for _, m := range mods {
		row := Row{Module: m}
		ls, fs := inModule(labels, m.Path), inModule(findings, m.Path)
		for _, l := range ls {
			if l.Negative() {
				row.Negatives++
				continue
			}
			row.Cases++
			if strings.HasPrefix(l.Why, afterMark) {
				row.After++
			}
			if found(l, fs, enclosing) {
				row.Found++
			} else {
				s.Misses = append(s.Misses, l)
			}
		}
		for _, f := range fs {
			row.Findings++
			if ok, neg := judge(f, ls, enclosing); ok {
				row.True++
			} else {
				s.False = append(s.False, FalseFinding{f, neg})
			}
		}
		s.Rows = append(s.Rows, row)
		s.Total = s.Total.add(row)
	}
	return s
}

func (r Row) add(o Row) Row {
	r.Cases += o.Cases
	r.Found += o.Found
	r.Negatives += o.Negatives
	r.Findings += o.Findings
	r.True += o.True
	r.After += o.After
	return r
}

// found reports whether a finding of one of l's kinds is at l.
func found(l Label, fs []Finding, enclosing Enclosing) bool {
	for _, f := range fs {
		if l.Accepts(f.Kind) && matches(l, f, enclosing) {
			return true
		}
	}
	return false
}

// judge reports whether f is at a case of its kind, and otherwise the true negative it lies
// on, if any.
func judge(f Finding, ls []Label, enclosing Enclosing) (bool, *Label) {
	var neg *Label
	for i, l := range ls {
		switch {
		case l.Accepts(f.Kind) && matches(l, f, enclosing):
			return true, nil
		case l.Negative() && neg == nil && matches(l, f, enclosing):
			neg = &ls[i]
		}
	}
	return false, neg
}

// inModule returns the labels or findings of module.
func inModule[T interface{ module() string }](xs []T, module string) []T {
	var out []T
	for _, x := range xs {
		if x.module() == module {
			out = append(out, x)
		}
	}
	return out
}

func (l Label) module() string   { return l.Module }
func (f Finding) module() string { return f.Module }

// Write prints the score as Markdown: the table, then every miss and every false finding.
func (s Score) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| module | what | cases | found | recall | findings | false | precision | true negatives |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range s.Rows {
		writeRow(&b, r.Module.Path, r.Module.What, r)
	}
	writeRow(&b, "**total**", fmt.Sprintf("%d modules", len(s.Rows)), s.Total)
	if t := s.Total; t.After > 0 {
		fmt.Fprintf(&b, "\n%d of the cases were labelled after spreadvet reported them (a finding no one had labelled, its mutant confirming it), so found by construction; of the %d labelled before it ran, %d are found (%s).\n",
			t.After, t.Cases-t.After, t.Found-t.After, percent(t.BeforeRecall()))
	}
	fmt.Fprintf(&b, "\nMisses (%d):\n\n", len(s.Misses))
	for _, l := range s.Misses {
		fmt.Fprintf(&b, "- %s %s:%d %s: %s\n", l.Module, l.File, l.Line, joinKinds(l.Kinds), l.Why)
	}
	if len(s.Misses) == 0 {
		b.WriteString("- none\n")
	}
	fmt.Fprintf(&b, "\nFalse findings (%d):\n\n", len(s.False))
	for _, f := range s.False {
		fmt.Fprintf(&b, "- %s %s:%d %s: %s\n", f.Module, f.File, f.Line, f.Kind, firstClause(f.Message))
		if f.Negative != nil {
			fmt.Fprintf(&b, "  (on code labelled none at line %d: %s)\n", f.Negative.Line, f.Negative.Why)
		}
	}
	if len(s.False) == 0 {
		b.WriteString("- none\n")
	}
	if len(s.Failed) > 0 {
		fmt.Fprintf(&b, "\nFailed runs (%d), whose cases count as missed:\n\n", len(s.Failed))
		for _, f := range s.Failed {
			fmt.Fprintf(&b, "- %s: %s\n", f.Module, f.Error)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRow prints one line of the table.
func writeRow(b *strings.Builder, name, what string, r Row) {
	fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %d | %d | %s | %d |\n", name, what, r.Cases, r.Found,
		percent(r.Recall()), r.Findings, r.Findings-r.True, percent(r.Precision()), r.Negatives)
}

func percent(p float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*p)
}

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, "|")
}

// firstClause is a finding's message up to its first semicolon: what it found, not the fix.
func firstClause(msg string) string {
	before, _, _ := strings.Cut(msg, ";")
	return before
}

// summaryOf returns the head of a score: the table's header and its total row, and the line
// that says how many of the cases labelled before spreadvet ran are found, for the README; ""
// when the score lacks one of them.
func summaryOf(score string) string {
	lines := strings.Split(score, "\n")
	var total, before string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "| **total** |"):
			total = l
		case strings.Contains(l, "labelled before it ran"):
			before = l
		}
	}
	if len(lines) < 2 || total == "" || before == "" {
		return ""
	}
	return lines[0] + "\n" + lines[1] + "\n" + total + "\n\n" + before + "\n"
}
