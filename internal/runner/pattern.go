package runner

import (
	"fmt"
	"regexp"
)

// CheckPattern reports whether a -run or -skip pattern is one that package testing accepts:
// each of its slash-separated elements a regular expression. A bad pattern is found before
// anything is built or run.
func CheckPattern(flag, pattern string) error {
	for _, alt := range splitPattern(pattern) {
		for _, elem := range alt {
			if _, err := regexp.Compile(elem); err != nil {
				return fmt.Errorf("%s %q: %v", flag, pattern, err)
			}
		}
	}
	return nil
}

// splitPattern splits a -run or -skip pattern as package testing does: into alternatives at
// each top-level '|', and each alternative into the elements that match a test, its subtest
// and so on, at each top-level '/' (not inside brackets or parentheses, nor escaped).
func splitPattern(s string) [][]string {
	if s == "" {
		return nil
	}
	var alts [][]string
	var elems []string
	brackets, parens := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0) // an unmatched ']' is legal
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				elems = append(elems, s[:i])
				if s[i] == '|' {
					alts, elems = append(alts, elems), nil
				}
				s, i = s[i+1:], 0
				continue
			}
		}
		i++
	}
	return append(alts, append(elems, s))
}
