package helpers

import (
	"regexp"
	"strconv"
	"testing"
)

// A draw checked against bounds and then formatted, the string checked for its length
// only: the format tells nothing of the spread, so the test is as blind as without it.
func TestFractionFormat(t *testing.T) {
	d := Fraction() // want `blind test: TestFractionFormat draws Fraction once and checks only its bounds \(d < 0 \|\| d >= 1\)`
	if d < 0 || d >= 1 {
		t.Fatal(d)
	}
	if s := strconv.FormatFloat(d, 'f', 3, 64); len(s) != 5 {
		t.Fatal(s)
	}
}

// The formatted draw matched against a pattern, in a loop: still only its shape.
func TestFractionFormatRegexp(t *testing.T) {
	for range 100 {
		d := Fraction() // want `blind test: TestFractionFormatRegexp draws Fraction 100 times and checks only their bounds \(d < 0 \|\| d >= 1\)`
		if d < 0 || d >= 1 {
			t.Fatal(d)
		}
		if !regexp.MustCompile(`^0\.\d+$`).MatchString(strconv.FormatFloat(d, 'f', -1, 64)) {
			t.Fatal(d)
		}
	}
}

// The formatted draw compared exactly: more than its shape.
func TestFractionFormatCompared(t *testing.T) {
	d := Fraction()
	if d < 0 || d >= 1 {
		t.Fatal(d)
	}
	if s := strconv.FormatFloat(d, 'f', 1, 64); s == "0.5" {
		t.Fatal(s)
	}
}

// The formatted draw handed to other code, which uses its digits.
func TestFractionFormatParsed(t *testing.T) {
	d := Fraction()
	if d < 0 || d >= 1 {
		t.Fatal(d)
	}
	back, err := strconv.ParseFloat(strconv.FormatFloat(d, 'g', -1, 64), 64)
	if err != nil || back != d {
		t.Fatal(back)
	}
}
