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

// ascents and turningPoints count the patterns the way spread does, for the tests.
func ascents(x []float64) int {
	a := 0
	for i := 0; i+1 < len(x); i++ {
		if x[i+1] > x[i] {
			a++
		}
	}
	return a
}

func turningPoints(x []float64) int {
	t := 0
	for i := 1; i+1 < len(x); i++ {
		if (x[i] > x[i-1]) != (x[i+1] > x[i]) {
			t++
		}
	}
	return t
}

// permutationCounts enumerates all n! permutations (Heap's algorithm) and counts them by
// ascents and by turning points.
func permutationCounts(n int) (a, tp []float64) {
	a, tp = make([]float64, n), make([]float64, max(n-1, 1))
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	c := make([]int, n)
	a[ascents(x)]++
	tp[turningPoints(x)]++
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				x[0], x[i] = x[i], x[0]
			} else {
				x[c[i]], x[i] = x[i], x[c[i]]
			}
			a[ascents(x)]++
			tp[turningPoints(x)]++
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
	return a, tp
}

func TestOrderPMFEnumeration(t *testing.T) {
	for n := 1; n <= 9; n++ {
		ca, ct := permutationCounts(n)
		total := math.Gamma(float64(n + 1))
		pa, err := AscentsPMF(n)
		if err != nil || len(pa) != len(ca) {
			t.Fatalf("AscentsPMF(%d) = %v, %v; want %d values", n, pa, err, len(ca))
		}
		for k := range pa {
			if math.Abs(pa[k]-ca[k]/total) > 1e-15 {
				t.Errorf("AscentsPMF(%d)[%d] = %g, enumeration %g", n, k, pa[k], ca[k]/total)
			}
		}
		pt, err := TurningPointsPMF(n)
		if err != nil || len(pt) != max(n-1, 1) {
			t.Fatalf("TurningPointsPMF(%d) = %v, %v", n, pt, err)
		}
		for k := range pt {
			if math.Abs(pt[k]-ct[k]/total) > 1e-15 {
				t.Errorf("TurningPointsPMF(%d)[%d] = %g, enumeration %g", n, k, pt[k], ct[k]/total)
			}
		}
	}
}

// TestOrderPMFMoments checks the PMFs against the known means and variances.
func TestOrderPMFMoments(t *testing.T) {
	for _, n := range []int{10, 100, 1000, 3000} {
		pa, _ := AscentsPMF(n)
		pt, _ := TurningPointsPMF(n)
		nf := float64(n)
		for _, c := range []struct {
			name     string
			p        []float64
			mean, vr float64
		}{
			{"ascents", pa, (nf - 1) / 2, (nf + 1) / 12},
			{"turning points", pt, 2 * (nf - 2) / 3, (16*nf - 29) / 90},
		} {
			var s, m, v float64
			for k, p := range c.p {
				s += p
				m += float64(k) * p
			}
			for k, p := range c.p {
				v += (float64(k) - m) * (float64(k) - m) * p
			}
			if math.Abs(s-1) > 1e-12 || math.Abs(m-c.mean) > 1e-9*nf || math.Abs(v-c.vr) > 1e-9*nf {
				t.Errorf("%s, n = %d: sum %.15g, mean %.10g (want %.10g), variance %.10g (want %.10g)", c.name, n, s, m, c.mean, v, c.vr)
			}
		}
	}
}

