package sizing

import (
	"fmt"
	"math"
	"math/bits"
)

// MeanZ returns the two-sided tolerance z*sd/sqrt(n) on the mean of n draws from a
// distribution with standard deviation sd, with z = ZTwoSided(alpha): the check fails when
// |mean - mu| > tol.
//
// It is the central-limit approximation, not a bound. For the uniform distribution it is
// conservative (the exact false-failure rate is at most alpha) whenever alpha <= 0.07
// (z >= 1.81): the tests check this for n = 1..60 against the exact Irwin-Hall distribution,
// and beyond that the uniform's negative excess kurtosis makes the tails lighter than normal
// for every z > sqrt(3). At z = sqrt(3) itself it is 3% too permissive at n = 2.
// It is vacuous when tol is at least half the width of the support: see MeanMinN.
func MeanZ(sd float64, n int, alpha float64) (float64, error) {
	if err := checkPositive("MeanZ", "sd", sd); err != nil {
		return 0, err
	}
	if err := checkN("MeanZ", n); err != nil {
		return 0, err
	}
	z, err := ZTwoSided(alpha)
	if err != nil {
		return 0, err
	}
	return finite("MeanZ", "tolerance", z*(sd/math.Sqrt(float64(n))))
}

// MeanMinN returns the smallest n at which the MeanZ tolerance is below half the width of the
// support, for a distribution whose sd is sdOverHalfWidth times its half width (1/sqrt(3) for
// the uniform). Below that n no sample can fail the mean check.
func MeanMinN(sdOverHalfWidth float64, alpha float64) (int, error) {
	if err := checkPositive("MeanMinN", "sdOverHalfWidth", sdOverHalfWidth); err != nil {
		return 0, err
	}
	z, err := ZTwoSided(alpha)
	if err != nil {
		return 0, err
	}
	// z*r/sqrt(n) < 1 exactly when n > (z*r)^2.
	x := z * sdOverHalfWidth * z * sdOverHalfWidth
	if !(x < MaxN) {
		return 0, inputErr("MeanMinN", "n > %.3g is beyond MaxN", x)
	}
	return int(math.Floor(x)) + 1, nil
}

