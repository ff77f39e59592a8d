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
// (n-1)/2 and variance (n+1)/12, and Bernstein's inequality applies. method says which.
// It returns a *TooSmallError when no value of A could fail.
func AscentsInterval(n int, alpha float64) (lo, hi int, method string, err error) {
	return orderInterval(&ascentsIntervalCache, "ascents", n, alpha, AscentsPMF, ascentsMinN, ascentsBound)
}

// TurningPointsInterval returns the acceptance interval [lo, hi] for the number of turning
// points T among n independent draws from one continuous distribution: the check fails when
// T < lo or T > hi, and each tail has probability <= alpha/2.
//
// For n <= 3000 the interval is exact (alternating runs). Beyond, it is a proven bound: T is
// a sum of n-2 indicators of which any two at least 3 apart are independent, so T splits into
// 3 sums of independent Bernoulli(2/3), and Hoeffding's Chernoff bound applies to them jointly
// (Janson 2004). method says which. It returns a *TooSmallError when no T could fail.
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

// ascentsBound is the Bernstein interval for n > orderExactMaxN: A is a sum of n-1
// independent Bernoullis with mean (n-1)/2 and variance (n+1)/12.
func ascentsBound(n int, alpha float64) (lo, hi int, method string) {
	mu := float64(n-1) / 2
	v := float64(n+1) / 12
	l := math.Log(2 / alpha)
	// exp(-t^2 / (2v + 2t/3)) = alpha/2 for each tail: t^2 - (2L/3) t - 2 L v = 0.
	b := 2 * l / 3
	t := (b + math.Sqrt(b*b+8*l*v)) / 2
	lo = max(0, int(math.Ceil(mu-t)))
	hi = min(n-1, int(math.Floor(mu+t)))
	return lo, hi, fmt.Sprintf("Bernstein bound (ascents of %d values, Eulerian polynomial real-rooted)", n)
}

// turnsBound is the interval for n > orderExactMaxN from the 2-dependent Chernoff bound:
// P(T - E[T] >= t) <= exp(-(N/3) KL(p + t/N || p)) with N = n-2 indicators of mean p = 2/3,
// and the same for the lower tail.
func turnsBound(n int, alpha float64) (lo, hi int, method string) {
	nn := float64(n - 2)
	const p = 2.0 / 3
	la := math.Log(alpha / 2)
	// Each tail: the first count whose bound is <= alpha/2.
	logUpper := func(k int) float64 {
		a := float64(k) / nn
		if a <= p {
			return 0
		}
		return -nn / 3 * klBernoulli(min(a, 1), p)
	}
	logLower := func(k int) float64 {
		a := float64(k) / nn
		if a >= p {
			return 0
		}
		return -nn / 3 * klBernoulli(max(a, 0), p)
	}
	// hi: largest k with logUpper(k+1) > la, i.e. smallest k' = k+1 with logUpper <= la.
	kUp := smallestM(logUpper, n-1, la)
	hi = min(n-2, kUp-1)
	// lo: the smallest k whose lower-tail bound P(T <= k-1) is <= alpha/2 fails... mirror it.
	kLo := smallestM(func(j int) float64 { return logLower(n - 2 - j) }, n-1, la)
	lo = max(0, n-2-kLo+1)
	return lo, hi, fmt.Sprintf("2-dependent Chernoff bound (turning points of %d values)", n)
}
