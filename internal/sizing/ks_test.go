package sizing

import (
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// ksFixRapidSeed makes rapid draw the same cases on every run unless -rapid.seed asks for
// others.
func ksFixRapidSeed(t *testing.T) {
	f := flag.Lookup("rapid.seed")
	if f == nil || f.Value.String() != "0" {
		return
	}
	if err := flag.Set("rapid.seed", "20261129"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("rapid.seed", "0") })
}

// The reference values of testdata/reference-values.md, computed independently: the
// exact critical value and the DKW-Massart one.
func TestKSCriticalReference(t *testing.T) {
	for _, c := range []struct {
		n        int
		alpha    float64
		want     float64
		tol      float64
		dkw      float64
		dkwTol   float64
		inMethod string
	}{
		{30, 1e-9, 0.5695, 5e-5, 0.5974, 5e-5, "exact"},
		{100, 1e-9, 0.3220, 5e-5, 0.3272, 5e-5, "one-sided"},
		{1000, 1e-9, 0.10320, 5e-6, 0.10348, 5e-6, "one-sided"},
		{1000, 1e-3, 0.06146, 5e-6, 0.06165, 5e-6, "one-sided"},
	} {
		d, method, err := KSCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d-c.want) > c.tol || !strings.Contains(method, c.inMethod) {
			t.Errorf("KSCritical(%d, %g) = %.6f, %q; want %.5f by a method with %q", c.n, c.alpha, d, method, c.want, c.inMethod)
		}
		if dkw := ksDKW(c.n, c.alpha); math.Abs(dkw-c.dkw) > c.dkwTol {
			t.Errorf("ksDKW(%d, %g) = %.6f, want %.5f", c.n, c.alpha, dkw, c.dkw)
		}
	}
}

// Critical values of the two-sided test from Miller (1956), Table 1, to five digits (rounded
// to three they are Massey's (1951)), within a unit of the fifth digit. Miller tabulated the
// d at which twice the one-sided tail is alpha: at alpha <= 0.05 that agrees with the exact
// two-sided value to the digits shown; at 0.10 and 0.20 it does not, and there the exact d
// must lie below his.
func TestKSCriticalPublishedTables(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
		want  float64
	}{
		{1, 0.05, 0.97500}, {5, 0.05, 0.56328}, {10, 0.05, 0.40925}, {20, 0.05, 0.29408},
		{30, 0.05, 0.24170}, {40, 0.05, 0.21012},
		{5, 0.01, 0.66853}, {10, 0.01, 0.48893}, {20, 0.01, 0.35241}, {30, 0.01, 0.28987},
		{40, 0.01, 0.25205}, {10, 0.10, 0.36866}, {10, 0.20, 0.32260},
	} {
		tail := func(d float64) float64 { p, _ := ksTail(c.n, d, nil, ksBound); return p }
		miller := ksSolve(tail, 0.5/float64(c.n), min(1, ksDKW(c.n, c.alpha)), 0.01, c.alpha)
		if math.Abs(miller-c.want) > 1e-5 {
			t.Errorf("n=%d alpha=%g: twice the one-sided tail gives d = %.7f, want %.5f", c.n, c.alpha, miller, c.want)
		}
		d, _, err := KSCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if c.alpha <= 0.05 && math.Abs(d-c.want) > 1e-5 || d > c.want+1e-5 {
			t.Errorf("KSCritical(%d, %g) = %.7f, want %.5f", c.n, c.alpha, d, c.want)
		}
	}
}

// Values of P(D_n < d) from R's pkolmogorov2x (a Marsaglia-Tsang-Wang implementation) and
// SciPy's kstwo (Simard-L'Ecuyer: exact for n <= 140, the Pelz-Good series beyond, which is
// good to about 1e-7 only: hence tol).
func TestKSExactCDFPublished(t *testing.T) {
	for _, c := range []struct {
		n    int
		d    float64
		want float64
		tol  float64
	}{
		{10, 0.274, 0.62847961545650433, 1e-13},   // the paper's example, R
		{599, 0.0357, 0.57975087884804655, 1e-13}, // R
		{10000, 0.01, 0.73178087203705255, 1e-12}, // R: a 201 x 201 matrix to the 10,000th
		{20, 0.2, 0.647279826376585, 1e-13},
		{50, 0.15, 0.8097363348175198, 1e-13},
		{100, 0.1, 0.7473072429936127, 1e-13},
		{5, 0.5, 0.888, 1e-13},
		{500, 0.05, 0.8413373977618461, 1e-7},  // Pelz-Good
		{1000, 0.03, 0.6773097856085364, 1e-7}, // Pelz-Good
	} {
		got := must(KSExactCDF(c.n, c.d))
		if math.Abs(got-c.want) > c.tol {
			t.Errorf("KSExactCDF(%d, %v) = %.16f, want %.16f", c.n, c.d, got, c.want)
		}
	}
}