// MeanHoeffding returns the two-sided tolerance width*sqrt(ln(2/alpha)/(2n)) on the mean of n
// independent draws that each lie in an interval of the given width: the check fails when
// |mean - mu| > tol. It is a bound (Hoeffding 1963): it holds for every distribution on the
// interval, at the cost of being about 1.7 times wider than MeanZ for the uniform.
func MeanHoeffding(width float64, n int, alpha float64) (float64, error) {
	if err := checkPositive("MeanHoeffding", "width", width); err != nil {
		return 0, err
	}
	if err := checkN("MeanHoeffding", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("MeanHoeffding", alpha); err != nil {
		return 0, err
	}
	l := math.Ln2 - math.Log(alpha) // ln(2/alpha), without overflow at the smallest alpha
	return finite("MeanHoeffding", "tolerance", width*math.Sqrt(l/(2*float64(n))))
}

// MeanBernstein returns the two-sided tolerance on the mean of n independent draws with
// standard deviation sd and |X - mu| <= maxDev, from Bernstein's inequality
// P(|mean - mu| >= t) <= 2 exp(-n t^2 / (2 sd^2 + 2 maxDev t / 3)): tol is the exact root of
// n t^2 = L (2 sd^2 + 2 maxDev t / 3) with L = ln(2/alpha). It is a bound that uses the
// variance, so it sits between MeanZ and MeanHoeffding (0.2280 for U[0,1) at n = 100, 1e-9).
func MeanBernstein(sd, maxDev float64, n int, alpha float64) (float64, error) {
	if err := checkPositive("MeanBernstein", "sd", sd); err != nil {
		return 0, err
	}
	if err := checkPositive("MeanBernstein", "maxDev", maxDev); err != nil {
		return 0, err
	}
	if sd > maxDev {
		return 0, inputErr("MeanBernstein", "sd = %v exceeds maxDev = %v, which no distribution can do", sd, maxDev)
	}
	if err := checkN("MeanBernstein", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("MeanBernstein", alpha); err != nil {
		return 0, err
	}
	l := math.Ln2 - math.Log(alpha) // ln(2/alpha), without overflow at the smallest alpha
	nf := float64(n)
	r := sd / maxDev // in units of maxDev, so that no square overflows
	b := 2 * l / 3
	// Positive root of n t^2 - b t - 2 L r^2 = 0; the sum below has no cancellation.
	return finite("MeanBernstein", "tolerance", maxDev*((b+math.Sqrt(b*b+8*nf*l*r*r))/(2*nf)))
}

// MeanSampleSize returns the n at which a two-sided z check of the mean at false-failure rate
// alpha detects a true shift of the mean by shift with probability 1-beta, for draws with
// standard deviation sd: ceil(((z_{alpha/2} + z_beta) sd / shift)^2), at least 1.
func MeanSampleSize(sd, shift, alpha, beta float64) (int, error) {
	if err := checkPositive("MeanSampleSize", "sd", sd); err != nil {
		return 0, err
	}
	if err := checkPositive("MeanSampleSize", "|shift|", math.Abs(shift)); err != nil {
		return 0, err
	}
	za, err := ZTwoSided(alpha)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(beta) || beta <= 0 || beta >= 1 {
		return 0, inputErr("MeanSampleSize", "beta = %v is outside (0, 1)", beta)
	}
	zb := upperZ(beta)
	if za+zb <= 0 {
		return 1, nil
	}
	k := (za + zb) * (sd / math.Abs(shift))
	x := math.Ceil(k * k)
	if !(x <= MaxN) {
		return 0, inputErr("MeanSampleSize", "n = %.3g is beyond MaxN", x)
	}
	return max(1, int(x)), nil
}

// meanDPBudget caps the cells of the exact sum distribution that MeanUniformInt computes:
// about 3 ms on one core.
const meanDPBudget = 1e6

type meanIntKey struct {
	w     uint64
	n     int
	alpha float64
}

type meanIntResult struct {
	dev    float64
	method string
	err    error
}

var meanIntCache memo[meanIntKey, meanIntResult]

// MeanUniformInt sizes the mean check of n draws from {0, ..., w-1}, all equally likely, on
// the sum S of the draws, which a caller computes exactly in integers: the check fails when
// |S - n(w-1)/2| >= dev. dev is one of the deviations S can take (a whole or half number) when
// n(w-1) < 2^52, and otherwise rounded up, so that the check errs on the side of passing.
//
// When affordable (about 1e6 cells, n = 1100 for w = 10) it uses the exact distribution of the
// sum, by dynamic programming, and the false-failure rate is the largest attainable one
// <= alpha. Otherwise it uses the z bound with a continuity correction of half a step on the
// sum, which the tests check is conservative against the exact distribution. method says
// which.
//
// It returns a *TooSmallError when no sample of n draws can fail, and an *InputError for
// w < 2, where the mean cannot vary.
func MeanUniformInt(w uint64, n int, alpha float64) (dev float64, method string, err error) {
	if w < 2 {
		return 0, "", inputErr("MeanUniformInt", "w = %d values, want w >= 2 (with one value the mean cannot vary)", w)
	}
	if err := checkN("MeanUniformInt", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("MeanUniformInt", alpha); err != nil {
		return 0, "", err
	}
	r := meanIntCache.get(meanIntKey{w, n, alpha}, func() meanIntResult {
		dev, method, ok := meanUniformInt(w, n, alpha)
		if !ok {
			return meanIntResult{err: tooSmall("MeanUniformInt", "mean", n, meanUniformIntNeed(w, n, alpha), alpha)}
		}
		return meanIntResult{dev, method, nil}
	})
	return r.dev, r.method, copyErr(r.err)
}

// meanExactAffordable reports whether the exact sum distribution for n draws on w values at
// false-failure rate alpha fits the time budget and a memory budget of 2e6 cells per row.
func meanExactAffordable(w uint64, n int, alpha float64) bool {
	nf, wf := float64(n), float64(w)
	row := nf*(wf-1) + 1
	if row > 2e6 {
		return false
	}
	// The dynamic program keeps the lower half of the distribution from where its values
	// reach tiny: about sqrt(2 v L i) cells below the centre at draw i, by the sub-Gaussian
	// tail of the sum (v = (w^2-1)/12, L = -ln tiny), and never fewer than w.
	l := -math.Log(meanTiny(n, alpha))
	v := (wf - 1) * (wf + 1) / 12
	banded := 2.0/3*math.Sqrt(2*v*l)*nf*math.Sqrt(nf) + (wf+1)*nf
	return min(nf*row/4, banded) <= meanDPBudget
}

// meanTiny is the value below which the exact method drops the far lower tail of the sum.
func meanTiny(n int, alpha float64) float64 { return alpha / 2 * 1e-20 / float64(n) }

// meanUniformInt sizes the check by the exact method when affordable, else by the z bound; ok
// is false when no outcome can reach the deviation.
func meanUniformInt(w uint64, n int, alpha float64) (dev float64, method string, ok bool) {
	if meanExactAffordable(w, n, alpha) {
		return meanUniformIntExact(w, n, alpha)
	}
	return meanUniformIntZ(w, n, alpha)
}

// meanUniformIntNeed returns the smallest n' > n at which meanUniformInt can fail.
func meanUniformIntNeed(w uint64, n int, alpha float64) int {
	// The exact method can fail as soon as P(S = 0) = w^-n' <= alpha/2.
	needExact := minNPow(float64(w), alpha, 2)
	for m := n + 1; m <= MaxN; m++ {
		if meanExactAffordable(w, m, alpha) {
			if m >= needExact {
				return m
			}
			m = needExact - 1
			continue
		}
		// The cost grows with m, so from here on the z bound decides.
		if _, _, ok := meanUniformIntZ(w, m, alpha); ok {
			return m
		}
	}
	return MaxN + 1
}

// meanUniformIntExact sizes the check from the exact distribution of the sum S.
func meanUniformIntExact(w uint64, n int, alpha float64) (dev float64, method string, ok bool) {
	lo, ok := sumUniformLowerCut(int(w), n, alpha/2, meanTiny(n, alpha))
	if !ok {
		return 0, "", false
	}
	// Fail when S <= lo or S >= top-lo, that is when |S - top/2| >= top/2 - lo.
	top := float64(n) * float64(w-1) // exact: the row fits the memory budget
	method = fmt.Sprintf("exact (sum of %d discrete uniforms on %d values)", n, w)
	return top/2 - float64(lo), method, true
}

// meanUniformIntZ sizes the check by the z bound with a continuity correction of half a step.
func meanUniformIntZ(w uint64, n int, alpha float64) (dev float64, method string, ok bool) {
	nf, wf := float64(n), float64(w)
	z, _ := ZTwoSided(alpha)
	sdSum := math.Sqrt(nf) * math.Sqrt((wf-1)*(wf+1)/12) // (w^2-1)/12 without overflow in w^2
	// The normal approximation of P(S >= top/2 + d) with continuity correction is
	// Q((d - 1/2)/sdSum), so the smallest failing deviation d is z*sdSum + 1/2.
	dev = z*sdSum + 0.5
	hi, lo := bits.Mul64(uint64(n), w-1) // top = n(w-1), exactly
	if hi == 0 && lo < 1<<52 {
		// Round up onto the attainable deviations top/2 - s, s an integer.
		c := float64(lo) / 2
		dev = c - math.Floor(c-dev)
		if dev > c {
			return 0, "", false
		}
	} else {
		// Past float64's integers: round up, which only makes the check more lenient.
		dev = math.Nextafter(dev*(1+1e-12), math.Inf(1))
		if dev > nf*(wf-1)/2*(1-1e-12) {
			return 0, "", false
		}
	}
	method = fmt.Sprintf("z bound with continuity correction (sum of %d discrete uniforms on %d values)", n, w)
	return dev, method, true
}

// sumUniformLowerCut returns the largest s with P(S <= s) <= a, where S is the sum of n
// independent uniform draws from {0, ..., w-1}; ok is false when P(S = 0) > a already.
// The dynamic program drops values below tiny from the far tails, and the cut leaves room for
// all of the dropped mass in the lower tail.
func sumUniformLowerCut(w, n int, a, tiny float64) (s int, ok bool) {
	f, from, dropped := sumUniformLowerHalf(w, n, tiny)
	cdf := dropped // everything below from was dropped
	for s = from; s < len(f); s++ {
		cdf += f[s]
		if cdf > a {
			break
		}
	}
	return s - 1, s > 0
}

// sumUniformLowerHalf returns P(S = s) for s = from..n(w-1)/2, where S is the sum of n
// independent uniform draws from {0, ..., w-1}, and the mass dropped below from (and, by
// symmetry, above n(w-1)-from) as the values there fell below tiny. With tiny = 0 it drops
// nothing and from = 0.
//
// Each step convolves with the uniform by a sliding window. The window runs from the left
// edge only up to the centre, where every term it adds or drops is no larger than the current
// sum, so the tails keep their relative precision; the upper half is the mirror image.
func sumUniformLowerHalf(w, n int, tiny float64) (f []float64, from int, dropped float64) {
	inv := 1 / float64(w)
	f = make([]float64, n*(w-1)+1)
	g := make([]float64, n*(w-1)+1)
	f[0] = 1
	prev, half := 1, 0 // the size of the last row and its centre
	for i := 1; i <= n; i++ {
		size := i*(w-1) + 1
		half = (size - 1) / 2
		var win float64
		s := from
		for ; s <= half && s < from+w; s++ { // the window still starts at f[from]
			if s < prev {
				win += f[s]
			}
			g[s] = win * inv
		}
		for ; s <= half; s++ { // half < prev once i >= 2
			win += f[s] - f[s-w]
			g[s] = win * inv
		}
		for t := half + 1; t <= size-1-from; t++ {
			g[t] = g[size-1-t]
		}
		f, g, prev = g, f, size
		// Drop the far lower tail, and its mirror image. The next window reads up to the
		// next centre, about w/2 above this one: keep from below that mirror.
		for from < half-w && f[from] < tiny {
			dropped += 2 * f[from]
			from++
		}
	}
	return f[:half+1], from, dropped
}
