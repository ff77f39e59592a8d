package audit

import (
	"fmt"
	"regexp"
	"strings"
)

// A -run pattern names tests level by level, as package testing reads it: "TestA/Jitter" is
// the subtests of TestA that match "Jitter". The audit picks the top-level tests it traces
// and groups by the first level, and hands the levels below on to the test binary in each
// process's -test.run, where package testing picks the subtests. Matched whole against the
// top-level names, a pattern with a "/" selected nothing, and every site was "not covered".

// runPattern is a -run pattern as the audit uses it.
type runPattern struct {
	whole *regexp.Regexp // a pattern with no level below the top, matched whole; nil with alts or when empty
	alts  []runAlt       // the alternatives of a pattern that names subtests
}

// runAlt is one alternative of a pattern that names subtests: its top level, and the levels
// below joined by "/" ("" when it takes every subtest).
type runAlt struct {
	top  *regexp.Regexp
	rest string
}

// parseRun splits a -run pattern as package testing does: into alternatives at each "|"
// outside brackets and parentheses, each into levels at each such "/".
func parseRun(s string) (runPattern, error) {
	if s == "" {
		return runPattern{}, nil
	}
	var p runPattern
	levelled := false
	for _, alt := range splitTop(s, '|') {
		levels := splitTop(alt, '/')
		levelled = levelled || len(levels) > 1
		top, err := regexp.Compile(levels[0])
		if err != nil {
			return runPattern{}, fmt.Errorf("-run %q: its top level %q: %v", s, levels[0], err)
		}
		for _, l := range levels[1:] {
			if _, err := regexp.Compile(l); err != nil {
				return runPattern{}, fmt.Errorf("-run %q: its level %q: %v", s, l, err)
			}
		}
		p.alts = append(p.alts, runAlt{top: top, rest: strings.Join(levels[1:], "/")})
	}
	if !levelled {
		whole, err := regexp.Compile(s)
		if err != nil {
			return runPattern{}, fmt.Errorf("-run %q: %v", s, err)
		}
		return runPattern{whole: whole}, nil
	}
	return p, nil
}

// splitTop splits s at each sep outside brackets and parentheses, skipping escaped
// characters, as package testing splits -run.
func splitTop(s string, sep byte) []string {
	var parts []string
	brackets, parens, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '[':
			brackets++
		case c == ']':
			brackets = max(brackets-1, 0) // an unmatched ']' is a literal
		case c == '(' && brackets == 0:
			parens++
		case c == ')' && brackets == 0:
			parens--
		case c == sep && brackets == 0 && parens == 0:
			parts, start = append(parts, s[start:i]), i+1
		}
	}
	return append(parts, s[start:])
}

// selects reports whether the pattern picks the top-level test name.
func (p runPattern) selects(name string) bool {
	if p.alts == nil {
		return p.whole == nil || p.whole.MatchString(name)
	}
	for _, a := range p.alts {
		if a.top.MatchString(name) {
			return true
		}
	}
	return false
}

// filter returns the -test.run pattern that runs exactly the named top-level tests, and of
// each the subtests the pattern picks.
func (p runPattern) filter(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	if p.alts == nil {
		return "^(" + strings.Join(q, "|") + ")$"
	}
	var terms []string
	for i, n := range names {
		var own []string
		all := false // an alternative takes every subtest of n, so no other one narrows it
		for _, a := range p.alts {
			if !a.top.MatchString(n) {
				continue
			}
			if a.rest == "" {
				all = true
				break
			}
			own = append(own, "^"+q[i]+"$/"+a.rest)
		}
		if all {
			own = []string{"^" + q[i] + "$"}
		}
		terms = append(terms, own...)
	}
	return strings.Join(terms, "|")
}
