package sizing

import (
	"fmt"
	"math"
	"sync"
)

// orderExactMaxN is the largest n for which the order-pattern checks use the exact
// distribution: the recursions cost n^2/2 steps, about 5 ms at this n.
const orderExactMaxN = 3000

// orderPMFMaxN is the largest n for which AscentsPMF and TurningPointsPMF compute a PMF.
const orderPMFMaxN = 20000

var (
	ascentsCache sync.Map // int n -> []float64
	turnsCache   sync.Map // int n -> []float64
)

// AscentsPMF returns P(A = k), k = 0..n-1, where A = #{i : x[i+1] > x[i]} counts the ascents
// among n independent draws from one continuous distribution: the Eulerian numbers divided by
// n!. It uses the recursion p_n(k) = ((k+1) p_{n-1}(k) + (n-k) p_{n-1}(k-1)) / n, whose terms
// are all positive, so that the tails keep their relative precision. The result is shared:
// do not modify it. n must be at most 20000.
func AscentsPMF(n int) ([]float64, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	if n > orderPMFMaxN {
		return nil, fmt.Errorf("sizing: AscentsPMF: n = %d is above %d, the largest n with an exact PMF", n, orderPMFMaxN)
	}
	if p, ok := ascentsCache.Load(n); ok {
		return p.([]float64), nil
	}
	p := make([]float64, n)
	p[0] = 1
	for m := 2; m <= n; m++ {
		mf := float64(m)
		for k := m - 1; k >= 0; k-- { // downward, so that p[k-1] is still p_{m-1}
			v := float64(k+1) * p[k]
			if k > 0 {
				v += float64(m-k) * p[k-1]
			}
			p[k] = v / mf
		}
	}
	ascentsCache.Store(n, p)
	return p, nil
}

// TurningPointsPMF returns P(T = k), k = 0..max(n-2, 0), where T counts the i in 1..n-2 at
// which x[i] is a strict local maximum or minimum, among n independent draws from one
// continuous distribution. It uses the recursion on alternating runs (T + 1 runs for n >= 2)
// R(n,k) = k R(n-1,k) + 2 R(n-1,k-1) + (n-k) R(n-1,k-2). The result is shared: do not modify
// it. n must be at most 20000.
func TurningPointsPMF(n int) ([]float64, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	if n > orderPMFMaxN {
		return nil, fmt.Errorf("sizing: TurningPointsPMF: n = %d is above %d, the largest n with an exact PMF", n, orderPMFMaxN)
	}
	if p, ok := turnsCache.Load(n); ok {
		return p.([]float64), nil
	}
	if n <= 2 {
		p := []float64{1}
		turnsCache.Store(n, p)
		return p, nil
	}
	// r[k] = P(k alternating runs), k = 1..m-1, for m values; start at m = 2 with one run.
	r := make([]float64, n)
	r[1] = 1
	for m := 3; m <= n; m++ {
		mf := float64(m)
		for k := m - 1; k >= 1; k-- { // downward, so that r[k-1], r[k-2] are still for m-1
			v := float64(k) * r[k]
			if k >= 2 {
				v += 2 * r[k-1]
			}
			if k >= 3 {
				v += float64(m-k) * r[k-2]
			}
			r[k] = v / mf
		}
	}
	p := r[1:] // T = runs - 1
	turnsCache.Store(n, p)
	return p, nil
}

type intervalResult struct {
	lo, hi int
	method string
	err    error
}

type orderKey struct {
	n     int
	alpha float64
}

var (
	ascentsIntervalCache sync.Map // orderKey -> intervalResult
	turnsIntervalCache   sync.Map // orderKey -> intervalResult
)

// AscentsInterval returns the acceptance interval [lo, hi] for the number of ascents A among n
// independent draws from one continuous distribution: the check fails when A < lo or A > hi,
// and each tail has probability <= alpha/2.
//
// For n <= 3000 the interval is exact (Eulerian numbers). Beyond, it is a proven bound: the
// Eulerian polynomial has only real roots, so A is a sum of independent Bernoullis with mean
// (n-1)/2 and variance (n+1)/12, and Bennett's inequality applies. method says which.
// It returns a *TooSmallError when no value of A could fail.
func AscentsInterval(n int, alpha float64) (lo, hi int, method string, err error) {
	return orderInterval(&ascentsIntervalCache, "ascents", n, alpha, AscentsPMF, ascentsMinN, ascentsBound)
}

// TurningPointsInterval returns the acceptance interval [lo, hi] for the number of turning
// points T among n independent draws from one continuous distribution: the check fails when
// T < lo or T > hi, and each tail has probability <= alpha/2.
//
// For n <= 3000 the interval is exact (alternating runs). Beyond, it is a proven bound: the
// alternating-runs polynomial has only real roots (Bona 2004), so T+1 is a sum of independent
// Bernoullis with mean (2n-1)/3 and variance (16n-29)/90, and Bennett's inequality applies.
// method says which. It returns a *TooSmallError when no T could fail.
func TurningPointsInterval(n int, alpha float64) (lo, hi int, method string, err error) {
	return orderInterval(&turnsIntervalCache, "turning points", n, alpha, TurningPointsPMF, turnsMinN, turnsBound)
}

