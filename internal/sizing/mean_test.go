package sizing

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var sdUniform = 1 / math.Sqrt(12) // sd of U[0,1)

// irwinHallCDF returns P(U_1 + ... + U_n <= x) for i.i.d. U[0,1), from the alternating sum
// (1/n!) sum_{k <= x} (-1)^k C(n,k) (x-k)^n in big.Float arithmetic with enough bits to
// absorb its cancellation.
func irwinHallCDF(n int, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= float64(n) {
		return 1
	}
	prec := uint(64 + 4*n)
	sum := new(big.Float).SetPrec(prec)
	xb := new(big.Float).SetPrec(prec).SetFloat64(x)
	c := new(big.Int).SetInt64(1) // C(n, k)
	for k := 0; float64(k) < x; k++ {
		d := new(big.Float).SetPrec(prec).Sub(xb, new(big.Float).SetInt64(int64(k)))
		term := bigPowPrec(d, n, prec)
		term.Mul(term, new(big.Float).SetPrec(prec).SetInt(c))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		c.Mul(c, big.NewInt(int64(n-k)))
		c.Quo(c, big.NewInt(int64(k+1)))
	}
	sum.Quo(sum, new(big.Float).SetPrec(prec).SetInt(new(big.Int).MulRange(1, int64(n))))
	f, _ := sum.Float64()
	return f
}

func bigPowPrec(x *big.Float, k int, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	b := new(big.Float).SetPrec(prec).Set(x)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	return r
}

// uniformMeanTail returns P(|mean - 1/2| > tol) for the mean of n draws from U[0,1).
func uniformMeanTail(n int, tol float64) float64 {
	return 2 * irwinHallCDF(n, float64(n)*(0.5-tol))
}

func TestMeanReference(t *testing.T) {
	// testdata/reference-values.md, mean of n draws from U[0,1).
	for _, c := range []struct {
		n                  int
		alpha              float64
		clt, hoeff, bernst float64
	}{
		{100, 1e-9, 0.1764, 0.3272, 0.2280},
		{1000, 1e-6, 0.04465, 0.08517, 0.05165},
		{1000, 1e-9, 0.05577, 0.10348, 0.06342},
		{10000, 1e-9, 0.01764, 0.03272, 0.01925},
	} {
		z, _ := MeanZ(sdUniform, c.n, c.alpha)
		h, _ := MeanHoeffding(1, c.n, c.alpha)
		b, _ := MeanBernstein(sdUniform, 0.5, c.n, c.alpha)
		for _, g := range []struct {
			name      string
			got, want float64
		}{{"MeanZ", z, c.clt}, {"MeanHoeffding", h, c.hoeff}, {"MeanBernstein", b, c.bernst}} {
			// Half a unit in the fourth significant digit of the table.
			if ulp := math.Pow(10, math.Floor(math.Log10(g.want))-3); math.Abs(g.got-g.want) > 0.51*ulp {
				t.Errorf("%s at n = %d, alpha = %g: %.5g, want %.4g", g.name, c.n, c.alpha, g.got, g.want)
			}
		}
	}
}

// TestMeanIrwinHallReference checks the exact tolerances of the reference table: at n = 100 by
// solving for it, at n = 1000 by bracketing it (each evaluation costs 4000-bit arithmetic).
func TestMeanIrwinHallReference(t *testing.T) {
	lo, hi := 0.1, 0.3 // n = 100, alpha = 1e-9: P(tol) decreases in tol
	for range 30 {
		mid := (lo + hi) / 2
		if uniformMeanTail(100, mid) > 1e-9 {
			lo = mid
		} else {
			hi = mid
		}
	}
	if math.Abs(hi-0.1733) > 0.00005 {
		t.Errorf("exact Irwin-Hall tolerance at n = 100, 1e-9: %.5f, want 0.1733", hi)
	}
	for _, c := range []struct{ alpha, tol float64 }{{1e-6, 0.04461}, {1e-9, 0.05568}} {
		if p := uniformMeanTail(1000, c.tol-0.000005); p <= c.alpha {
			t.Errorf("n = 1000: P(tol = %.6f) = %g, want > %g", c.tol-0.000005, p, c.alpha)
		}
		if p := uniformMeanTail(1000, c.tol+0.000005); p > c.alpha {
			t.Errorf("n = 1000: P(tol = %.6f) = %g, want <= %g", c.tol+0.000005, p, c.alpha)
		}
	}
}