// exactOrderCounts returns the Eulerian numbers A(n, k) and the alternating-runs numbers
// R(n, k+1) (permutations with k turning points) as big integers, by the integer recursions.
func exactOrderCounts(n int) (eulerian, runs []*big.Int) {
	eulerian = make([]*big.Int, n)
	runs = make([]*big.Int, n+1)
	for i := range runs {
		runs[i] = new(big.Int)
		if i < n {
			eulerian[i] = new(big.Int)
		}
	}
	eulerian[0].SetInt64(1)
	runs[1].SetInt64(2) // two values: one run, up or down
	for m := 2; m <= n; m++ {
		for k := m - 1; k >= 0; k-- { // A(m,k) = (k+1) A(m-1,k) + (m-k) A(m-1,k-1)
			v := new(big.Int).Mul(big.NewInt(int64(k+1)), eulerian[k])
			if k > 0 {
				v.Add(v, new(big.Int).Mul(big.NewInt(int64(m-k)), eulerian[k-1]))
			}
			eulerian[k] = v
		}
		if m < 3 {
			continue
		}
		for k := m - 1; k >= 1; k-- { // R(m,k) = k R(m-1,k) + 2 R(m-1,k-1) + (m-k) R(m-1,k-2)
			v := new(big.Int).Mul(big.NewInt(int64(k)), runs[k])
			v.Add(v, new(big.Int).Lsh(runs[k-1], 1))
			if k >= 2 {
				v.Add(v, new(big.Int).Mul(big.NewInt(int64(m-k)), runs[k-2]))
			}
			runs[k] = v
		}
	}
	return eulerian, runs[1:n]
}

// TestOrderPMFExactIntegers checks the float PMFs against the integer recursions at every k,
// tails included, and checks in exact arithmetic Newton's inequalities, which every
// real-rooted polynomial meets and on which the Chernoff bounds rely.
func TestOrderPMFExactIntegers(t *testing.T) {
	for _, n := range []int{20, 150, 400} {
		eulerian, runs := exactOrderCounts(n)
		fact := new(big.Int).MulRange(1, int64(n))
		pa, _ := AscentsPMF(n)
		pt, _ := TurningPointsPMF(n)
		for _, c := range []struct {
			name  string
			exact []*big.Int
			p     []float64
		}{{"ascents", eulerian, pa}, {"turning points", runs, pt}} {
			for k, e := range c.exact {
				want, _ := new(big.Rat).SetFrac(e, fact).Float64()
				if math.Abs(c.p[k]-want) > 1e-12*want {
					t.Errorf("%s n = %d: P(%d) = %g, exact %g", c.name, n, k, c.p[k], want)
				}
			}
			d := int64(len(c.exact) - 1)
			for k := int64(1); k < d; k++ {
				// a_k^2 >= a_{k-1} a_{k+1} (1 + 1/k)(1 + 1/(d-k)), times k (d-k) to stay in integers.
				lhs := new(big.Int).Mul(c.exact[k], c.exact[k])
				lhs.Mul(lhs, big.NewInt(k*(d-k)))
				rhs := new(big.Int).Mul(c.exact[k-1], c.exact[k+1])
				rhs.Mul(rhs, big.NewInt((k+1)*(d-k+1)))
				if lhs.Cmp(rhs) < 0 {
					t.Errorf("%s n = %d: Newton's inequality fails at k = %d", c.name, n, k)
				}
			}
		}
	}
}

func TestOrderIntervalReference(t *testing.T) {
	// testdata/reference-values.md: exact 1e-9 acceptance intervals for ascents.
	for _, c := range []struct{ n, lo, hi int }{{30, 5, 24}, {100, 32, 67}, {1000, 444, 555}} {
		lo, hi, method, err := AscentsInterval(c.n, 1e-9)
		if err != nil || lo != c.lo || hi != c.hi || !strings.HasPrefix(method, "exact") {
			t.Errorf("AscentsInterval(%d, 1e-9) = [%d, %d], %q, %v; want [%d, %d]", c.n, lo, hi, method, err, c.lo, c.hi)
		}
	}
}

