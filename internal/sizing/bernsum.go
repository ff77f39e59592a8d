package sizing

import (
	"math"
	"math/big"
)

// Beyond the range of the exact recursions, the order-pattern counts are sized by a Chernoff
// bound on their exact generating function. Both counts are sums of independent Bernoullis
// (their polynomials are real-rooted: see AscentsInterval and TurningPointsInterval), and the
// cumulants of both are known exactly at every n: so are the power sums p_j = sum_i q_i^j of
// the Bernoullis' parameters q_i, and with them a proven upper bound on the log moment
// generating function K(theta) = sum_i log(1 + q_i x), x = e^theta - 1:
//
//	K(theta) <= sum_{j=1..J} (-1)^(j+1) p_j x^j / j
//
// for x >= 0 and J odd (the Taylor polynomial of log(1 + y) of odd degree lies above it for
// every y >= 0: its remainder is -y^(J+1) / ((J+1)(1+xi)^(J+1))), and for -1 < x < 0 and any J
// (every term of the series is then negative). Chernoff's P(S >= s) <= exp(K(theta) - theta s)
// for theta >= 0, and P(S <= s) <= exp(K(theta) - theta s) for theta <= 0, then holds for
// every n. It sits within a factor of about 15 of the exact tail at the limits spread uses
// (TestBernoulliSumNearExact), where Bennett's inequality, which knows only the mean and the
// variance, sat 100 to 250 times above it.

// bernsumTerms is J, the number of power sums the bound uses (odd): J = 9 is within 0.1% of
// the limit of J at n = 2000 and no different beyond.
const bernsumTerms = 9

// bernoulliSum is a sum of independent Bernoullis known by its power sums.
type bernoulliSum struct {
	p   [bernsumTerms + 1]float64 // p[j] = sum_i q_i^j, j >= 1
	top int                       // the number of Bernoullis: S is in 0..top
}

// bernoulliCumulants returns the coefficients of the j-th cumulant of a Bernoulli(q) as a
// polynomial in q, j = 1..J: kappa_1 = q and kappa_(j+1) = q (1 - q) d kappa_j / dq.
func bernoulliCumulants(J int) [][]*big.Rat {
	c := make([][]*big.Rat, J+1)
	c[1] = []*big.Rat{new(big.Rat), big.NewRat(1, 1)}
	for j := 1; j < J; j++ {
		next := make([]*big.Rat, j+2)
		for m := range next {
			next[m] = new(big.Rat)
		}
		for m := 1; m <= j; m++ { // (q - q^2) m c_m q^(m-1) = m c_m (q^m - q^(m+1))
			d := new(big.Rat).Mul(c[j][m], big.NewRat(int64(m), 1))
			next[m].Add(next[m], d)
			next[m+1].Sub(next[m+1], d)
		}
		c[j+1] = next
	}
	return c
}

// newBernoulliSum returns the sum of top independent Bernoullis whose cumulants are
// kappa[1..J]: the cumulant of order j of the sum is sum_m c_(j,m) p_m, with c the
// coefficients of bernoulliCumulants, a triangular system solved exactly.
func newBernoulliSum(kappa []*big.Rat, top int) bernoulliSum {
	c := bernoulliCumulants(bernsumTerms)
	p := make([]*big.Rat, bernsumTerms+1)
	s := bernoulliSum{top: top}
	for j := 1; j <= bernsumTerms; j++ {
		v := new(big.Rat).Set(kappa[j])
		for m := 1; m < j; m++ {
			v.Sub(v, new(big.Rat).Mul(c[j][m], p[m]))
		}
		p[j] = v.Quo(v, c[j][j])
		s.p[j], _ = p[j].Float64()
	}
	return s
}

// logTail returns a proven upper bound on log P(S >= s) (upper) or log P(S <= s) (lower),
// at most 0: the best Chernoff bound over theta found by golden-section search (any theta
// gives a valid bound, so the search need not find the very best). The upper tail keeps to
// x = e^theta - 1 <= 1, where the terms of the bound fall and do not cancel; the limits spread
// sizes beyond the exact range need theta near 0.2.
func (b bernoulliSum) logTail(s float64, upper bool) float64 {
	d := s - b.p[1]
	if upper && d <= 0 || !upper && d >= 0 {
		return 0
	}
	f := func(theta float64) float64 { return b.logMGFExcess(theta) - theta*d }
	lo, hi := 0.0, math.Ln2
	if !upper {
		lo, hi = -40, 0
	}
	const phi = 0.6180339887498949
	x1, x2 := hi-phi*(hi-lo), lo+phi*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for range 100 {
		if f1 < f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - phi*(hi-lo)
			f1 = f(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + phi*(hi-lo)
			f2 = f(x2)
		}
	}
	return min(0, f1, f2)
}

