package sizing

import (
	"fmt"
	"math"
)

// serialLevels is the number of variance levels LagProductLimit peels over.
const serialLevels = 6

// LagProductLimit sizes a check of serial correlation on the positions u_1, ..., u_n in [0, 1]
// of n independent draws: the lag-1 product sum S = sum_{i<n} (u_i - 1/2)(u_{i+1} - 1/2). It
// returns the t with P(|S| >= t) <= alpha: the check fails when |S| >= t. sumSq is the
// observed sum_{i<n} (u_i - 1/2)^2, sigma2 a bound on E[(u - 1/2)^2] (1/12 for a uniform),
// and bias a bound on |E[u] - 1/2| (0 for an exact uniform, or a resolution).
//
// The limit is proven for every n. Given u_1..u_i, the term (u_i - 1/2)(u_{i+1} - 1/2) has
// mean at most |u_i - 1/2| bias <= bias/2 and variance at most (u_i - 1/2)^2 sigma2, and it is
// at most 1/4 + bias/2 away from its mean; so S less its means is a martingale whose predictable
// variance is V = sigma2 sumSq, and Freedman's inequality bounds each tail by
// exp(-t^2 / (2 (v + c t / 3))) on the event V <= v. The threshold is taken at the smallest of
// six levels v = sigma2 (n-1)/4 2^-k that holds the observed V (the last level also holds any
// smaller V), each at alpha/6, and is widened by the means, (n-1) bias/2.
func LagProductLimit(n int, sumSq, sigma2, bias, alpha float64) (t float64, method string, err error) {
	if err := checkN("LagProductLimit", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("LagProductLimit", alpha); err != nil {
		return 0, "", err
	}
	top := float64(n-1) / 4
	switch {
	case math.IsNaN(sumSq) || sumSq < 0 || sumSq > top*(1+1e-9):
		return 0, "", inputErr("LagProductLimit", "sumSq = %v, want a sum of (u - 1/2)^2 over n-1 positions in [0, 1], in [0, %v]", sumSq, top)
	case math.IsNaN(sigma2) || sigma2 <= 0 || sigma2 > 0.25:
		return 0, "", inputErr("LagProductLimit", "sigma2 = %v, want a bound on E[(u - 1/2)^2] in (0, 1/4]", sigma2)
	case math.IsNaN(bias) || bias < 0 || bias > 0.5:
		return 0, "", inputErr("LagProductLimit", "bias = %v, want a bound on |E[u] - 1/2| in [0, 1/2]", bias)
	}
	v := sigma2 * top
	for k := 1; k < serialLevels && sigma2*sumSq <= v/2; k++ {
		v /= 2
	}
	c := 0.25 + bias/2
	l := math.Log(2*serialLevels) - math.Log(alpha) // each level, each tail: alpha / 12
	t = c*l/3 + math.Sqrt(c*l/3*(c*l/3)+2*l*v) + float64(n-1)*bias/2
	method = fmt.Sprintf("Freedman's inequality on the martingale of the lag-1 products, predictable variance at most %.4g (of the observed %.4g), over %d levels", v, sigma2*sumSq, serialLevels)
	return t, method, nil
}