// TestMeanZConservativeForUniform checks the documented claim: MeanZ with sd = w/sqrt(12) is
// conservative for the continuous uniform whenever alpha <= 0.07 (z >= 1.81), here for
// n = 1..60 against the exact Irwin-Hall distribution; and that it fails at z = sqrt(3) and
// below, so the claim has teeth.
func TestMeanZConservativeForUniform(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for _, alpha := range []float64{1e-12, 1e-9, 1e-6, 1e-3, 0.01, 0.05, 0.07} {
			tol, _ := MeanZ(sdUniform, n, alpha)
			if p := uniformMeanTail(n, tol); p > alpha {
				t.Errorf("n = %d, alpha = %g: exact P(|mean - 1/2| > %.5f) = %g", n, alpha, tol, p)
			}
		}
	}
	for _, c := range []struct {
		n     int
		alpha float64
	}{
		{2, math.Erfc(math.Sqrt(3) / math.Sqrt2)}, // z = sqrt(3): (1 - 1/sqrt(2))^2 = 0.0858 > 0.0833
		{1, 0.2}, // z = 1.28: one draw exceeds 0.37 with probability 0.26
	} {
		tol, _ := MeanZ(sdUniform, c.n, c.alpha)
		if p := uniformMeanTail(c.n, tol); p <= c.alpha {
			t.Errorf("n = %d, alpha = %g: exact P = %g, expected MeanZ to be too permissive here", c.n, c.alpha, p)
		}
	}
}

func TestMeanBoundsHoldForUniform(t *testing.T) {
	for _, n := range []int{5, 30, 100} {
		for _, alpha := range []float64{1e-9, 1e-3} {
			h, _ := MeanHoeffding(1, n, alpha)
			b, _ := MeanBernstein(sdUniform, 0.5, n, alpha)
			z, _ := MeanZ(sdUniform, n, alpha)
			if z >= b || n >= 30 && b >= h {
				t.Errorf("n = %d, alpha = %g: MeanZ %g, MeanBernstein %g, MeanHoeffding %g out of order", n, alpha, z, b, h)
			}
			if p := uniformMeanTail(n, b); p > alpha {
				t.Errorf("n = %d, alpha = %g: Bernstein tolerance %g has exact P = %g", n, alpha, b, p)
			}
		}
	}
	// The Bernstein tolerance solves its defining equation.
	b, _ := MeanBernstein(2, 3, 50, 1e-6)
	l := math.Log(2 / 1e-6)
	if lhs, rhs := 50*b*b, l*(2*4+2*3*b/3); math.Abs(lhs-rhs) > 1e-12*rhs {
		t.Errorf("MeanBernstein(2, 3, 50, 1e-6) = %g: n t^2 = %g, L (2 sd^2 + 2 M t/3) = %g", b, lhs, rhs)
	}
}