// logMGFExcess returns the bound on K(theta) - theta mean, without the cancellation of the
// two large terms: p_1 (x - theta) + sum_{j=2..J} (-1)^(j+1) p_j x^j / j.
func (b bernoulliSum) logMGFExcess(theta float64) float64 {
	x := math.Expm1(theta)
	sum := b.p[1] * expm1MinusX(theta)
	xj := x
	for j := 2; j <= bernsumTerms; j++ {
		xj *= x
		t := b.p[j] * xj / float64(j)
		if j%2 == 0 {
			t = -t
		}
		sum += t
	}
	return sum
}

// expm1MinusX returns e^x - 1 - x, by its series where the difference would cancel.
func expm1MinusX(x float64) float64 {
	if math.Abs(x) > 0.1 {
		return math.Expm1(x) - x
	}
	term, sum := x*x/2, 0.0
	for k := 3; k < 20; k++ {
		sum += term
		term *= x / float64(k)
	}
	return sum
}

// interval returns the acceptance interval [lo, hi] within 0..top whose two tails each have a
// bound of at most e^la: fail when S < lo or S > hi.
func (b bernoulliSum) interval(la float64) (lo, hi int) {
	above := func(h int) bool { return b.logTail(float64(h+1), true) <= la }  // P(S > h) bounded
	below := func(l int) bool { return b.logTail(float64(l-1), false) <= la } // P(S < l) bounded
	// The bounds fall away from the mean: search each side of it, then step past any point
	// where the search's rounding left a bound above e^la.
	m := min(int(math.Ceil(b.p[1])), b.top)
	hi = m + firstInt(0, b.top-m, func(k int) bool { return above(m + k) })
	for hi < b.top && !above(hi) {
		hi++
	}
	c := max(int(math.Floor(b.p[1])), 0)
	lo = c - firstInt(0, c, func(k int) bool { return below(c - k) })
	for lo > 0 && !below(lo) {
		lo--
	}
	return lo, hi
}

// bernoulliNumbers returns B_0..B_J (B_1 = -1/2), by the recurrence sum_{k<m+1} C(m+1, k) B_k = 0.
func bernoulliNumbers(J int) []*big.Rat {
	b := make([]*big.Rat, J+1)
	b[0] = big.NewRat(1, 1)
	for m := 1; m <= J; m++ {
		s := new(big.Rat)
		for k := range m {
			s.Add(s, new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Binomial(int64(m+1), int64(k))), b[k]))
		}
		b[m] = s.Quo(s, big.NewRat(-int64(m+1), 1))
	}
	return b
}

// ascentsCumulants returns the cumulants kappa_1..kappa_J of the ascents of n >= J values:
// kappa_1 = (n-1)/2 and kappa_j = (n+1) B_j / j for j >= 2, with B_j the Bernoulli numbers
// (the descent generating function's cumulants; TestOrderCumulants checks each against the
// exact Eulerian numbers).
func ascentsCumulants(n int) []*big.Rat {
	bn := bernoulliNumbers(bernsumTerms)
	k := make([]*big.Rat, bernsumTerms+1)
	k[1] = big.NewRat(int64(n-1), 2)
	for j := 2; j <= bernsumTerms; j++ {
		k[j] = new(big.Rat).Mul(bn[j], big.NewRat(int64(n+1), int64(j)))
	}
	return k
}

// turnsCumulantCoefficients holds the cumulants of the turning points of n values as a_j n +
// b_j, j = 1..9, exact for n >= 2j: the indicators of a turning point at i depend on three
// neighbouring values only, so every joint cumulant of indicators more than 2 apart vanishes
// and each cumulant of the sum is linear in n once n leaves room for every cluster.
// TestOrderCumulants recomputes them from the exact alternating-runs numbers.
var turnsCumulantCoefficients = [bernsumTerms + 1][2]string{
	{},
	{"2/3", "-4/3"},
	{"8/45", "-29/90"},
	{"-16/945", "-16/945"},
	{"-352/4725", "3317/18900"},
	{"64/4455", "64/4455"},
	{"6044288/42567525", "-30478949/85135050"},
	{"-207616/6081075", "-207616/6081075"},
	{"-916915712/1550674125", "19026134429/12405393000"},
	{"100659008512/618718975875", "100659008512/618718975875"},
}

// turnsCumulantsMinN is the smallest n at which turnsCumulants is exact.
const turnsCumulantsMinN = 2 * bernsumTerms

// turnsCumulants returns the cumulants kappa_1..kappa_J of the turning points of n >= 18
// values.
func turnsCumulants(n int) []*big.Rat {
	k := make([]*big.Rat, bernsumTerms+1)
	nr := big.NewRat(int64(n), 1)
	for j := 1; j <= bernsumTerms; j++ {
		a, _ := new(big.Rat).SetString(turnsCumulantCoefficients[j][0])
		b, _ := new(big.Rat).SetString(turnsCumulantCoefficients[j][1])
		k[j] = a.Mul(a, nr).Add(a, b)
	}
	return k
}