// Closed forms: P(D_1 < d) = 2d - 1 on [1/2, 1]; P(D_n < d) = n! (2d - 1/n)^n on
// (1/(2n), 1/n], where D_n < d confines each U_(i) to its own box
// (i/n - d, (i-1)/n + d) of width 2d - 1/n, and the boxes do not overlap.
func TestKSExactCDFClosedForms(t *testing.T) {
	for _, d := range []float64{0.5, 0.6, 0.75, 0.9, 0.999} {
		if got, want := ksMTW(1, d), 2*d-1; math.Abs(got-want) > 1e-14 {
			t.Errorf("ksMTW(1, %v) = %.16g, want %.16g", d, got, want)
		}
	}
	for _, n := range []int{2, 3, 5, 10, 20} {
		for _, f := range []float64{0.55, 0.7, 0.9, 0.999} {
			d := (0.5 + f*0.5) / float64(n) // in (1/(2n), 1/n)
			want := math.Exp(lgammaInt(n+1) + float64(n)*math.Log(2*d-1/float64(n)))
			if got := ksMTW(n, d); math.Abs(got-want) > 1e-13*want+1e-300 {
				t.Errorf("ksMTW(%d, %v) = %.16g, want n!(2d-1/n)^n = %.16g", n, d, got, want)
			}
		}
	}
}

func lgammaInt(n int) float64 { v, _ := math.Lgamma(float64(n)); return v }

// The matrix power and the one-sided sum are independent computations, tied by a theorem:
// 2 P+ - P+^2 <= P(D_n >= d) <= 2 P+, with equality on the right for d >= 1/2.
func TestKSExactAgainstOneSided(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 10, 25, 60, 100, 140} {
		for i := 1; i < 100; i++ {
			d := float64(i) / 100
			if d <= 0.5/float64(n) || n > 30 && d > 0.6 { // the matrix grows as n d
				continue
			}
			q := 1 - ksMTW(n, d)
			p := ksOneSidedTail(n, d, nil)
			lo, hi := 2*p-p*p, 2*p
			if d > 0.5 {
				lo = hi
			}
			if q < lo-1e-13 || q > hi+1e-13 {
				t.Errorf("n=%d d=%v: 1 - ksMTW = %.16g outside [2P+ - P+^2, 2P+] = [%.16g, %.16g]", n, d, q, lo, hi)
			}
		}
	}
}

// The one-sided sum at n = 1 and against its own limit, exp(-2 n d^2) (Massart's one-sided
// bound holds whenever it is at most 1/2).
func TestKSOneSidedTail(t *testing.T) {
	for _, d := range []float64{0.01, 0.3, 0.5, 0.99, 1} {
		if got := ksOneSidedTail(1, d, nil); math.Abs(got-(1-d)) > 1e-15 {
			t.Errorf("P(D+_1 >= %v) = %v, want %v", d, got, 1-d)
		}
	}
	for _, n := range []int{10, 1000, 100_000} {
		lc := ksLogChoose(n)
		for _, x := range []float64{0.6, 1, 2, 4} {
			d := x / math.Sqrt(float64(n))
			p, plc := ksOneSidedTail(n, d, nil), ksOneSidedTail(n, d, lc)
			if bound := math.Exp(-2 * x * x); p > bound {
				t.Errorf("P(D+_%d >= %v) = %g above Massart's bound %g", n, d, p, bound)
			}
			if math.Abs(p-plc) > 1e-12*p {
				t.Errorf("n=%d d=%v: the table of log C(n, j) changes the sum: %g vs %g", n, d, p, plc)
			}
		}
	}
}