// TestOrderIntervalTails checks that each tail outside the interval has probability <= alpha/2
// and that the interval is the narrowest such.
func TestOrderIntervalTails(t *testing.T) {
	for _, n := range []int{13, 30, 100, 1000, 3000} {
		for _, alpha := range []float64{1e-12, 1e-9, 1e-3, 0.2} {
			for _, c := range []struct {
				name     string
				interval func(int, float64) (int, int, string, error)
				pmf      func(int) ([]float64, error)
			}{{"ascents", AscentsInterval, AscentsPMF}, {"turning points", TurningPointsInterval, TurningPointsPMF}} {
				lo, hi, method, err := c.interval(n, alpha)
				if err != nil {
					continue
				}
				exact := strings.HasPrefix(method, "exact")
				p, _ := c.pmf(n)
				var below, above float64
				for k := range lo {
					below += p[k]
				}
				for k := hi + 1; k < len(p); k++ {
					above += p[k]
				}
				if below > alpha/2 || above > alpha/2 {
					t.Errorf("%s n = %d alpha = %g: [%d, %d] has tails %g, %g", c.name, n, alpha, lo, hi, below, above)
				}
				if exact && (lo < len(p) && below+p[lo] <= alpha/2 || hi >= 0 && above+p[hi] <= alpha/2) {
					t.Errorf("%s n = %d alpha = %g: [%d, %d] is not the narrowest", c.name, n, alpha, lo, hi)
				}
			}
		}
	}
}

// TestOrderBoundsContainExact checks that the Chernoff intervals, which serve beyond the exact
// range, contain the exact ones wherever both are known.
func TestOrderBoundsContainExact(t *testing.T) {
	for _, n := range []int{20, 50, 100, 300, 1000, 3000} {
		pa, pt := ascentsPMF(n), turnsPMF(n)
		for _, alpha := range []float64{1e-12, 1e-9, 1e-6, 1e-3, 0.05} {
			if n < ascentsMinN(alpha) {
				continue
			}
			lo, hi := pmfInterval(pa, alpha/2)
			if blo, bhi, _ := ascentsBound(n, alpha); blo > lo || bhi < hi {
				t.Errorf("ascents n = %d alpha = %g: bound [%d, %d] inside exact [%d, %d]", n, alpha, blo, bhi, lo, hi)
			}
			lo, hi = pmfInterval(pt, alpha/2)
			if blo, bhi, _ := turnsBound(n, alpha); blo > lo || bhi < hi {
				t.Errorf("turning points n = %d alpha = %g: bound [%d, %d] inside exact [%d, %d]", n, alpha, blo, bhi, lo, hi)
			}
		}
	}
}

// TestOrderBoundsNearExact measures the Chernoff intervals against the exact PMFs where the
// battery needs them (alpha = 1e-9/21 for each count, n from 2,000 to 16,000): the exact
// probability beyond each end of the bound's interval is at least alpha/2 / 40, and each end
// lies within half a standard deviation of the exact one. Bennett's bound, which they replace,
// left tails 100 to 250 times below alpha/2.
func TestOrderBoundsNearExact(t *testing.T) {
	const alpha = 1e-9 / 21
	for _, n := range []int{2000, 5000, 16000} {
		for _, c := range []struct {
			name  string
			pmf   func(int) []float64
			bound func(int, float64) (int, int, string)
			sd    float64
		}{
			{"ascents", ascentsPMF, ascentsBound, math.Sqrt(float64(n+1) / 12)},
			{"turning points", turnsPMF, turnsBound, math.Sqrt(float64(16*n-29) / 90)},
		} {
			p := c.pmf(n)
			lo, hi := pmfInterval(p, alpha/2)
			blo, bhi, _ := c.bound(n, alpha)
			var below, above float64
			for k := range blo {
				below += p[k]
			}
			for k := bhi + 1; k < len(p); k++ {
				above += p[k]
			}
			t.Logf("%s n = %d: exact [%d, %d], Chernoff [%d, %d]: its tails alpha/2 / %.1f and / %.1f", c.name, n, lo, hi, blo, bhi, alpha/2/below, alpha/2/above)
			if below > alpha/2 || above > alpha/2 || below < alpha/2/40 || above < alpha/2/40 {
				t.Errorf("%s n = %d: Chernoff [%d, %d] has exact tails %.3g and %.3g; want in [alpha/2 / 40, alpha/2] = [%.3g, %.3g]", c.name, n, blo, bhi, below, above, alpha/2/40, alpha/2)
			}
			if float64(lo-blo) > 0.5*c.sd || float64(bhi-hi) > 0.5*c.sd {
				t.Errorf("%s n = %d: Chernoff [%d, %d] against exact [%d, %d]: more than half an sd (%.1f) wider", c.name, n, blo, bhi, lo, hi, c.sd)
			}
		}
	}
}

