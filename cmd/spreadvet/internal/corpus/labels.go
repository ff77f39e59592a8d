package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is the name of a pattern as spreadvet prints it before the colon: "blind test".
type Kind string

// None marks a label on code that must not be flagged.
const None Kind = "none"

// Label is one line of labels.tsv: a case spreadvet should find, or with kind None, code it
// must not flag.
type Label struct {
	Module  string // module@version
	File    string // slash path inside the module
	Line    int
	Kinds   []Kind // the patterns the case is confirmed as; [None] for a true negative
	Confirm string // how it was confirmed
	Why     string
}

// Negative reports whether l marks code that must not be flagged.
func (l Label) Negative() bool { return len(l.Kinds) == 1 && l.Kinds[0] == None }

// Accepts reports whether a finding of kind k is what l is about.
func (l Label) Accepts(k Kind) bool {
	for _, want := range l.Kinds {
		if want == k && k != None {
			return true
		}
	}
	return false
}

// Module is one line of modules.tsv: a module and the packages of it that are analyzed.
type Module struct {
	Path     string   // module@version
	Packages []string // package patterns, relative to the module's root
	// Tags are the build tags its tests need, from a -tags=a,b among the patterns (gocql's
	// unit tests are behind //go:build unit), or "".
	Tags string
	What string // what the module is, for the table
}

// ParseLabels reads labels.tsv: lines of module@version, file, line, kinds joined by "|",
// confirmation and why, separated by tabs; blank lines and lines starting with # are skipped.
func ParseLabels(r io.Reader) ([]Label, error) {
	var labels []Label
	err := eachRow(r, 6, func(n int, f []string) error {
		line, err := strconv.Atoi(f[2])
		if err != nil || line < 1 {
			return fmt.Errorf("line %d: line number %q, want a positive integer", n, f[2])
		}
		l := Label{Module: f[0], File: f[1], Line: line, Confirm: f[4], Why: f[5]}
		for _, k := range strings.Split(f[3], "|") {
			l.Kinds = append(l.Kinds, Kind(strings.TrimSpace(k)))
		}
		if err := l.check(); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		labels = append(labels, l)
		return nil
	})
	return labels, err
}

// check says what is wrong with a label that cannot be scored.
func (l Label) check() error {
	switch {
	case !strings.Contains(l.Module, "@"):
		return fmt.Errorf("module %q, want module@version", l.Module)
	case !strings.HasSuffix(l.File, ".go") || strings.HasPrefix(l.File, "/"):
		return fmt.Errorf("file %q, want a .go file's slash path inside the module", l.File)
	case l.Confirm == "" || l.Why == "":
		return fmt.Errorf("%s:%d has no confirmation or no why", l.File, l.Line)
	}
	if _, _, err := l.mutant(); err != nil {
		return fmt.Errorf("%s:%d: %v", l.File, l.Line, err)
	}
	for _, k := range l.Kinds {
		if k == "" || (k == None && len(l.Kinds) > 1) {
			return fmt.Errorf("kinds %q: none stands alone, and no kind is empty", l.Kinds)
		}
	}
	return nil
}

// ParseModules reads modules.tsv: lines of module@version, the package patterns separated by
// spaces (and a -tags=a,b the tests need), and what the module is, separated by tabs.
func ParseModules(r io.Reader) ([]Module, error) {
	var mods []Module
	seen := map[string]bool{}
	err := eachRow(r, 3, func(n int, f []string) error {
		m := Module{Path: f[0], What: f[2]}
		for _, p := range strings.Fields(f[1]) {
			if tags, ok := strings.CutPrefix(p, "-tags="); ok {
				m.Tags = tags
				continue
			}
			m.Packages = append(m.Packages, p)
		}
		switch {
		case !strings.Contains(m.Path, "@"):
			return fmt.Errorf("line %d: module %q, want module@version", n, m.Path)
		case len(m.Packages) == 0:
			return fmt.Errorf("line %d: %s lists no packages", n, m.Path)
		case seen[m.Path]:
			return fmt.Errorf("line %d: %s listed twice", n, m.Path)
		}
		seen[m.Path] = true
		mods = append(mods, m)
		return nil
	})
	return mods, err
}

// eachRow calls f with the number and the tab-separated fields of each line that is not
// blank or a comment, and fails on a line without exactly want fields.
func eachRow(r io.Reader, want int, f func(n int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != want {
			return fmt.Errorf("line %d: %d tab-separated fields, want %d", n, len(fields), want)
		}
		if err := f(n, fields); err != nil {
			return err
		}
	}
	return sc.Err()
}
