package mutants

import (
	"errors"
	"math"
	"math/big"
	randv1 "math/rand"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Bad input gets an error, never a panic: each case here panicked or passed silently before.

func TestNilOptionIsAnError(t *testing.T) {
	_, err := Of(Full(), nil)
	if err == nil || !strings.Contains(err.Error(), "option 1 of 1 is nil") {
		t.Errorf("Of(Full(), nil): %v, want an error naming the nil option", err)
	}
	_, err = Run(t, seededFull(1), Full(), strongSuite, withSeed(1), nil)
	if err == nil || !strings.Contains(err.Error(), "option 2 of 2 is nil") {
		t.Errorf("Run with a nil option: %v, want an error naming it", err)
	}
	if _, err := Try(t, seededFull(1), strongSuite, nil); err == nil {
		t.Error("Try with a nil option: no error")
	}
}

func TestZeroSpecIsAnError(t *testing.T) {
	var s Spec
	if _, _, err := s.Range(time.Second); err == nil || !strings.Contains(err.Error(), "zero Spec") {
		t.Errorf("Spec{}.Range: %v, want the zero Spec error", err)
	}
	if _, err := s.anchor(time.Second); err == nil {
		t.Error("Spec{}.Anchor: no error")
	}
	if s.String() != "zero Spec" {
		t.Errorf("Spec{}.String() = %q", s.String())
	}
	if _, _, err := Percent(2).Range(time.Second); err == nil {
		t.Error("Percent(2).Range: no error")
	}
}

func TestZeroReportIsNotOK(t *testing.T) {
	var r Report
	if r.OK() {
		t.Error("Report{}.OK() = true: a report of no runs claims success")
	}
	if s := r.String(); !strings.Contains(s, "no suite was run") {
		t.Errorf("Report{}.String() = %q", s)
	}
	r.Correct.Name = "correct"
	if r.OK() {
		t.Error("a Report with no mutants is OK")
	}
}

// TestRangeErrors: ranges that do not fit in a Duration, and inverted ones, are errors.
func TestRangeErrors(t *testing.T) {
	for _, tc := range []struct {
		spec Spec
		base time.Duration
		want string // "" for no error
	}{
		{Percent(1), math.MaxInt64 / 2, ""},
		{Percent(1), math.MaxInt64/2 + 1, "passes the largest time.Duration"},
		{Percent(0.25), math.MaxInt64, "passes the largest time.Duration"},
		{Percent(0x1p-60), math.MaxInt64 - 8, ""},
		{Percent(0x1p-60), math.MaxInt64 - 7, "passes the largest time.Duration"},
		{Percent(5e-324), math.MaxInt64 - 1, ""},
		{Percent(0.5), -1, "negative base"},
		{Full(), -1, "inverted"},
		{Equal(), -10, "inverted"},
		{Full(), math.MaxInt64, ""},
		{Custom("at the top", func(b time.Duration) time.Duration { return math.MaxInt64 },
			func(b time.Duration) time.Duration { return math.MaxInt64 },
			func(b time.Duration) time.Duration { return math.MaxInt64 }), 1, "no whole nanosecond"},
	} {
		lo, hi, err := tc.spec.Range(tc.base)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v at %d: %v", tc.spec, tc.base, err)
		case tc.want == "" && (hi <= lo):
			t.Errorf("%v at %d: [%d, %d)", tc.spec, tc.base, lo, hi)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v at %d: [%d, %d), %v; want an error saying %q", tc.spec, tc.base, lo, hi, err, tc.want)
		}
	}
}

// TestPercentOfExact checks percentOf against big.Float on random and extreme p and b.
func TestPercentOfExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(rapid.SampledFrom([]float64{1, 0.5, 0.25, 0.01, 1 - 0x1p-53, 0x1p-52, 5e-324, 0x1p-63}),
			rapid.Float64Range(5e-324, 1)).Draw(t, "p")
		b := rapid.OneOf(rapid.SampledFrom([]int64{0, 1, 2, 50, 1 << 53, 1<<53 + 1, math.MaxInt64 / 2, math.MaxInt64}),
			rapid.Int64Range(0, math.MaxInt64)).Draw(t, "b")
		got, ok := percentOf(p, time.Duration(b))
		// floor(p*b + 1/2), exactly.
		x := new(big.Float).SetPrec(300).SetFloat64(p)
		x.Mul(x, new(big.Float).SetInt64(b))
		x.Add(x, big.NewFloat(0.5))
		want, _ := x.Int(nil)
		if !want.IsInt64() {
			if ok {
				t.Fatalf("percentOf(%v, %d) = %d, want an overflow", p, b, got)
			}
			return
		}
		if !ok || int64(got) != want.Int64() {
			t.Fatalf("percentOf(%v, %d) = %d, %v; want %v", p, b, got, ok, want)
		}
	})
}