// TestOrderCumulants checks the exact cumulants the Chernoff bounds use against the cumulants
// of the exact Eulerian and alternating-runs numbers, in rational arithmetic.
func TestOrderCumulants(t *testing.T) {
	for n := turnsCumulantsMinN; n <= 40; n += 11 {
		eulerian, runs := exactOrderCounts(n)
		for _, c := range []struct {
			name   string
			counts []*big.Int
			want   []*big.Rat
		}{{"ascents", eulerian, ascentsCumulants(n)}, {"turning points", runs, turnsCumulants(n)}} {
			got := exactCumulants(c.counts, bernsumTerms)
			for j := 1; j <= bernsumTerms; j++ {
				if got[j].Cmp(c.want[j]) != 0 {
					t.Errorf("%s n = %d: cumulant %d of the exact counts is %s; the formula says %s", c.name, n, j, got[j].RatString(), c.want[j].RatString())
				}
			}
		}
	}
}

// exactCumulants returns the cumulants 1..J of the distribution with the given counts (of the
// values 0, 1, ...), from its raw moments: k_m = mu_m - sum_{i<m} C(m-1, i-1) k_i mu_(m-i).
func exactCumulants(counts []*big.Int, J int) []*big.Rat {
	total := new(big.Int)
	for _, c := range counts {
		total.Add(total, c)
	}
	mu := make([]*big.Rat, J+1)
	for j := range mu {
		s := new(big.Int)
		for k, c := range counts {
			s.Add(s, new(big.Int).Mul(new(big.Int).Exp(big.NewInt(int64(k)), big.NewInt(int64(j)), nil), c))
		}
		mu[j] = new(big.Rat).SetFrac(s, total)
	}
	kappa := make([]*big.Rat, J+1)
	for m := 1; m <= J; m++ {
		v := new(big.Rat).Set(mu[m])
		for i := 1; i < m; i++ {
			b := new(big.Rat).SetInt(new(big.Int).Binomial(int64(m-1), int64(i-1)))
			v.Sub(v, b.Mul(b, new(big.Rat).Mul(kappa[i], mu[m-i])))
		}
		kappa[m] = v
	}
	return kappa
}

// TestBernoulliSumBoundsTheMGF checks the bound on the log moment generating function against
// the exact one, log sum_k P(k) e^(theta k), and the power sums for what Bernoullis' power sums
// must be: positive, falling with j, p_1 the mean and p_1 - p_2 the variance.
func TestBernoulliSumBoundsTheMGF(t *testing.T) {
	for _, n := range []int{50, 400, 3000} {
		for _, c := range []struct {
			name string
			sum  bernoulliSum
			pmf  []float64
			vr   float64
		}{
			{"ascents", newBernoulliSum(ascentsCumulants(n), n-1), ascentsPMF(n), float64(n+1) / 12},
			{"turning points", newBernoulliSum(turnsCumulants(n), n-2), turnsPMF(n), float64(16*n-29) / 90},
		} {
			p := c.sum.p
			for j := 2; j <= bernsumTerms; j++ {
				if !(p[j] > 0 && p[j] <= p[j-1]) {
					t.Errorf("%s n = %d: power sums %v do not fall", c.name, n, p[1:])
				}
			}
			if math.Abs(p[1]-p[2]-c.vr) > 1e-9*c.vr {
				t.Errorf("%s n = %d: p1 - p2 = %g, variance %g", c.name, n, p[1]-p[2], c.vr)
			}
			for _, theta := range []float64{-5, -1, -0.3, -0.01, 0.01, 0.1, 0.3, math.Ln2} {
				exact := logMGF(c.pmf, theta)
				if bound := theta*p[1] + c.sum.logMGFExcess(theta); bound < exact-1e-9*math.Abs(exact) {
					t.Errorf("%s n = %d, theta = %g: bound %.12g below the exact log MGF %.12g", c.name, n, theta, bound, exact)
				}
			}
		}
	}
}