// uniformOrderStats fills u with the order statistics of len(u) uniforms, from exponential
// spacings: O(n) and already sorted.
func uniformOrderStats(r *rand.Rand, u []float64) {
	s := 0.0
	for i := range u {
		s += r.ExpFloat64()
		u[i] = s
	}
	s += r.ExpFloat64()
	for i := range u {
		u[i] /= s
	}
}

// Seeded simulation: the fraction of samples with D_n >= d against KSTail, within 5 binomial
// standard deviations; where KSTail is twice the one-sided tail, the simulated value must lie
// in the theorem's sandwich [2P+ - P+^2, 2P+].
func TestKSTailSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	identity := func(x float64) float64 { return x }
	for _, c := range []struct {
		n      int
		alpha  float64
		trials int
	}{{5, 0.3, 100_000}, {20, 0.05, 100_000}, {20, 0.01, 100_000}, {140, 0.05, 50_000}, {300, 0.05, 50_000}, {1000, 0.2, 20_000}} {
		trials := float64(c.trials)
		d, method, err := KSCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		u := make([]float64, c.n)
		hits := 0
		for range c.trials {
			uniformOrderStats(r, u)
			if must(KSStatistic(u, identity)) >= d {
				hits++
			}
		}
		got := float64(hits) / trials
		p, _, _ := KSTail(c.n, d)
		lo := p
		if strings.Contains(method, "2 x exact one-sided") {
			p1 := ksOneSidedTail(c.n, d, nil)
			lo = 2*p1 - p1*p1
		}
		sd := math.Sqrt(p * (1 - p) / trials)
		if got < lo-5*sd || got > p+5*sd {
			t.Errorf("n=%d d=%.5f (%s): simulated P(D >= d) = %.5f, want [%.5f, %.5f] +- 5 sd (%.5f)", c.n, d, method, got, lo, p, sd)
		}
	}
}

// KSStatistic against the definition: the largest gap at a sample value and just below it,
// with counts taken afresh (ties and all), in O(n^2).
func ksStatisticNaive(xs []float64, cdf func(float64) float64) float64 {
	n := float64(len(xs))
	var d float64
	for _, x := range xs {
		var le, lt float64
		for _, y := range xs {
			if y <= x {
				le++
			}
			if y < x {
				lt++
			}
		}
		f := cdf(x)
		d = max(d, math.Abs(le/n-f), math.Abs(lt/n-f))
	}
	return d
}

func TestKSStatisticProperties(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		// Values on a coarse grid, so that ties happen.
		xs := rapid.SliceOfN(rapid.IntRange(-3, 40), 1, 60).Draw(t, "xs")
		vals := make([]float64, len(xs))
		for i, x := range xs {
			vals[i] = float64(x) / 37
		}
		cdf := func(x float64) float64 { return min(1, max(0, x)) }
		unsorted := must(KSStatistic(vals, cdf))
		slices.Sort(vals)
		got, want := must(KSStatistic(vals, cdf)), ksStatisticNaive(vals, cdf)
		if math.Abs(got-want) > 1e-15 || got != unsorted {
			t.Fatalf("KSStatistic = %v (unsorted %v), want %v", got, unsorted, want)
		}
	})
}

func TestKSStatisticBadInput(t *testing.T) {
	id := func(x float64) float64 { return x }
	for name, c := range map[string]struct {
		xs  []float64
		cdf func(float64) float64
	}{
		"empty":     {nil, id},
		"nil cdf":   {[]float64{0.5}, nil},
		"NaN value": {[]float64{0.1, math.NaN()}, id},
		"NaN cdf":   {[]float64{0.1, 0.2}, func(float64) float64 { return math.NaN() }},
		"cdf > 1":   {[]float64{0.1, 0.2}, func(float64) float64 { return 1.5 }},
		"cdf < 0":   {[]float64{0.1, 0.2}, func(float64) float64 { return -0.5 }},
	} {
		var e *InputError
		if got, err := KSStatistic(c.xs, c.cdf); !errors.As(err, &e) {
			t.Errorf("%s: KSStatistic = %v, %v; want an *InputError", name, got, err)
		}
	}
	if got, err := KSStatistic([]float64{0.5}, id); got != 0.5 || err != nil {
		t.Errorf("KSStatistic([0.5]) = %v, %v; want 0.5", got, err)
	}
}