// TestRunReportsBadBase: a suite that calls the jitter at a base where the Spec has no
// range gets an error from Run, and the mutants' panics name the reason.
func TestRunReportsBadBase(t *testing.T) {
	const base = math.MaxInt64 - 1
	rep, err := Run(t, func(b time.Duration) time.Duration { return b }, Percent(0.5), func(t testing.TB, j Jitter) {
		j(base)
	})
	if err == nil || !strings.Contains(err.Error(), "passes the largest time.Duration") {
		t.Errorf("Run at base %d: %v, want the overflow error", base, err)
	}
	if m := rep.Mutants[0]; !m.Failed || !strings.Contains(m.Message, "passes the largest time.Duration") {
		t.Errorf("constant mutant at base %d: %+v, want a failure that names the overflow", base, m)
	}
}

// The zero Source dereferenced its nil fraction on the first read: it is now the constant
// source, through both generations of *rand.Rand.
func TestZeroSource(t *testing.T) {
	var s Source
	if a, b := s.Uint64(), s.Uint64(); a != b {
		t.Errorf("Source{}.Uint64() = %#x, then %#x: want one constant", a, b)
	}
	if got := rand.New(&Source{}).Float64(); got != 0.5 {
		t.Errorf("rand.New(&Source{}).Float64() = %v, want 0.5", got)
	}
	if got := randv1.New(&Source{}).Intn(10); got != 5 {
		t.Errorf("math/rand's rand.New(&Source{}).Intn(10) = %v, want 5", got)
	}
}

// A panic in one of Custom's functions went up through Range and Run as the user's bare
// panic value, with nothing to say which function it was or at which base: it is an error
// that names the function, the Spec and the base, and wraps a panic that was an error.
func TestCustomPanicNamesCallback(t *testing.T) {
	errBoom := errors.New("boom")
	id := func(b time.Duration) time.Duration { return b }
	boom := func(time.Duration) time.Duration { panic(errBoom) }
	text := func(time.Duration) time.Duration { panic("no range here") }
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Custom("lo", boom, id, id), `mutants: Custom("lo"): lo(1s) panicked: boom`},
		{Custom("hi", id, boom, id), `mutants: Custom("hi"): hi(1s) panicked: boom`},
		{Custom("anchor", id, id, boom), `mutants: Custom("anchor"): anchor(1s) panicked: boom`},
		{Custom("text", id, text, id), `mutants: Custom("text"): hi(1s) panicked: no range here`},
	} {
		var err error
		if p := catch(func() { _, _, err = c.spec.Range(time.Second) }); p != nil {
			t.Errorf("%s: Range panicked with %v, want the error %q", c.spec, p, c.want)
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: Range(1s) = %v, want %q", c.spec, err, c.want)
		}
		if c.spec.String() != "text" && !errors.Is(err, errBoom) {
			t.Errorf("%s: the error %v does not wrap the panic's error", c.spec, err)
		}
	}
	spec := Custom("hi", id, boom, id)
	_, err := Run(t, seededFull(1), spec, func(t testing.TB, j Jitter) { j(time.Second) }, withSeed(1))
	if err == nil || !strings.Contains(err.Error(), `Custom("hi"): hi(1s) panicked: boom`) {
		t.Errorf("Run with a Custom whose hi panics: %v, want an error that names hi", err)
	}
}

// Verify(nil, ...) dereferenced the nil testing.TB: it panics with a message that says to
// pass t, or to call Run, which takes a nil t.
func TestVerifyNilTest(t *testing.T) {
	p := catch(func() { Verify(nil, seededFull(1), Full(), strongSuite, withSeed(1)) })
	if msg, _ := p.(string); !strings.HasPrefix(msg, "mutants.Verify(nil, ...): ") {
		t.Errorf("Verify(nil, ...) panicked with %v, want a message that names the call", p)
	}
}