// logMGF returns log sum_k p[k] e^(theta k), shifted by its largest term.
func logMGF(p []float64, theta float64) float64 {
	top := math.Inf(-1)
	for k, pk := range p {
		if pk > 0 {
			top = max(top, math.Log(pk)+theta*float64(k))
		}
	}
	var s float64
	for k, pk := range p {
		if pk > 0 {
			s += math.Exp(math.Log(pk) + theta*float64(k) - top)
		}
	}
	return top + math.Log(s)
}

// TestOrderBandedMatchesFull checks that dropping the far tails (below 1e-20 alpha / n) leaves
// the exact intervals as the full recursions give them, and that little mass is dropped.
func TestOrderBandedMatchesFull(t *testing.T) {
	for _, n := range []int{13, 100, 1000, 3000} {
		full := [][]float64{ascentsPMF(n), turnsPMF(n)}
		for i, banded := range []func(int, float64) ([]float64, float64){ascentsBanded, turnsBanded} {
			for _, alpha := range []float64{1e-12, 1e-9, 1e-3} {
				a := alpha / 2
				p, dropped := banded(n, a*1e-20/float64(n))
				if dropped > a*1e-18 {
					t.Errorf("recursion %d, n = %d: dropped %g", i, n, dropped)
				}
				lo, hi := pmfInterval(p, a-dropped)
				flo, fhi := pmfInterval(full[i], a)
				if lo != flo || hi != fhi {
					t.Errorf("recursion %d, n = %d, alpha = %g: banded [%d, %d], full [%d, %d]", i, n, alpha, lo, hi, flo, fhi)
				}
			}
		}
	}
}

func TestOrderIntervalLarge(t *testing.T) {
	for _, n := range []int{20000, 1e5, 1e7} {
		for _, c := range []struct {
			name     string
			interval func(int, float64) (int, int, string, error)
			mean, sd float64
		}{
			{"ascents", AscentsInterval, float64(n-1) / 2, math.Sqrt(float64(n+1) / 12)},
			{"turning points", TurningPointsInterval, 2 * float64(n-2) / 3, math.Sqrt(float64(16*n-29) / 90)},
		} {
			lo, hi, method, err := c.interval(n, 1e-9)
			if err != nil || !strings.HasPrefix(method, "Chernoff") && !(n == 20000 && c.name == "ascents") {
				t.Fatalf("%s(%d): %v, %q", c.name, n, err, method)
			}
			// Wider than the normal 6.11 sd, by no more than 8% plus a few counts.
			for _, d := range []float64{c.mean - float64(lo), float64(hi) - c.mean} {
				if d < 6.11*c.sd || d > 1.08*6.11*c.sd+3 {
					t.Errorf("%s(%d) = [%d, %d]: half-width %.1f for sd %.1f", c.name, n, lo, hi, d, c.sd)
				}
			}
		}
	}
}

// TestOrderSimulation draws seeded i.i.d. samples: each check fails about as often as its
// exact tails say.
func TestOrderSimulation(t *testing.T) {
	const n, alpha, trials = 200, 0.02, 20000
	alo, ahi, _, _ := AscentsInterval(n, alpha)
	tlo, thi, _, _ := TurningPointsInterval(n, alpha)
	pa, _ := AscentsPMF(n)
	pt, _ := TurningPointsPMF(n)
	outside := func(p []float64, lo, hi int) (s float64) {
		for k := range p {
			if k < lo || k > hi {
				s += p[k]
			}
		}
		return s
	}
	r := rand.New(rand.NewPCG(7, 8))
	x := make([]float64, n)
	fa, ft := 0, 0
	for range trials {
		for i := range x {
			x[i] = r.Float64()
		}
		if a := ascents(x); a < alo || a > ahi {
			fa++
		}
		if tp := turningPoints(x); tp < tlo || tp > thi {
			ft++
		}
	}
	for _, c := range []struct {
		name  string
		fails int
		p     float64
	}{{"ascents", fa, outside(pa, alo, ahi)}, {"turning points", ft, outside(pt, tlo, thi)}} {
		sd := math.Sqrt(c.p * (1 - c.p) / trials)
		if got := float64(c.fails) / trials; math.Abs(got-c.p) > 4.5*sd || c.p > alpha {
			t.Errorf("%s failed %.4f of runs; exact %.4f, alpha %g", c.name, got, c.p, alpha)
		}
	}
}