func TestMeanErrors(t *testing.T) {
	bad := []float64{0, -1, math.NaN(), math.Inf(1)}
	for _, x := range bad {
		if _, err := MeanZ(x, 10, 0.01); err == nil {
			t.Errorf("MeanZ(sd = %v): no error", x)
		}
		if _, err := MeanHoeffding(x, 10, 0.01); err == nil {
			t.Errorf("MeanHoeffding(width = %v): no error", x)
		}
		if _, err := MeanBernstein(x, 1, 10, 0.01); err == nil {
			t.Errorf("MeanBernstein(sd = %v): no error", x)
		}
		if _, err := MeanBernstein(0.1, x, 10, 0.01); err == nil {
			t.Errorf("MeanBernstein(maxDev = %v): no error", x)
		}
		if _, err := MeanMinN(x, 0.01); err == nil {
			t.Errorf("MeanMinN(%v): no error", x)
		}
		if _, err := MeanSampleSize(x, 1, 0.01, 0.1); err == nil {
			t.Errorf("MeanSampleSize(sd = %v): no error", x)
		}
	}
	for _, a := range []float64{0, 1, math.NaN()} {
		if _, err := MeanZ(1, 10, a); err == nil {
			t.Errorf("MeanZ(alpha = %v): no error", a)
		}
		if _, err := MeanHoeffding(1, 10, a); err == nil {
			t.Errorf("MeanHoeffding(alpha = %v): no error", a)
		}
		if _, err := MeanBernstein(0.1, 1, 10, a); err == nil {
			t.Errorf("MeanBernstein(alpha = %v): no error", a)
		}
		if _, _, err := MeanUniformInt(10, 10, a); err == nil {
			t.Errorf("MeanUniformInt(alpha = %v): no error", a)
		}
		if _, err := MeanSampleSize(1, 1, 0.01, a); err == nil {
			t.Errorf("MeanSampleSize(beta = %v): no error", a)
		}
	}
	if _, err := MeanBernstein(2, 1, 10, 0.01); err == nil {
		t.Error("MeanBernstein with sd > maxDev: no error")
	}
	if _, err := MeanSampleSize(1, 0, 0.01, 0.1); err == nil {
		t.Error("MeanSampleSize(shift = 0): no error")
	}
	for _, n := range []int{0, -1} {
		if _, err := MeanZ(1, n, 0.01); err == nil {
			t.Errorf("MeanZ(n = %d): no error", n)
		}
		if _, _, err := MeanUniformInt(10, n, 0.01); err == nil {
			t.Errorf("MeanUniformInt(n = %d): no error", n)
		}
	}
	for _, w := range []uint64{1, 0} {
		if _, _, err := MeanUniformInt(w, 10, 0.01); err == nil {
			t.Errorf("MeanUniformInt(w = %d): no error", w)
		}
	}
}

func TestMeanMinN(t *testing.T) {
	for _, r := range []float64{1 / math.Sqrt(3), 0.1, 1, 3} {
		for _, alpha := range []float64{1e-12, 1e-9, 0.01} {
			n, err := MeanMinN(r, alpha)
			if err != nil {
				t.Fatal(err)
			}
			if tol, _ := MeanZ(r, n, alpha); tol >= 1 {
				t.Errorf("MeanMinN(%g, %g) = %d: MeanZ = %g >= 1", r, alpha, n, tol)
			}
			if tol, _ := MeanZ(r, n-1, alpha); n > 1 && tol < 1 {
				t.Errorf("MeanMinN(%g, %g) = %d: n-1 already gives %g < 1", r, alpha, n, tol)
			}
		}
	}
	if n, _ := MeanMinN(1/math.Sqrt(3), 1e-9); n != 13 {
		t.Errorf("MeanMinN(uniform, 1e-9) = %d, want 13", n)
	}
}