func TestKSCriticalBadInput(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
	}{{0, 0.05}, {-3, 0.05}, {10, 0}, {10, 1}, {10, -0.1}, {10, 1.5}, {10, math.NaN()}, {10, math.Inf(1)}} {
		if _, _, err := KSCritical(c.n, c.alpha); err == nil {
			t.Errorf("KSCritical(%d, %v): no error", c.n, c.alpha)
		}
	}
	// d = 1 - (alpha/2)^(1/n) rounds to 1 only for absurd alphas: then the check could
	// never fail, and the error names the n that it needs.
	_, _, err := KSCritical(1, 1e-17)
	var tooSmall *TooSmallError
	if !errors.As(err, &tooSmall) || tooSmall.Need != 2 || tooSmall.N != 1 {
		t.Errorf("KSCritical(1, 1e-17) = %v, want a TooSmallError with Need 2", err)
	}
	if d, _, err := KSCritical(2, 1e-17); err != nil || !(d < 1) {
		t.Errorf("KSCritical(2, 1e-17) = %v, %v; want d < 1", d, err)
	}
	if d, _, err := KSCritical(1, 1e-15); err != nil || !(d < 1) || 2*(1-d) > 1e-15 {
		t.Errorf("KSCritical(1, 1e-15) = %v, %v; want 2 (1 - d) <= 1e-15", d, err)
	}
}

func TestKSTailEdges(t *testing.T) {
	for _, c := range []struct {
		n    int
		d    float64
		want float64
	}{
		{10, 0, 1}, {10, 0.05, 1}, {10, -1, 1}, {10, 1, 0}, {10, 2, 0}, {1, 0.75, 0.5},
		{3, 0.9, 2 * 0.1 * 0.1 * 0.1}, // 2 (1-d)^n for d >= 1 - 1/n
	} {
		if got, _, err := KSTail(c.n, c.d); math.Abs(got-c.want) > 1e-15 || err != nil {
			t.Errorf("KSTail(%d, %v) = %v, %v; want %v", c.n, c.d, got, err, c.want)
		}
	}
	var e *InputError
	for _, c := range []struct {
		n int
		d float64
	}{{0, 0.5}, {-1, 0.5}, {10, math.NaN()}, {MaxN + 1, 0.5}} {
		if got, _, err := KSTail(c.n, c.d); !errors.As(err, &e) {
			t.Errorf("KSTail(%d, %v) = %v, %v; want an *InputError", c.n, c.d, got, err)
		}
		if got, err := KSExactCDF(c.n, c.d); !errors.As(err, &e) {
			t.Errorf("KSExactCDF(%d, %v) = %v, %v; want an *InputError", c.n, c.d, got, err)
		}
	}
}

// Which method KSTail and KSCritical use where: the table in the package documentation.
func TestKSMethods(t *testing.T) {
	for _, c := range []struct {
		n      int
		alpha  float64
		method string
	}{
		{10, 0.05, ksMethodExact},
		{140, 0.05, ksMethodExact},
		{140, 1e-6, ksMethodOneSided}, // tails below 1e-5 keep more digits this way
		{30, 1e-9, ksMethodHalf},      // d = 0.5695 >= 1/2
		{141, 0.05, ksMethodOneSided},
		{50_000, 1e-9, ksMethodOneSided},
		{50_001, 1e-9, ksMethodDKW},
	} {
		d, method, err := KSCritical(c.n, c.alpha)
		if err != nil || method != c.method {
			t.Errorf("KSCritical(%d, %g) = %v, %q, %v; want method %q", c.n, c.alpha, d, method, err, c.method)
		}
		if p, m, _ := KSTail(c.n, d); p > c.alpha || m != c.method {
			t.Errorf("KSTail(%d, %v) = %g, %q; want <= %g by %q", c.n, d, p, m, c.alpha, c.method)
		}
	}
	// DKW beyond 50,000 is the closed form, to the last bit on the safe side.
	n, alpha := 1_000_000, 1e-9
	d, _, _ := KSCritical(n, alpha)
	if p := 2 * math.Exp(-2*float64(n)*d*d); p > alpha || math.Abs(d-ksDKW(n, alpha)) > 1e-15 {
		t.Errorf("KSCritical(1e6, 1e-9) = %v: tail %g, DKW %v", d, p, ksDKW(n, alpha))
	}
}