// TestOrderRotations is the clock-derived mutant: x_i = frac(u0 + s*i) at n = 1000 is
// rejected at 1e-9 for every step s on a grid over (0, 1). Ascents see every s except near
// 1/2 (their rate is 1-s); turning points (rate 2 min(s, 1-s)) see s near 1/2 and everything
// outside about [0.29, 0.37] and [0.63, 0.71], so between them nothing escapes.
func TestOrderRotations(t *testing.T) {
	const n = 1000
	alo, ahi, _, _ := AscentsInterval(n, 1e-9)
	tlo, thi, _, _ := TurningPointsInterval(n, 1e-9)
	steps := []float64{1.0 / 3, 2.0 / 3, 1.0 / 7, 0.5, 0.2113, 1e-6, 1 - 1e-6, 0.5 + 1e-6}
	for k := 1; k < 2000; k++ {
		steps = append(steps, float64(k)/2000)
	}
	x := make([]float64, n)
	byAscents, byTurns := 0, 0
	for _, u0 := range []float64{0.123456, 0.987} {
		for _, s := range steps {
			for i := range x {
				_, x[i] = math.Modf(u0 + s*float64(i))
			}
			a, tp := ascents(x), turningPoints(x)
			ra, rt := a < alo || a > ahi, tp < tlo || tp > thi
			if !ra && !rt {
				t.Errorf("u0 = %g, s = %g: A = %d in [%d, %d], T = %d in [%d, %d]", u0, s, a, alo, ahi, tp, tlo, thi)
			}
			if ra {
				byAscents++
			}
			if rt {
				byTurns++
			}
			if math.Abs(s-0.5) < 0.05 && ra || (s > 0.3 && s < 0.36) && rt {
				t.Errorf("u0 = %g, s = %g: caught by the check that should be blind there", u0, s)
			}
		}
	}
	t.Logf("%d step sizes: %d rejected by ascents, %d by turning points", 2*len(steps), byAscents, byTurns)
}

func TestOrderTooSmall(t *testing.T) {
	// 12! = 4.8e8 < 2e9 <= 13!: ascents need n >= 13 at 1e-9, turning points too (4e9).
	for _, c := range []struct {
		name     string
		interval func(int, float64) (int, int, string, error)
	}{{"ascents", AscentsInterval}, {"turning points", TurningPointsInterval}} {
		_, _, _, err := c.interval(12, 1e-9)
		var e *TooSmallError
		if !errors.As(err, &e) || e.Need != 13 || e.Check != c.name {
			t.Errorf("%s(12, 1e-9): %v; want TooSmallError needing 13", c.name, err)
		}
		lo, hi, _, err := c.interval(13, 1e-9)
		if err != nil || lo < 1 {
			t.Errorf("%s(13, 1e-9) = [%d, %d], %v", c.name, lo, hi, err)
		}
		if _, _, _, err := c.interval(1, 0.9); err == nil {
			t.Errorf("%s(1, 0.9): no error", c.name)
		}
	}
}

