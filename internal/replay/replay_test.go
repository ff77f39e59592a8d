package replay

import (
	"regexp"
	"testing"
)

func TestRunPatternSelectsExactlyTheTest(t *testing.T) {
	cases := []struct {
		name    string
		matches []string // names, element by element, the pattern must select
		misses  []string
	}{
		{"TestX", []string{"TestX"}, []string{"TestXY", "ATestX"}},
		{"TestX/cap=1s/attempt.3", []string{"TestX/cap=1s/attempt.3"}, []string{"TestX/cap=1s/attemptX3", "TestX/cap=1s"}},
		{"TestX/sub_(1)", []string{"TestX/sub_(1)"}, []string{"TestX/sub_1"}},
	}
	for _, c := range cases {
		pat := RunPattern(c.name)
		for _, name := range c.matches {
			if !matches(pat, name) {
				t.Errorf("RunPattern(%q) = %q does not select %q", c.name, pat, name)
			}
		}
		for _, name := range c.misses {
			if matches(pat, name) {
				t.Errorf("RunPattern(%q) = %q selects %q too", c.name, pat, name)
			}
		}
	}
}

// matches applies a -run pattern as go test does: element by element, a missing element of
// the pattern matching anything, but every element of the pattern needing its own.
func matches(pattern, name string) bool {
	pats, elems := splitSlash(pattern), splitSlash(name)
	if len(elems) < len(pats) {
		return false
	}
	for i, p := range pats {
		if !regexp.MustCompile(p).MatchString(elems[i]) {
			return false
		}
	}
	return len(elems) == len(pats)
}

func splitSlash(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '/' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