// KSCritical is the smallest d that meets alpha: KSTail at d is at most alpha, and just below
// d (by more than the solve's relative tolerance of 1e-10) it is above. It never exceeds the
// DKW-Massart value, which bounds every method.
func TestKSCriticalIsSmallest(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(rapid.IntRange(1, 200), rapid.IntRange(1, 100_000)).Draw(t, "n")
		alpha := math.Pow(10, rapid.Float64Range(-15, -0.05).Draw(t, "log10 alpha"))
		d, method, err := KSCritical(n, alpha)
		if err != nil {
			t.Fatal(err)
		}
		if p, m, _ := KSTail(n, d); p > alpha || m != method {
			t.Fatalf("KSTail(%d, %v) = %g by %q, above alpha %g (KSCritical used %q)", n, d, p, m, alpha, method)
		}
		below := d * (1 - 1e-8)
		if n > 1 && d < 0.999 { // near 1, below must be taken relative to 1 - d
			if p, _ := ksTail(n, below, nil, ksChoiceFor(alpha)); p <= alpha {
				t.Fatalf("n=%d alpha=%g: KSTail(%v) = %g already meets alpha below d = %v", n, alpha, below, p, d)
			}
		}
		if dkw := ksDKW(n, alpha); d > dkw*(1+1e-12) {
			t.Fatalf("KSCritical(%d, %g) = %v above DKW-Massart's %v", n, alpha, d, dkw)
		}
	})
}

func ksChoiceFor(alpha float64) int {
	if alpha > ksSmallTail {
		return ksExact
	}
	return ksBound
}

// d falls as alpha grows, up to the solve's tolerance; it falls as n grows where one method
// covers both sample sizes. At the switches of method it may step up: the size of each step
// is pinned in TestKSCriticalMethodSteps.
func TestKSCriticalMonotone(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3000).Draw(t, "n")
		a1 := math.Pow(10, rapid.Float64Range(-15, -0.05).Draw(t, "log10 a1"))
		a2 := a1 * math.Pow(10, rapid.Float64Range(1e-6, 3).Draw(t, "log10 a2/a1"))
		if a2 >= 1 {
			return
		}
		d1, m1, _ := KSCritical(n, a1)
		d2, m2, _ := KSCritical(n, a2)
		if d2 > d1*(1+1e-9) {
			t.Fatalf("n=%d: d(%g) = %v (%s) < d(%g) = %v (%s)", n, a1, d1, m1, a2, d2, m2)
		}
		n2 := n + rapid.IntRange(1, 50).Draw(t, "n2-n")
		if (n <= ksMaxExactN) != (n2 <= ksMaxExactN) && a1 > ksSmallTail {
			return // a switch of method between n and n2
		}
		if d3, m3, _ := KSCritical(n2, a1); d3 > d1*(1+1e-9) {
			t.Fatalf("alpha=%g: d(n=%d) = %v (%s) < d(n=%d) = %v (%s)", a1, n, d1, m1, n2, d3, m3)
		}
	})
}

// The steps up in d where the method changes with n, at alpha = 0.5, 0.05 and 1e-9: from the
// exact tail to twice the one-sided one at n = 141, and from that to DKW-Massart at 50,001.
// They are the price of a rigorous bound where the exact tail costs too much.
func TestKSCriticalMethodSteps(t *testing.T) {
	for _, c := range []struct {
		n        int
		alpha    float64
		maxRatio float64 // d(n+1)/d(n) at most
	}{
		// Twice the one-sided tail exceeds the exact one by a relative P+/2 at most: 13% at
		// alpha = 0.5, where log P moves by 4 n d^2 = 2.8 per unit of relative change in d.
		{ksMaxExactN, 0.5, 1 + 0.13/2.8},
		{ksMaxExactN, 0.05, 1}, // the step is smaller than the fall of d with n
		// DKW's d exceeds the exact one by about 1/(6n) to first order: a relative
		// 1/(6 sqrt(n) x) with x = sqrt(n) d = 0.83 at alpha = 0.5 and 3.27 at 1e-9; the
		// limit allows 20% for the higher orders.
		{ksMaxOneSidedN, 0.5, 1 + 1/(5*math.Sqrt(ksMaxOneSidedN)*0.83)},
		{ksMaxOneSidedN, 1e-9, 1 + 1/(5*math.Sqrt(ksMaxOneSidedN)*3.27)},
	} {
		d1, _, _ := KSCritical(c.n, c.alpha)
		d2, _, _ := KSCritical(c.n+1, c.alpha)
		if d2/d1 > c.maxRatio {
			t.Errorf("alpha=%g: d(%d)/d(%d) = %.6f, want <= %.6f", c.alpha, c.n+1, c.n, d2/d1, c.maxRatio)
		} else {
			t.Logf("alpha=%g: d(%d)/d(%d) = %.6f <= %.6f", c.alpha, c.n+1, c.n, d2/d1, c.maxRatio)
		}
	}
}