func TestMeanSampleSize(t *testing.T) {
	for _, c := range []struct{ sd, shift, alpha, beta float64 }{
		{1, 0.1, 1e-9, 0.01}, {2, -0.5, 1e-6, 0.2}, {1, 3, 0.01, 0.5}, {0.3, 0.01, 1e-12, 1e-3},
	} {
		n, err := MeanSampleSize(c.sd, c.shift, c.alpha, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		za, _ := ZTwoSided(c.alpha)
		zb, _ := ZOneSided(c.beta)
		x := math.Pow((za+zb)*c.sd/c.shift, 2)
		if float64(n) < x || float64(n) >= x+1 {
			t.Errorf("MeanSampleSize(%+v) = %d, want ceil(%g)", c, n, x)
		}
	}
	if n, _ := MeanSampleSize(1, 100, 0.3, 0.9); n != 1 {
		t.Errorf("MeanSampleSize with a huge shift = %d, want 1", n)
	}
}

// TestMeanSampleSizePower simulates the z check at the returned n on normal draws with the
// mean shifted: it detects the shift at least 1-beta of the time.
func TestMeanSampleSizePower(t *testing.T) {
	const sd, shift, alpha, beta, trials = 1, 0.5, 0.01, 0.1, 10000
	n, _ := MeanSampleSize(sd, shift, alpha, beta)
	tol, _ := MeanZ(sd, n, alpha)
	r := rand.New(rand.NewPCG(9, 10))
	hits := 0
	for range trials {
		var s float64
		for range n {
			s += shift + sd*r.NormFloat64()
		}
		if math.Abs(s/float64(n)) > tol {
			hits++
		}
	}
	sdHit := math.Sqrt(beta * (1 - beta) / trials)
	if got := float64(hits) / trials; got < 1-beta-4.5*sdHit {
		t.Errorf("n = %d detects a shift of %g sd in %.4f of runs, want >= %g", n, shift, got, 1-beta)
	}
}

// sumCounts returns the number of ways to reach each sum of n draws from {0, ..., w-1}, by
// integer convolution: an exact reference for the float dynamic program.
func sumCounts(w, n int) []*big.Int {
	f := []*big.Int{big.NewInt(1)}
	for i := 1; i <= n; i++ {
		g := make([]*big.Int, len(f)+w-1)
		for s := range g {
			g[s] = new(big.Int)
		}
		for s, c := range f {
			for j := range w {
				g[s+j].Add(g[s+j], c)
			}
		}
		f = g
	}
	return f
}

// meanFailProb returns P(|S - n(w-1)/2| >= dev) exactly from the counts.
func meanFailProb(counts []*big.Int, w, n int, dev float64) float64 {
	num := new(big.Int)
	c := float64(n) * float64(w-1) / 2
	for s, k := range counts {
		if math.Abs(float64(s)-c) >= dev {
			num.Add(num, k)
		}
	}
	den := new(big.Int).Exp(big.NewInt(int64(w)), big.NewInt(int64(n)), nil)
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

func TestMeanUniformIntExact(t *testing.T) {
	for _, w := range []int{2, 3, 6, 10, 100} {
		for _, n := range []int{1, 2, 5, 13, 31, 60} {
			if w == 100 && n > 13 {
				continue
			}
			counts := sumCounts(w, n)
			for _, alpha := range []float64{1e-12, 1e-9, 1e-3, 0.05, 0.5} {
				dev, method, err := MeanUniformInt(uint64(w), n, alpha)
				var e *TooSmallError
				if errors.As(err, &e) {
					// No outcome may be rejectable: even the extremes are too likely.
					if p := 2 * math.Pow(float64(w), -float64(n)); p <= alpha {
						t.Errorf("MeanUniformInt(%d, %d, %g): %v, but P(extreme) = %g", w, n, alpha, err, p)
					}
					continue
				}
				if err != nil || !strings.HasPrefix(method, "exact") {
					t.Fatalf("MeanUniformInt(%d, %d, %g): %q, %v", w, n, alpha, method, err)
				}
				if p := meanFailProb(counts, w, n, dev); p > alpha {
					t.Errorf("MeanUniformInt(%d, %d, %g) = %g: exact P = %g", w, n, alpha, dev, p)
				}
				// One step tighter would be too likely: dev is the smallest valid deviation (up
				// to float ties at alpha itself, such as 25 of 100 values at alpha/2 = 0.25).
				if p := meanFailProb(counts, w, n, dev-1); dev >= 1 && p <= alpha*(1-1e-12) {
					t.Errorf("MeanUniformInt(%d, %d, %g) = %g: a step tighter has P = %g", w, n, alpha, dev, p)
				}
			}
		}
	}
}

// TestMeanUniformIntZConservative checks the fallback against the exact method on a grid of
// (w, n, alpha) beyond the sizes where it is used, including w large where the sum is nearly
// Irwin-Hall: the z tolerance is never below the exact one.
func TestMeanUniformIntZConservative(t *testing.T) {
	for _, w := range []uint64{2, 3, 5, 10, 100, 1000, 1e5} {
		for _, n := range []int{1, 2, 3, 5, 10, 20, 50, 100, 200, 400, 1000, 2000, 4000} {
			if float64(n)*float64(n)*float64(w) > 4e7 {
				continue
			}
			for _, alpha := range []float64{1e-12, 1e-9, 1e-6, 1e-3, 0.05} {
				ez, _, zok := meanUniformIntZ(w, n, alpha)
				ee, _, eok := meanUniformIntExact(w, n, alpha)
				if zok && !eok || zok && ez < ee {
					t.Errorf("w = %d, n = %d, alpha = %g: z deviation %g (ok %v) below exact %g (ok %v)", w, n, alpha, ez, zok, ee, eok)
				}
			}
		}
	}
}

// TestMeanUniformIntBandedMatchesFull checks that dropping the far tails of the sum (below
// 1e-20 alpha / n) leaves the exact cut where the full dynamic program puts it, and that the
// dropped mass is negligible.
func TestMeanUniformIntBandedMatchesFull(t *testing.T) {
	for _, c := range [][2]int{{2, 1000}, {2, 3000}, {3, 500}, {10, 1000}, {100, 200}, {1000, 30}} {
		w, n := c[0], c[1]
		for _, alpha := range []float64{1e-12, 1e-9, 1e-3} {
			tiny := meanTiny(n, alpha)
			_, from, dropped := sumUniformLowerHalf(w, n, tiny)
			if dropped > alpha*1e-15 || n >= 1000 && from == 0 {
				t.Errorf("w = %d, n = %d, alpha = %g: dropped %g below %d", w, n, alpha, dropped, from)
			}
			s, ok := sumUniformLowerCut(w, n, alpha/2, tiny)
			fs, fok := sumUniformLowerCut(w, n, alpha/2, 0)
			if s != fs || ok != fok {
				t.Errorf("w = %d, n = %d, alpha = %g: banded cut %d (%v, from %d), full %d (%v)", w, n, alpha, s, ok, from, fs, fok)
			}
		}
	}
}

func TestMeanUniformIntIrwinHall(t *testing.T) {
	// On a fine grid the tolerance in units of the width tends to the continuous one:
	// between the exact Irwin-Hall 0.1733 and MeanZ 0.1764 at n = 100, 1e-9.
	dev, method, err := MeanUniformInt(1e6, 100, 1e-9)
	if err != nil || !strings.HasPrefix(method, "z bound") {
		t.Fatalf("MeanUniformInt(1e6, 100, 1e-9): %q, %v", method, err)
	}
	if x := dev / 100 / 1e6; x < 0.1733 || x > 0.17645 {
		t.Errorf("MeanUniformInt(1e6, 100, 1e-9) / n w = %.5f, want in [0.1733, 0.1764]", x)
	}
	dev, _, _ = meanUniformIntExact(1000, 100, 1e-9)
	if x := dev / 100 / 1000; math.Abs(x-0.1733) > 0.0005 {
		t.Errorf("exact tolerance on 1000 values / w = %.5f, want about 0.1733", x)
	}
}

func TestMeanUniformIntSimulation(t *testing.T) {
	const w, n, alpha, trials = 10, 20, 0.01, 20000
	dev, _, err := MeanUniformInt(w, n, alpha)
	if err != nil {
		t.Fatal(err)
	}
	p := meanFailProb(sumCounts(w, n), w, n, dev)
	r := rand.New(rand.NewPCG(11, 12))
	fails := 0
	for range trials {
		s := 0
		for range n {
			s += r.IntN(w)
		}
		if math.Abs(float64(s)-float64(n*(w-1))/2) >= dev {
			fails++
		}
	}
	sd := math.Sqrt(p * (1 - p) / trials)
	if got := float64(fails) / trials; math.Abs(got-p) > 4.5*sd || p > alpha {
		t.Errorf("mean check failed %.4f of runs; exact %.4f, alpha %g", got, p, alpha)
	}
}

func TestMeanUniformIntTooSmall(t *testing.T) {
	for _, c := range []struct {
		w          uint64
		n, wantErr int
	}{{2, 3, 31}, {1000, 1, 4}, {1 << 40, 1, 13}, {math.MaxInt64, 5, 13}, {1<<64 - 1, 5, 13}} {
		_, _, err := MeanUniformInt(c.w, c.n, 1e-9)
		var e *TooSmallError
		if !errors.As(err, &e) || e.Need != c.wantErr || e.Check != "mean" {
			t.Errorf("MeanUniformInt(%d, %d, 1e-9): %v; want Need %d", c.w, c.n, err, c.wantErr)
			continue
		}
		if _, _, err := MeanUniformInt(c.w, e.Need, 1e-9); err != nil {
			t.Errorf("MeanUniformInt(%d, Need = %d): %v", c.w, e.Need, err)
		}
		if _, _, err := MeanUniformInt(c.w, e.Need-1, 1e-9); err == nil {
			t.Errorf("MeanUniformInt(%d, Need-1 = %d) works", c.w, e.Need-1)
		}
	}
}

func TestMeanUniformIntLarge(t *testing.T) {
	for _, c := range []struct {
		w uint64
		n int
	}{{2, 1e7}, {10, 1e6}, {1 << 53, 1e7}, {math.MaxInt64, 1e7}, {1<<64 - 1, 1e7}, {1000, 1e3}} {
		dev, method, err := MeanUniformInt(c.w, c.n, 1e-9)
		// The z deviation of the sum, plus the continuity correction of half a step.
		z, _ := MeanZ(math.Sqrt((float64(c.w)*float64(c.w)-1)/12), c.n, 1e-9)
		z = z*float64(c.n) + 0.5
		if err != nil || dev < z || dev > z*(1+1e-9)+1 {
			t.Errorf("MeanUniformInt(%d, %d, 1e-9) = %g, %q, %v; z %g", c.w, c.n, dev, method, err, z)
		}
	}
}

func TestMeanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sd := rapid.Float64Range(1e-300, 1e300).Draw(t, "sd")
		n := rapid.IntRange(1, 1e7).Draw(t, "n")
		alpha := rapid.Float64Range(1e-14, 0.99).Draw(t, "alpha")
		z, err := MeanZ(sd, n, alpha)
		if err != nil || !(z > 0) || math.IsInf(z, 0) {
			t.Fatalf("MeanZ(%g, %d, %g) = %g, %v", sd, n, alpha, z, err)
		}
		if z2, _ := MeanZ(sd, n+1, alpha); z2 > z {
			t.Fatalf("MeanZ grows with n")
		}
		if z2, _ := MeanZ(sd, n, alpha/2); z2 < z {
			t.Fatalf("MeanZ shrinks as alpha falls")
		}
		h, _ := MeanHoeffding(sd, n, alpha)
		if h2, _ := MeanHoeffding(sd, n, alpha/2); h2 < h {
			t.Fatalf("MeanHoeffding shrinks as alpha falls")
		}
		b, err := MeanBernstein(sd, sd*rapid.Float64Range(1, 1e6).Draw(t, "ratio"), n, alpha)
		if err != nil || !(b > 0) {
			t.Fatalf("MeanBernstein: %g, %v", b, err)
		}
	})
}

