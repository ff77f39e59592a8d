package randomtext_test

import (
	"math/rand/v2"
	"randomtext"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestIDShape(t *testing.T) {
	for _, n := range []int{0, 1, 2, 10, 123} {
		s := randomtext.ID(n) // want `blind test: TestIDShape draws randomtext.ID 5 times, with an argument that changes on each pass \(n\), and checks only the length and the characters of the strings \(len\(s\) != n, strings.ContainsRune\(randomtext.Alphabet, c\)\), so a constant string of the right length passes it; check the spread of the characters: xs := spread.Draw\(1000, func\(\) int \{ return strings.IndexRune\(randomtext.Alphabet, \[\]rune\(randomtext.ID\(n\)\)\[0\]\) \}\)`
		if len(s) != n {
			t.Errorf("len(%q) = %d, want %d", s, len(s), n)
		}
		for _, c := range s {
			if !strings.ContainsRune(randomtext.Alphabet, c) {
				t.Errorf("%q is not in the alphabet", c)
			}
		}
	}
}

func TestKeyOnce(t *testing.T) {
	k := randomtext.Key(8) // want `blind test: TestKeyOnce draws randomtext.Key once and checks only the length and the characters of the string \(len\(k\) != 8, unicode.IsLower\(rune\(c\)\), unicode.IsDigit\(rune\(c\)\), c > 'z'\)`
	if len(k) != 8 {
		t.Fatal(len(k))
	}
	for _, c := range k {
		if !unicode.IsLower(rune(c)) && !unicode.IsDigit(rune(c)) || c > 'z' {
			t.Fatalf("%q", c)
		}
	}
}

// Counting the IDs that differ looks at more than their shape.
func TestIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		s := randomtext.ID(16)
		if len(s) != 16 {
			t.Fatal(s)
		}
		seen[s] = true
	}
	if len(seen) < 100 {
		t.Fatal("IDs repeat")
	}
}

// Counting each character is a statistic of the draws.
func TestCharacterCounts(t *testing.T) {
	counts := map[rune]int{}
	for range 100 {
		s := randomtext.ID(10)
		for _, c := range s {
			counts[c]++
		}
	}
	if len(counts) < 20 {
		t.Fatal(counts)
	}
}

// An ID used as input tests the code it is given to.
func TestIDAsName(t *testing.T) {
	for range 10 {
		s := randomtext.ID(5)
		if got := randomtext.Shout(s); len(got) != 5 {
			t.Fatal(got)
		}
	}
}

// A fixed label is no draw, and the test's own random string no code under test.
func TestLabel(t *testing.T) {
	s := randomtext.Label(3)
	if len(s) != 3 {
		t.Fatal(s)
	}
	r := ownID()
	if len(r) != 4 {
		t.Fatal(r)
	}
}

func ownID() string { return string(rune('a'+rand.IntN(26))) + "bcd" }

// Two 2-character keys collide with chance 27^-2, read through the wrapper Key.
func TestKeysDiffer(t *testing.T) {
	if slices.Equal(randomtext.Key(2), randomtext.Key(2)) { // want `chance verdict: TestKeysDiffer fails when two draws of randomtext.Key are equal .*with probability 0.00137`
		t.Fatal("same key twice")
	}
}

// A wrapper's unknown length leaves the chance unknown: no verdict on random text.
func TestTwiceDiffer(t *testing.T) {
	if randomtext.Twice(1) == randomtext.Twice(1) {
		t.Fatal("same ID twice")
	}
}

// A length and a regexp: the pattern is an alphabet, so a constant of the right length
// still passes.
func TestIDRegexp(t *testing.T) {
	s := randomtext.ID(10) // want `blind test: TestIDRegexp draws randomtext.ID once and checks only the length and the characters of the string \(len\(s\) != 10, regexp.MustCompile\(.\^\[a-z_\]\+\$.\).MatchString\(s\)\)`
	if len(s) != 10 {
		t.Fatal(s)
	}
	if !regexp.MustCompile(`^[a-z_]+$`).MatchString(s) {
		t.Fatal(s)
	}
}

// regexp.MatchString with the pattern first, in a loop.
func TestIDMatchString(t *testing.T) {
	for range 10 {
		s := randomtext.ID(8) // want `blind test: TestIDMatchString draws randomtext.ID 10 times and checks only the characters of the strings \(regexp.MatchString\("\^\[a-z_\]\+\$", s\)\)`
		ok, err := regexp.MatchString("^[a-z_]+$", s)
		if err != nil || !ok {
			t.Fatal(s)
		}
	}
}

// A random string used as the pattern is no check of its shape.
func TestIDAsPattern(t *testing.T) {
	s := randomtext.ID(3)
	if ok, _ := regexp.MatchString(s, "abc"); ok {
		t.Log(s)
	}
}

// A regexp check, and then the string handed to code that uses it.
func TestIDRegexpThenUsed(t *testing.T) {
	s := randomtext.ID(4)
	if !regexp.MustCompile(`^[a-z_]+$`).MatchString(s) {
		t.Fatal(s)
	}
	if got := randomtext.Shout(s); strings.ToLower(got) != s {
		t.Fatal(got)
	}
}

// Each character compared with the letters it may be: an alphabet written out.
func TestIDLetters(t *testing.T) {
	s := randomtext.ID(16) // want `blind test: TestIDLetters draws randomtext.ID once and checks only the length and the characters of the string \(len\(s\) != 16, r != 'b', r != 'c', r != 'd'\)`
	if len(s) != 16 {
		t.Fatal(s)
	}
	for _, r := range s {
		if r != 'b' && r != 'c' && r != 'd' {
			t.Fatalf("unexpected %q", r)
		}
	}
}

// A character compared with a drawn one is compared with a draw, not an alphabet.
func TestIDFirstRepeats(t *testing.T) {
	s := randomtext.ID(16)
	for _, r := range s {
		if r == rune(s[0]) {
			t.Log("repeat")
		}
	}
}

// TestOnePartition checks its one partition exactly: a []int32 is no text, so its length and
// an element compared with a constant are no checks of a random text's form.
func TestOnePartition(t *testing.T) {
	parts := randomtext.Partitions(1)
	if len(parts) != 1 || parts[0] != 0x0 {
		t.Fatal(parts)
	}
}
