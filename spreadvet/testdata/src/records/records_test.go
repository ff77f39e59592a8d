package records

import (
	"bytes"
	"strings"
	"testing"
)

// The drawn fields checked only for being there, the fixed ones exactly: a constant name
// passes.
func TestNewPerson(t *testing.T) {
	p := NewPerson("a") // want `blind test: TestNewPerson draws NewPerson once and checks only that it is not empty \(p == nil, p.Name == "", p.Address.Street == ""\)`
	if p == nil {
		t.Fatal("no person")
	}
	if p.Name == "" {
		t.Fatal("no name")
	}
	if p.Address.Street == "" {
		t.Fatal("no street")
	}
	if p.Kind != "a" || p.Country != "NZ" {
		t.Fatal("wrong kind or country")
	}
}

// One variable given two records in turn: the first is checked only on its fixed field,
// the second only for being there.
func TestPersonTwice(t *testing.T) {
	p := NewPerson("a")
	if p.Kind != "a" {
		t.Fatal(p.Kind)
	}
	p = NewPerson("b") // want `blind test: TestPersonTwice draws NewPerson once and checks only that it is not empty \(p.Name == ""\)`
	if p.Name == "" {
		t.Fatal("no name")
	}
}

// The names are counted: more than their form.
func TestPersonNames(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		p := NewPerson("a")
		seen[p.Name] = true
	}
	if len(seen) != 3 {
		t.Fatal(len(seen))
	}
}

// Only the fixed fields are read: nothing drawn is checked.
func TestPersonKind(t *testing.T) {
	p := NewPerson("a")
	if p.Kind != "a" {
		t.Fatal(p.Kind)
	}
}

// One record made far from its draw, checked for being there: more often a test of something
// else (ulid's TestZero checks IsZero of an ID its time part makes non-zero).
func TestDeep(t *testing.T) {
	p := Deep()
	if p.Name == "" {
		t.Fatal("no name")
	}
}

// Each prefix byte checked against the smallest and largest digit: a constant prefix passes.
func TestTokenPrefix(t *testing.T) {
	lo, hi := byte(255), byte(0)
	for i := 0; i < len(digits); i++ {
		lo, hi = min(lo, digits[i]), max(hi, digits[i])
	}
	for range 1000 {
		n := NewToken() // want `blind test: TestTokenPrefix draws NewToken 1000 times and checks only its characters \(n.pre\[j\] < lo, n.pre\[j\] > hi\)`
		for j := 0; j < 8; j++ {
			if n.pre[j] < lo || n.pre[j] > hi {
				t.Fatal(j)
			}
		}
	}
}

// The error of a random function is checked for naming the field: its message is fixed.
func TestFillError(t *testing.T) {
	err := Fill(&Person{})
	if err == nil || !strings.Contains(err.Error(), "kind") {
		t.Fatal(err)
	}
}

// nats-io/nuid's TestGlobalNUIDInit: the token drawn when the package starts, checked for
// being there, for its prefix's length and for its start not being zero.
func TestGlobalToken(t *testing.T) {
	if global == nil { // want `blind test: TestGlobalToken reads global, which the package's code draws \(&lockedToken\{Token: NewToken\(\)\}\), and checks only its length and that it is not empty \(global == nil, global.pre == nil, len\(global.pre\) != 8, global.seq == 0\)`
		t.Fatal("no token")
	}
	if global.pre == nil || len(global.pre) != 8 {
		t.Fatal("no prefix")
	}
	if global.seq == 0 {
		t.Fatal("no start")
	}
}

// nuid's TestNUIDRollover: the prefix compared with the one before, more than its form.
func TestGlobalTokenChanges(t *testing.T) {
	old := append([]byte{}, global.pre...)
	global.pre = NewToken().pre
	if bytes.Equal(global.pre, old) {
		t.Fatal("same prefix")
	}
}

// A variable the code also gives a fixed value keeps no draw.
func TestFixedToken(t *testing.T) {
	if fixedToken == nil || len(fixedToken.pre) != 8 {
		t.Fatal("no prefix")
	}
}