// TestMeanUniformIntProperty checks random small cases against exact integer counts.
func TestMeanUniformIntProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(2, 12).Draw(t, "w")
		n := rapid.IntRange(1, 25).Draw(t, "n")
		alpha := math.Pow(10, -rapid.Float64Range(0.5, 12).Draw(t, "-log10 alpha"))
		dev, _, err := MeanUniformInt(uint64(w), n, alpha)
		if err != nil {
			return
		}
		if dev <= 0 || dev > float64(n*(w-1))/2 {
			t.Fatalf("MeanUniformInt(%d, %d, %g) = %g", w, n, alpha, dev)
		}
		if p := meanFailProb(sumCounts(w, n), w, n, dev); p > alpha {
			t.Fatalf("MeanUniformInt(%d, %d, %g) = %g: exact P = %g", w, n, alpha, dev, p)
		}
	})
}

// The benchmarks bypass the cache: they measure the first call for each (w, n, alpha).
// w = 10, n = 1211 and w = 2, n = 3871 are about the most expensive exact cases.
func BenchmarkMeanUniformInt(b *testing.B) {
	for _, c := range []struct {
		w uint64
		n int
	}{{10, 1e3}, {2, 1e3}, {1000, 1e3}, {1 << 53, 1e3}, {10, 1e6}, {1 << 53, 1e6}, {10, 1211}, {2, 3871}, {1000, 63}} {
		b.Run(fmt.Sprintf("w=%d/n=%d", c.w, c.n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = meanUniformInt(c.w, c.n, 1e-9)
			}
		})
	}
}

func BenchmarkMeanUniformIntCached(b *testing.B) {
	for b.Loop() {
		_, _, _ = MeanUniformInt(10, 1000, 1e-9)
	}
}
