package sizing

import (
	"fmt"
	"math"
)

// repeatsDPBudget caps the cells n*cap of the exact dynamic program on repeats: about 3 ms.
const repeatsDPBudget = 2e6

type repeatsKey struct {
	w     float64
	n     int
	alpha float64
}

type repeatsResult struct {
	m      int
	method string
	err    error
}

var repeatsCache memo[repeatsKey, repeatsResult]

// checkW returns an error unless w is a finite number of values > 1.
func checkW(fn string, w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) || w <= 1 {
		return inputErr(fn, "w = %v values, want a finite w > 1 (with one value every draw repeats)", w)
	}
	return nil
}

// RepeatsLimit returns the smallest m with P(R >= m) <= alpha, where R = n - (number of
// distinct values) counts the repeats among n independent draws from w equally likely values:
// the check fails when R >= m. w is a float64 so that supports such as 2^64 integers fit.
//
// w need not be whole: for draws whose values are not equally likely but each have probability
// at most 1/w (a float whose rounding makes some values twice as likely as others, say), m
// bounds the repeats as well. Given the past, draw i+1 repeats with probability at most
// min(1, D/w), D the distinct values so far, which is the probability in the equally likely
// case; a coupling that lets the general draw repeat only when the other does keeps its
// repeats at or below the other's at every step, since a step can only close a gap of one.
//
// The exact distribution of R comes from a dynamic program over the draws (draw i+1 repeats
// with probability (i - R)/w), which costs n*m and is used up to 2e6 cells. Beyond that,
// m is the smallest value that one of three proven bounds allows: a Chernoff bound on the
// Poisson-binomial that dominates R, the self-bounding lower tail of the number of distinct
// values, and McDiarmid's inequality. method says which.
//
// It returns a *TooSmallError when even R = n-1 (every draw the same) has probability
// w^(1-n) > alpha.
func RepeatsLimit(w float64, n int, alpha float64) (m int, method string, err error) {
	if err := checkW("RepeatsLimit", w); err != nil {
		return 0, "", err
	}
	if err := checkN("RepeatsLimit", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("RepeatsLimit", alpha); err != nil {
		return 0, "", err
	}
	r := repeatsCache.get(repeatsKey{w, n, alpha}, func() repeatsResult {
		m, method, err := repeatsLimit(w, n, alpha)
		return repeatsResult{m, method, err}
	})
	return r.m, r.method, copyErr(r.err)
}

func repeatsLimit(w float64, n int, alpha float64) (int, string, error) {
	la := math.Log(alpha)
	// Even R = n-1, every draw a repeat, has probability w^(1-n): decided exactly for a whole w.
	small := func(n int) bool { return float64(n-1)*-math.Log(w) > la-logMargin }
	if w == math.Trunc(w) && w < 1<<64 {
		small = func(n int) bool { return !powLE(1, uint64(w), n-1, alpha) }
	}
	if small(n) {
		need := max(n+1, minNPow(w, alpha, 1))
		for small(need) {
			need++
		}
		return 0, "", tooSmall("RepeatsLimit", "distinct", n, need, alpha)
	}
	bm, bmethod := repeatsBoundLimit(w, n, la)
	if float64(n)*float64(bm) > repeatsDPBudget {
		return bm, bmethod, nil
	}
	tail := repeatsTailDP(w, n, bm)
	// tail[m] = P(R >= m) for m <= bm, and the bound guarantees tail[bm] <= alpha. The sums
	// of positive terms are exact to a relative 1e-13; the margin keeps them on the safe side.
	m := bm
	for m > 1 && tail[m-1] <= alpha*(1-logMargin) {
		m--
	}
	return m, fmt.Sprintf("exact (repeats among %d draws from %.4g values)", n, w), nil
}

// repeatsTailDP returns P(R >= m) for m = 0..maxM, by the dynamic program over draws with R
// capped at maxM: the mass that reaches maxM stays there, since R never decreases.
func repeatsTailDP(w float64, n, maxM int) []float64 {
	q := make([]float64, maxM+1) // q[r] = P(R = r) for r < maxM, q[maxM] = P(R >= maxM)
	q[0] = 1
	// rep(d) is the probability that a draw repeats after d distinct values: d/w, which can
	// exceed 1 only for a w that is not whole.
	inv := 1 / w
	rep := func(d int) float64 { return min(1, float64(d)*inv) }
	for i := 0; i < n; i++ { // i draws done; draw i+1 repeats with probability (i-r)/w
		if i+1 >= maxM {
			q[maxM] += q[maxM-1] * rep(i-maxM+1)
		}
		for r := min(i, maxM-1); r >= 1; r-- {
			d := i - r // distinct values so far
			q[r] = q[r]*(1-rep(d)) + q[r-1]*rep(d+1)
		}
		q[0] *= 1 - rep(i)
	}
	tail := make([]float64, maxM+1)
	var sum float64
	for m := maxM; m >= 0; m-- { // small terms first
		sum += q[m]
		tail[m] = sum
	}
	return tail
}

// repeatsBoundLimit returns the smallest m that a proven bound on P(R >= m) allows at
// log(alpha) = la, with the name of the bound. The caller has checked that m = n-1 is allowed
// exactly, P(R = n-1) = w^(1-n) <= alpha, so the answer is at most n-1.
func repeatsBoundLimit(w float64, n int, la float64) (int, string) {
	best, method := n-1, fmt.Sprintf("exact tail P(R = n-1) = w^(1-n) on %.4g values", w)
	for _, b := range repeatsBounds(w, n) {
		if m := smallestM(b.logTail, n-1, la); m < best {
			best, method = m, fmt.Sprintf("%s (repeats among %d draws from %.4g values)", b.name, n, w)
		}
	}
	return best, method
}

// smallestM returns the smallest m in [0, hi] with logTail(m) <= la, or hi if there is none;
// logTail must be non-increasing.
func smallestM(logTail func(m int) float64, hi int, la float64) int {
	lo := -1 // logTail(lo) > la, by convention at -1
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if logTail(mid) <= la {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

type repeatsBound struct {
	name    string
	logTail func(m int) float64 // an upper bound on log P(R >= m), non-increasing in m
}

// repeatsBounds returns proven upper bounds on log P(R >= m).
func repeatsBounds(w float64, n int) []repeatsBound {
	nf := float64(n)
	// The number D = n - R of distinct values has E[D] = w (1 - (1 - 1/w)^n) when the w values
	// are equally likely. With probabilities at most 1/w, E[D] = sum (1 - (1 - p)^n) is concave
	// in p, so it is smallest at a vertex: floor(w) values of probability 1/w and one of the
	// rest. Both bounds below fall as E[D] grows, so the smallest E[D] serves for them all.
	f := math.Floor(w)
	ed := -f*math.Expm1(nf*math.Log1p(-1/w)) - math.Expm1(nf*math.Log(f/w))
	er := nf - ed
	// Draw i repeats with probability at most min(1, (i-1)/w) whatever came before, so R is
	// dominated by a sum of independent Bernoullis with those rates, i = 2..n, with mean mu;
	// Hoeffding's (1963) Chernoff bound for sums of independent Bernoullis holds with their
	// average rate.
	terms := nf - 1
	var mu float64
	if nf-1 <= f {
		mu = nf * (nf - 1) / (2 * w)
	} else { // the rate is 1 once i-1 > w
		mu = f*(f+1)/(2*w) + (nf - 1 - f)
	}
	chernoff := func(m int) float64 {
		if float64(m) <= mu {
			return 0
		}
		if terms <= 0 {
			return math.Inf(-1)
		}
		return -terms * klBernoulli(float64(m)/terms, mu/terms)
	}
	// D is self-bounding, so P(D <= E[D] - t) <= exp(-t^2 / (2 E[D])) (Boucheron, Lugosi and
	// Massart 2000); R >= m means D <= n - m, t = m - E[R].
	selfBounding := func(m int) float64 {
		t := float64(m) - er
		if t <= 0 {
			return 0
		}
		return -t * t / (2 * ed)
	}
	// D changes by at most 1 with one draw: McDiarmid gives exp(-2 t^2 / n).
	mcdiarmid := func(m int) float64 {
		t := float64(m) - er
		if t <= 0 {
			return 0
		}
		return -2 * t * t / nf
	}
	return []repeatsBound{
		{"Chernoff bound on the birthday Poisson-binomial", chernoff},
		{"self-bounding bound on distinct values", selfBounding},
		{"McDiarmid bound on distinct values", mcdiarmid},
	}
}

// klBernoulli returns the Kullback-Leibler divergence KL(a || p) between Bernoulli(a) and
// Bernoulli(p), 0 < p < 1, 0 <= a <= 1.
func klBernoulli(a, p float64) float64 {
	var kl float64
	if a > 0 {
		kl += a * math.Log(a/p)
	}
	if a < 1 {
		kl += (1 - a) * (math.Log1p(-a) - math.Log1p(-p))
	}
	return kl
}

// RepeatsTail returns P(R >= m), where R = n - (number of distinct values) counts the repeats
// among n independent draws from w equally likely values. It is exact (a dynamic program)
// when n*m <= 2e6 and otherwise the smallest of the proven upper bounds that RepeatsLimit
// uses; method says which. For a w that is not whole it is an upper bound on the tail of every
// distribution whose values have probability at most 1/w, as RepeatsLimit explains.
func RepeatsTail(w float64, n, m int) (p float64, method string, err error) {
	if err := checkW("RepeatsTail", w); err != nil {
		return 0, "", err
	}
	if err := checkN("RepeatsTail", n); err != nil {
		return 0, "", err
	}
	switch {
	case m <= 0:
		return 1, "exact (R >= 0 always)", nil
	case m > n-1:
		return 0, fmt.Sprintf("exact (R <= n-1 = %d always)", n-1), nil
	}
	if float64(n)*float64(m) <= repeatsDPBudget {
		tail := repeatsTailDP(w, n, m)
		return min(1, tail[m]), fmt.Sprintf("exact (repeats among %d draws from %.4g values)", n, w), nil
	}
	best, method := math.Inf(1), ""
	for _, b := range repeatsBounds(w, n) {
		if l := b.logTail(m); l < best {
			best, method = l, fmt.Sprintf("%s (repeats among %d draws from %.4g values)", b.name, n, w)
		}
	}
	return math.Exp(best), method, nil
}
