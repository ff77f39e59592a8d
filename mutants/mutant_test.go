package mutants

import (
	"fmt"
	"github.com/spreadcheck/spreadcheck/spread"
	"maps"
	"slices"
	"testing"
	"time"
)

var specs = []Spec{Full(), Equal(), Percent(0.25), Percent(0.01), Percent(1),
	Custom("custom [base, 3base) anchored at 2base",
		func(b time.Duration) time.Duration { return b },
		func(b time.Duration) time.Duration { return 3 * b },
		func(b time.Duration) time.Duration { return 2 * b })}

func mustOf(t *testing.T, spec Spec, opts ...Option) map[string]Mutant {
	t.Helper()
	ms, err := Of(spec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Mutant{}
	for _, m := range ms {
		byName[m.Name] = m
	}
	return byName
}

func draw(j Jitter, base time.Duration, n int) []time.Duration {
	xs := make([]time.Duration, n)
	for i := range xs {
		xs[i] = j(base)
	}
	return xs
}

func TestSpecRanges(t *testing.T) {
	for _, tc := range []struct {
		spec           Spec
		base           time.Duration
		lo, hi, anchor time.Duration
	}{
		{Full(), time.Second, 0, time.Second, 0},
		{Full(), 0, 0, 1, 0}, // narrower than a nanosecond: the single value lo
		{Equal(), time.Second, 500 * time.Millisecond, time.Second, 500 * time.Millisecond},
		{Equal(), 3, 1, 3, 1},
		{Percent(0.25), time.Second, 750 * time.Millisecond, 1250 * time.Millisecond, time.Second},
		{Percent(0.01), 20, 20, 21, 20},
		{Percent(0.01), 50, 49, 51, 50}, // 0.5ns rounds away from zero
	} {
		sp := tc.spec.mustSpan(tc.base)
		lo, hi := sp.lo, sp.hi
		if a := sp.anchor; lo != tc.lo || hi != tc.hi || a != tc.anchor {
			t.Errorf("%v at %v: range [%v, %v) anchor %v, want [%v, %v) anchor %v",
				tc.spec, tc.base, lo, hi, a, tc.lo, tc.hi, tc.anchor)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	bad := map[string]struct {
		spec Spec
		opts []Option
	}{
		"zero Spec":       {Spec{}, nil},
		"Percent(0)":      {Percent(0), nil},
		"Percent(1.5)":    {Percent(1.5), nil},
		"Percent(NaN)":    {Percent(nan()), nil},
		"Custom nil":      {Custom("x", nil, nil, nil), nil},
		"Collapse(1)":     {Full(), []Option{Collapse(1)}},
		"Collapse(0)":     {Full(), []Option{Collapse(0)}},
		"coarseClock nil": {Full(), []Option{coarseClock(nil)}},
		"fineClock nil":   {Full(), []Option{fineClock(nil)}},
		"reference(0)":    {Full(), []Option{reference(0)}},
		"Timeout(0)":      {Full(), []Option{Timeout(0)}},
	}
	for name, tc := range bad {
		if ms, err := Of(tc.spec, tc.opts...); err == nil {
			t.Errorf("%s: Of returned %d mutants and no error", name, len(ms))
		} else if _, err := Run(t, func(time.Duration) time.Duration { return 0 }, tc.spec,
			func(testing.TB, Jitter) {}, tc.opts...); err == nil {
			t.Errorf("%s: Run returned no error", name)
		}
	}
}

func nan() float64 { var z float64; return z / z }

func TestOfNames(t *testing.T) {
	ms, _ := Of(Full())
	ext, _ := Of(Full(), Extended())
	var names []string
	for _, m := range ext {
		names = append(names, m.Name)
	}
	want := []string{"constant", "sign-flip", "clock-derived/coarse", "clock-derived/fine",
		"collapsed-range", "overshoot", "quantized", "ignores-base", "truncated"}
	if !slices.Equal(names, want) || len(ms) != 5 {
		t.Errorf("Of(Full(), Extended()) = %v and Of(Full()) has %d, want %v and 5", names, len(ms), want)
	}
}

// TestShapes checks each mutant at base 1s against its definition, value by value.
func TestShapes(t *testing.T) {
	const base, n = time.Second, 1000
	for _, spec := range specs {
		t.Run(spec.String(), func(t *testing.T) {
			ms := mustOf(t, spec, Extended())
			sp := spec.mustSpan(base)
			lo, hi, a, w := sp.lo, sp.hi, sp.anchor, sp.width()
			all := func(name string, ok func(i int, x time.Duration) bool) {
				t.Helper()
				for i, x := range draw(ms[name].Jitter, base, n) {
					if !ok(i, x) {
						t.Fatalf("%s: value %d = %v is wrong (range [%v, %v), anchor %v)", name, i, x, lo, hi, a)
					}
				}
			}
			all("constant", func(_ int, x time.Duration) bool { return x == lo+w/2 })
			all("truncated", func(_ int, x time.Duration) bool { return x == a })
			all("clock-derived/coarse", func(_ int, x time.Duration) bool { return x == lo+w*123456789/1e9 })
			// The fine clock starts 0.123456789 into a second and steps 0.211324865s.
			all("clock-derived/fine", func(i int, x time.Duration) bool {
				frac := (123456789 + int64(i)*211324865) % 1e9
				return x == lo+time.Duration(float64(frac)/1e9*float64(w))
			})
			all("sign-flip", func(_ int, x time.Duration) bool {
				return x <= a && x >= min(lo, a-(hi-1-a))
			})
			all("collapsed-range", func(_ int, x time.Duration) bool {
				return x >= a+(lo-a)/2 && x < a+(hi-a)/2
			})
			all("overshoot", func(_ int, x time.Duration) bool { return x >= lo && x < hi+w/4 })
			all("quantized", func(_ int, x time.Duration) bool { return (x-lo)%(w/10) == 0 })
			// ignores-base keeps the offsets of a 100ms base.
			ref := spec.mustSpan(100 * time.Millisecond)
			rlo, rhi, ra := ref.lo, ref.hi, ref.anchor
			all("ignores-base", func(_ int, x time.Duration) bool {
				return x-a >= rlo-ra && x-a < rhi-ra
			})
			// The random mutants reach both ends of their ranges.
			for name, want := range map[string][2]time.Duration{
				"sign-flip":       {min(lo, a-(hi-1-a)), a},
				"collapsed-range": {a + (lo-a)/2, a + (hi-a)/2},
				"overshoot":       {lo, hi + w/4},
			} {
				xs := draw(ms[name].Jitter, base, n)
				if span := want[1] - want[0]; slices.Min(xs) > want[0]+span/50 || slices.Max(xs) < want[1]-span/50 {
					t.Errorf("%s: values span [%v, %v], want about [%v, %v)", name, slices.Min(xs), slices.Max(xs), want[0], want[1])
				}
			}
		})
	}
}

// TestDeterministic checks that the mutants repeat exactly from one Of to the next, and
// that Seed changes the healthy random numbers.
func TestDeterministic(t *testing.T) {
	a, b, c := mustOf(t, Full()), mustOf(t, Full()), mustOf(t, Full(), withSeed(7))
	for name := range a {
		x, y := draw(a[name].Jitter, time.Second, 50), draw(b[name].Jitter, time.Second, 50)
		if !slices.Equal(x, y) {
			t.Errorf("%s differs between two calls of Of", name)
		}
		random := name == "sign-flip" || name == "collapsed-range"
		if z := draw(c[name].Jitter, time.Second, 50); random == slices.Equal(x, z) {
			t.Errorf("%s: withSeed(7) changed its values: %v, want %v", name, !random, random)
		}
	}
}

type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

func TestClockOptions(t *testing.T) {
	half := fixedClock(time.Date(2026, 1, 1, 0, 0, 0, 5e8, time.UTC))
	ms := mustOf(t, Full(), coarseClock(half.Now), fineClock(half.Now), Collapse(0.1))
	for _, name := range []string{"clock-derived/coarse", "clock-derived/fine"} {
		if got := ms[name].Jitter(time.Second); got != 500*time.Millisecond {
			t.Errorf("%s on a clock at .5s = %v, want 500ms", name, got)
		}
	}
	if xs := draw(ms["collapsed-range"].Jitter, time.Second, 100); slices.Max(xs) >= 100*time.Millisecond {
		t.Errorf("collapsed-range with Collapse(0.1) reached %v, want < 100ms", slices.Max(xs))
	}
}

// distribution returns the exact distribution of a random mutant at base, by enumerating
// every value of its span, as counts scaled to a common denominator.
func distribution(s shape, base time.Duration) map[time.Duration]int {
	sp := s.span(base)
	counts := map[time.Duration]int{}
	for x := sp.lo; x < sp.hi; x++ {
		y := x
		if s.move != nil {
			y = s.move(base, x)
		}
		counts[y] += 1
	}
	// Scale to a denominator shared by every span below 1000 values wide.
	for y := range counts {
		counts[y] *= 720720 / int(sp.width())
	}
	return counts
}

// TestEquivalentAtEnumerated checks EquivalentAt against the exact distributions at every
// small base: a mutant is equivalent exactly when its distribution is the correct one.
func TestEquivalentAtEnumerated(t *testing.T) {
	for _, spec := range specs {
		b := builder{spec: spec, cfg: &config{factor: 0.5, reference: 7}}
		shapes := map[string]shape{
			"sign-flip":       b.signFlipShape(),
			"collapsed-range": {span: b.collapsedSpan},
			"overshoot":       {span: b.overshootSpan},
			"quantized":       b.quantizedShape(),
			"ignores-base":    b.ignoresBaseShape(),
			"constant":        {span: func(base time.Duration) span { x := spec.mustSpan(base).pick(0.5); return span{lo: x, hi: x + 1} }},
			"truncated":       {span: func(base time.Duration) span { a := spec.mustSpan(base).anchor; return span{lo: a, hi: a + 1} }},
		}
		ms := map[string]Mutant{"sign-flip": b.signFlip(), "collapsed-range": b.collapsed(),
			"overshoot": b.overshoot(), "quantized": b.quantized(), "ignores-base": b.ignoresBase(),
			"constant": b.constant(), "truncated": b.truncated()}
		for base := time.Duration(0); base <= 40; base++ {
			correct := distribution(shape{span: spec.mustSpan}, base)
			for name, s := range shapes {
				same := maps.Equal(distribution(s, base), correct)
				if got := ms[name].EquivalentAt(base); got != same {
					t.Errorf("%v, %s at base %v: EquivalentAt = %v, exact distributions equal: %v",
						spec, name, base, got, same)
				}
			}
		}
	}
}

func TestEquivalentAtTinyBases(t *testing.T) {
	// Full jitter at 1ns is always 0: every mutant of the four is equivalent. At 2ns none is,
	// nor any extended one but quantized, whose step of a tenth of the range is below 1ns.
	for _, m := range mustOf(t, Full(), Extended()) {
		if !m.EquivalentAt(1) && m.Class != spread.SuspectIgnoresBase && m.Class != spread.SuspectOvershoot {
			t.Errorf("%s is not equivalent at base 1ns", m.Name)
		}
		if m.EquivalentAt(2) != (m.Class == spread.SuspectQuantized) {
			t.Errorf("%s is equivalent at base 2ns", m.Name)
		}
	}
}

func ExampleOf() {
	ms, err := Of(Full())
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Printf("%-22s %v %v %v\n", m.Name, m.Jitter(time.Second), m.Jitter(time.Second), m.Jitter(time.Second))
	}
	// Output:
	// constant               500ms 500ms 500ms
	// sign-flip              -217.565923ms -241.791052ms -389.640948ms
	// clock-derived/coarse   123.456789ms 123.456789ms 123.456789ms
	// clock-derived/fine     123.456789ms 334.781654ms 546.106519ms
	// collapsed-range        4.349785ms 156.3743ms 312.595761ms
}