func orderInterval(cache *sync.Map, check string, n int, alpha float64,
	pmf func(int) ([]float64, error), minN func(float64) int, bound func(int, float64) (int, int, string),
) (lo, hi int, method string, err error) {
	if err := checkN(n); err != nil {
		return 0, 0, "", err
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, 0, "", err
	}
	key := orderKey{n, alpha}
	if r, ok := cache.Load(key); ok {
		r := r.(intervalResult)
		return r.lo, r.hi, r.method, r.err
	}
	var r intervalResult
	if need := minN(alpha); n < need {
		r.err = &TooSmallError{Check: check, N: n, Need: need, Alpha: alpha}
	} else if n <= orderExactMaxN {
		p, _ := pmf(n)
		r.lo, r.hi = pmfInterval(p, alpha/2)
		r.method = fmt.Sprintf("exact (%s of %d values)", check, n)
	} else {
		r.lo, r.hi, r.method = bound(n, alpha)
	}
	cache.Store(key, r)
	return r.lo, r.hi, r.method, r.err
}

// pmfInterval returns the largest lo with P(X < lo) <= a and the smallest hi with
// P(X > hi) <= a, for X with PMF p on 0..len(p)-1. Tails are summed from the outside in.
func pmfInterval(p []float64, a float64) (lo, hi int) {
	var s float64
	for lo = 0; lo < len(p); lo++ {
		if s+p[lo] > a {
			break
		}
		s += p[lo]
	}
	s = 0
	for hi = len(p) - 1; hi >= 0; hi-- {
		if s+p[hi] > a {
			break
		}
		s += p[hi]
	}
	return lo, hi
}

// ascentsMinN returns the smallest n at which A = 0 (probability 1/n!) can fail: n! >= 2/alpha.
func ascentsMinN(alpha float64) int {
	return factorialMinN(math.Log(2 / alpha))
}

// turnsMinN returns the smallest n at which T = 0 can fail. P(T = 0) = 2/n! (the monotone
// runs) for n >= 3, so that needs n! >= 4/alpha.
func turnsMinN(alpha float64) int {
	return max(3, factorialMinN(math.Log(4/alpha)))
}

// factorialMinN returns the smallest n with log(n!) >= l.
func factorialMinN(l float64) int {
	n, lf := 1, 0.0
	for lf < l {
		n++
		lf += math.Log(float64(n))
	}
	return n
}

// ascentsBound is the interval for n > orderExactMaxN. The Eulerian polynomial has only real
// roots (Frobenius), so A is a sum of n-1 independent Bernoullis, with mean (n-1)/2 and
// variance (n+1)/12, and Bennett's inequality bounds each tail.
func ascentsBound(n int, alpha float64) (lo, hi int, method string) {
	lo, hi = bennettInterval(float64(n-1)/2, float64(n+1)/12, alpha/2, n-1)
	return lo, hi, fmt.Sprintf("Bennett bound (ascents of %d values; the Eulerian polynomial is real-rooted)", n)
}

// turnsBound is the interval for n > orderExactMaxN. The alternating-runs polynomial has only
// real roots (Bona 2004, from the David-Barton identity), so the number of runs T+1 is a sum
// of independent Bernoullis, with mean (2n-1)/3 and variance (16n-29)/90, and Bennett's
// inequality bounds each tail.
func turnsBound(n int, alpha float64) (lo, hi int, method string) {
	lo, hi = bennettInterval(2*float64(n-2)/3, float64(16*n-29)/90, alpha/2, n-2)
	return lo, hi, fmt.Sprintf("Bennett bound (turning points of %d values; the alternating-runs polynomial is real-rooted)", n)
}

// bennettInterval returns the acceptance interval [lo, hi] within 0..top for a sum of
// independent Bernoullis with mean mu and variance v, so that each tail outside it has
// probability <= a: by Bennett's inequality, P(S - mu >= t) <= exp(-v h(t/v)) with
// h(u) = (1+u) ln(1+u) - u, and the same for S - mu <= -t, since every term deviates from
// its mean by at most 1.
func bennettInterval(mu, v, a float64, top int) (lo, hi int) {
	l := -math.Log(a)
	bound := func(t float64) float64 { // v h(t/v), increasing in t
		u := t / v
		return v * ((1+u)*math.Log1p(u) - u)
	}
	// Bernstein's root is an upper end for the bisection, since Bennett is tighter.
	tlo, thi := 0.0, (2*l/3+math.Sqrt(4*l*l/9+8*l*v))/2
	for range 100 {
		mid := (tlo + thi) / 2
		if bound(mid) >= l {
			thi = mid
		} else {
			tlo = mid
		}
	}
	// Fail when S < lo, that is S <= ceil(mu-t)-1 < mu-t, or S > hi, that is S > mu+t.
	lo = max(0, int(math.Ceil(mu-thi)))
	hi = min(top, int(math.Floor(mu+thi)))
	return lo, hi
}