func TestOrderErrors(t *testing.T) {
	for _, n := range []int{0, -1} {
		if _, err := AscentsPMF(n); err == nil {
			t.Errorf("AscentsPMF(%d): no error", n)
		}
		if _, err := TurningPointsPMF(n); err == nil {
			t.Errorf("TurningPointsPMF(%d): no error", n)
		}
		if _, _, _, err := AscentsInterval(n, 0.1); err == nil {
			t.Errorf("AscentsInterval(%d, 0.1): no error", n)
		}
	}
	if _, err := AscentsPMF(orderPMFMaxN + 1); err == nil {
		t.Error("AscentsPMF above the limit: no error")
	}
	if _, err := TurningPointsPMF(orderPMFMaxN + 1); err == nil {
		t.Error("TurningPointsPMF above the limit: no error")
	}
	for _, a := range []float64{0, 1, math.NaN(), math.Inf(1)} {
		if _, _, _, err := AscentsInterval(100, a); err == nil {
			t.Errorf("AscentsInterval(100, %v): no error", a)
		}
		if _, _, _, err := TurningPointsInterval(100, a); err == nil {
			t.Errorf("TurningPointsInterval(100, %v): no error", a)
		}
	}
}

// TestOrderIntervalMonotoneInN checks, over the exact range, that both ends of the intervals
// never fall as n grows: one more value adds at most one ascent or turning point.
func TestOrderIntervalMonotoneInN(t *testing.T) {
	for _, alpha := range []float64{1e-9, 1e-3} {
		for _, interval := range []func(int, float64) (int, int, string, error){AscentsInterval, TurningPointsInterval} {
			plo, phi := 0, 0
			for n := 13; n <= 600; n++ {
				lo, hi, _, err := interval(n, alpha)
				if err != nil {
					t.Fatal(err)
				}
				if lo < plo || hi < phi {
					t.Errorf("alpha = %g, n = %d: [%d, %d] after [%d, %d]", alpha, n, lo, hi, plo, phi)
				}
				plo, phi = lo, hi
			}
		}
	}
}

func TestOrderProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 1e7).Draw(t, "n")
		alpha := rapid.Float64Range(1e-12, 0.1).Draw(t, "alpha")
		for _, c := range []struct {
			name     string
			interval func(int, float64) (int, int, string, error)
			mean     float64
			top      int
		}{
			{"ascents", AscentsInterval, float64(n-1) / 2, n - 1},
			{"turning points", TurningPointsInterval, 2 * float64(n-2) / 3, max(n-2, 0)},
		} {
			lo, hi, _, err := c.interval(n, alpha)
			if err != nil {
				var e *TooSmallError
				if !errors.As(err, &e) || e.Need <= n {
					t.Fatalf("%s(%d, %g): %v", c.name, n, alpha, err)
				}
				continue
			}
			if lo < 0 || hi > c.top || float64(lo) > c.mean || float64(hi) < c.mean || lo == 0 && hi == c.top {
				t.Fatalf("%s(%d, %g) = [%d, %d], mean %g", c.name, n, alpha, lo, hi, c.mean)
			}
			// A smaller alpha never narrows the interval.
			lo2, hi2, _, err := c.interval(n, alpha/3)
			if err == nil && (lo2 > lo || hi2 < hi) {
				t.Fatalf("%s(%d, %g/3) = [%d, %d] inside [%d, %d]", c.name, n, alpha, lo2, hi2, lo, hi)
			}
		}
	})
}

// The benchmarks clear the caches: they measure the first call for each (n, alpha).
func BenchmarkAscentsInterval(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 16000, 1e6} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				ascentsStat.cache.clear()
				_, _, _, _ = AscentsInterval(n, 1e-9)
			}
		})
	}
}

func BenchmarkTurningPointsInterval(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 16000, 1e6} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				turnsStat.cache.clear()
				_, _, _, _ = TurningPointsInterval(n, 1e-9)
			}
		})
	}
}

// BenchmarkAscentsIntervalCached is what spread pays on every call after the first.
func BenchmarkAscentsIntervalCached(b *testing.B) {
	for b.Loop() {
		_, _, _, _ = AscentsInterval(1000, 1e-9)
	}
}
