package sizing

import "math"

// The binomial tail, P(Binomial(n, p) >= m): within 1e-13 relative of 256-bit and 45-digit
// sums at n to 2^32 (the trials BinomialTail and LoadLimit take), 3.3e-12 at 10^12.
//
// gonum's regularized incomplete beta function, I_p(m, n-m+1), computes the same tail, but its
// prefactor p^m (1-p)^(n-m+1) / (m B(m, n-m+1)) comes from logarithms of size n log n that
// cancel: against exact sums in big floats it is off by 3e-8 at n = 10^7, 1e-6 at 10^9, 2% at
// 10^13, and at 10^15 trials it returns 41 for a probability (k = 16, p = 6.4e-15). Here each
// probability comes from Loader's saddle-point form, which cancels nothing, and the tail is the
// sum of its terms away from the mode, where they fall geometrically.

// binomialTail returns P(Binomial(n, p) >= m).
func binomialTail(n int, p float64, m int) float64 {
	return upperTail(n, p, 1-p, m)
}

// binomialLower returns P(Binomial(n, p) <= k) with the digits of a small lower tail: it is
// P(Binomial(n, 1-p) >= n-k), the same sum with the roles of p and 1-p exchanged.
func binomialLower(n int, p float64, k int) float64 {
	return upperTail(n, 1-p, p, n-k)
}

// upperTail returns P(Binomial(n, p) >= m), q = 1-p. Away from the mode it sums the terms from
// m up; on the mode's side it returns 1 - P(X <= m-1), whose terms fall from m-1 down, so that
// a small tail keeps its digits and no sum crosses the mode. Each sum takes about
// 9 sqrt(n p q) terms at most: 3 * 10^5 at n = 2^32.
func upperTail(n int, p, q float64, m int) float64 {
	switch {
	case m <= 0 || q <= 0:
		return 1
	case m > n || p <= 0:
		return 0
	}
	if mode := math.Floor((float64(n) + 1) * p); float64(m) > mode {
		return math.Min(1, termSum(n, p, q, m, true))
	}
	return math.Max(0, 1-termSum(n, p, q, m-1, false))
}

// termSum returns the sum of P(X = j) for j from k away from the mode, up (j = k, k+1, ..., n)
// or down (j = k, ..., 0), for X ~ Binomial(n, p), q = 1-p; the terms must fall that way from
// k. It sums the ratios of each term to P(X = k), anchored afresh every 4096 terms so that
// rounding does not build up, with Neumaier's compensation, and stops when the terms left, at
// most t r / (1 - r) as the ratios r fall, are under 2^-60 of the sum.
func termSum(n int, p, q float64, k int, up bool) float64 {
	lp := binomLogPMF(n, k, p, q)
	if math.IsInf(lp, -1) {
		return 0
	}
	nf, pq := float64(n), p/q
	sum, comp, t := 1.0, 0.0, 1.0
	for j, steps := k, 1; ; steps++ {
		var r float64
		if up {
			if j == n {
				break
			}
			r = (nf - float64(j)) / float64(j+1) * pq
			j++
		} else {
			if j == 0 {
				break
			}
			r = float64(j) / (nf - float64(j) + 1) / pq
			j--
		}
		t *= r
		if steps%4096 == 0 {
			t = math.Exp(binomLogPMF(n, j, p, q) - lp)
		}
		s := sum + t
		comp += (sum - s) + t // t <= sum: the terms fall
		sum = s
		if t == 0 || (r < 1 && t*r/(1-r) <= 0x1p-60*sum) {
			break
		}
	}
	return math.Exp(lp + math.Log(sum+comp))
}

// binomLogPMF returns log P(X = k) for X ~ Binomial(n, p), q = 1-p, 0 <= k <= n, by Loader's
// saddle-point form (C. Loader, Fast and accurate computation of binomial probabilities,
// 2000; R's dbinom): log P = -(stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, np) -
// bd0(n-k, nq)) - log(2 pi k (n-k) / n) / 2, each part small where the terms of lgamma are
// of size n log n.
func binomLogPMF(n, k int, p, q float64) float64 {
	nf, kf := float64(n), float64(k)
	switch {
	case p == 0:
		return logIf(k == 0)
	case q == 0:
		return logIf(k == n)
	case k == 0:
		if p < 0.1 {
			return -bd0(nf, nf*q) - nf*p
		}
		return nf * math.Log(q)
	case k == n:
		if q < 0.1 {
			return -bd0(nf, nf*p) - nf*q
		}
		return nf * math.Log(p)
	}
	mf := nf - kf
	lc := stirlerr(nf) - stirlerr(kf) - stirlerr(mf) - bd0(kf, nf*p) - bd0(mf, nf*q)
	return lc - 0.5*(math.Log(2*math.Pi)+math.Log(kf)+math.Log1p(-kf/nf))
}

// logIf returns log 1 or log 0.
func logIf(b bool) float64 {
	if b {
		return 0
	}
	return math.Inf(-1)
}

// stirlerr returns log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula, for
// a whole n >= 1: from lgamma to 15, where it is exact to the last digits, and beyond from
// the asymptotic series 1/(12n) - 1/(360n^3) + 1/(1260n^5) - ..., cut where its next term is
// under 2^-53 of the first.
func stirlerr(n float64) float64 {
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	nn := n * n
	switch {
	case n <= 15:
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - 0.5*math.Log(2*math.Pi)
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x log(x/np) + np - x, the deviance term of the saddle point, without the
// cancellation of its three terms when x is near np: there it sums the series
// 2x sum v^(2j+1)/(2j+1) - (x-np) v, v = (x-np)/(x+np), to the last digit.
func bd0(x, np float64) float64 {
	if math.Abs(x-np) >= 0.1*(x+np) {
		r := x / np
		if math.IsInf(r, 1) { // np is subnormal
			return x*(math.Log(x)-math.Log(np)) + np - x
		}
		return x*math.Log(r) + np - x
	}
	v := (x - np) / (x + np)
	s := (x - np) * v
	ej, v2 := 2*x*v, v*v
	for j := 1; j < 1000; j++ {
		ej *= v2
		s1 := s + ej/float64(2*j+1)
		if s1 == s {
			return s
		}
		s = s1
	}
	return s
}