// Repeated calls hit the cache and give the same answer.
func TestKSCriticalCached(t *testing.T) {
	d1, m1, _ := KSCritical(777, 1e-7)
	d2, m2, _ := KSCritical(777, 1e-7)
	if d1 != d2 || m1 != m2 {
		t.Errorf("KSCritical(777, 1e-7) changed between calls: %v %q, %v %q", d1, m1, d2, m2)
	}
	if _, ok := ksCache.lookup(ksKey{777, 1e-7}); !ok {
		t.Error("KSCritical(777, 1e-7) is not cached")
	}
}

func BenchmarkKSCritical(b *testing.B) {
	for _, n := range []int{30, 1000, ksMaxOneSidedN, 100_000, 1_000_000} {
		b.Run("first/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				ksCritical(n, 1e-9, ksGuess(n))
			}
		})
		// The verification alone, which the first call makes once when the guess holds.
		b.Run("verify/n="+strconv.Itoa(n), func(b *testing.B) {
			d, method, _ := KSCritical(n, 1e-9)
			for b.Loop() {
				ksTailAtMost(n, d, 1e-9, method)
			}
		})
		b.Run("cached/n="+strconv.Itoa(n), func(b *testing.B) {
			KSCritical(n, 1e-9)
			for b.Loop() {
				KSCritical(n, 1e-9)
			}
		})
	}
}

// At a tiny alpha and a small n, d lies within a few ulps of 1, where the tail is the closed
// form 2 (1-d)^n. KSCritical sizes the check there whenever a float64 d below 1 can meet
// alpha, and only then reports the sample too small, with a Need at which it succeeds. The
// fuzzer found n = 19, alpha = 5.33e-300 reported too small with Need = 19.
func TestKSCriticalNearOne(t *testing.T) {
	for _, alpha := range []float64{5.33e-300, MinAlpha, 1e-200, 1e-100, 1e-30, 1e-16} {
		need := ksNeed(alpha)
		for n := 1; n <= need+3; n++ {
			d, method, err := KSCritical(n, alpha)
			var small *TooSmallError
			switch {
			case n < need && (!errors.As(err, &small) || small.Need != need):
				t.Errorf("KSCritical(%d, %g) = %v, %v; want a *TooSmallError with Need %d", n, alpha, d, err, need)
			case n >= need && (err != nil || d >= 1):
				t.Errorf("KSCritical(%d, %g) = %v, %v; want d below 1 (Need is %d)", n, alpha, d, err, need)
			case n >= need:
				if p, m, _ := KSTail(n, d); p > alpha || m != method {
					t.Errorf("KSTail(%d, %v) = %g by %q, want at most %g by %q", n, d, p, m, alpha, method)
				}
				// Below d, the tail is above the target: alpha less the bound on its rounding.
				if below := math.Nextafter(d, 0); below >= 0.5 && ksTailAt(n, below, alpha) <= alpha*(1-ksGuess(n)) {
					t.Errorf("KSCritical(%d, %g) = %v, but %v below it meets alpha less its rounding", n, alpha, d, below)
				}
			}
		}
	}
}

// ksTailAt is the tail KSCritical inverts at alpha.
func ksTailAt(n int, d, alpha float64) float64 {
	p, _ := ksTail(n, d, ksLogChoose(n), ksChoiceFor(alpha))
	return p
}
