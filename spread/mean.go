package spread

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkMean fails when the sample mean is further from the declared mean than n correct draws
// allow: a collapsed range, a one-sided offset or a shifted jitter moves the mean.
func (s *sample) checkMean(alpha float64) (Result, error) {
	switch {
	case s.discrete:
		return s.meanDiscrete(alpha)
	case s.dist.uniform:
		return s.meanUniform(alpha)
	default:
		return s.meanGeneral(alpha)
	}
}

// sdOverHalfWidth is the standard deviation of a uniform over a range, in half-widths: 1/sqrt(3).
var sdOverHalfWidth = 1 / math.Sqrt(3)

func (s *sample) meanUniform(alpha float64) (Result, error) {
	w := s.width()
	sd := w / math.Sqrt(12)
	tol, err := sizing.MeanZ(sd, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	if tol >= w/2 {
		need, _ := sizing.MeanMinN(sdOverHalfWidth, alpha)
		return Result{}, &sizing.TooSmallError{Check: CheckMean, N: s.n, Need: need, Alpha: alpha}
	}
	mu := (s.dist.lo + s.dist.hi) / 2
	method := fmt.Sprintf("z bound tol = z*sd/sqrt(n), sd = w/sqrt(12) = %s from %s, n = %d (conservative for a check rate up to 0.07: the exact Irwin-Hall tail is lighter than the normal one there)",
		s.format(sd), s.dist, s.n)
	return s.meanResult(mean(s.xs), mu, tol, sd/math.Sqrt(float64(s.n)), alpha, method), nil
}

func (s *sample) meanDiscrete(alpha float64) (Result, error) {
	tolSteps, method, err := sizing.MeanUniformInt(s.cells, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	step := float64(s.step)
	w := float64(s.cells)
	sdSteps := math.Sqrt((w*w - 1) / 12)
	mu := s.dist.lo + step*(w-1)/2
	return s.meanResult(mean(s.xs), mu, tolSteps*step, sdSteps*step/math.Sqrt(float64(s.n)), alpha, method), nil
}

func (s *sample) meanGeneral(alpha float64) (Result, error) {
	mu, variance, _ := s.dist.moments()
	sd := math.Sqrt(variance)
	maxDev := math.Max(mu-s.dist.lo, s.dist.hi-mu)
	tol, err := sizing.MeanBernstein(sd, maxDev, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	if tol >= maxDev {
		need := smallestN(func(n int) bool {
			t, err := sizing.MeanBernstein(sd, maxDev, n, alpha)
			return err == nil && t < maxDev
		})
		return Result{}, &sizing.TooSmallError{Check: CheckMean, N: s.n, Need: need, Alpha: alpha}
	}
	method := fmt.Sprintf("Bernstein bound with the declared sd %s and the largest deviation %s, n = %d",
		s.format(sd), s.format(maxDev), s.n)
	return s.meanResult(mean(s.xs), mu, tol, sd/math.Sqrt(float64(s.n)), alpha, method), nil
}

// meanResult judges an observed mean against mu +- tol; se is the standard error, for the report.
func (s *sample) meanResult(m, mu, tol, se, alpha float64, method string) Result {
	off := math.Abs(m - mu)
	r := Result{
		Name:      CheckMean,
		N:         s.n,
		Statistic: off,
		Limit:     tol,
		Alpha:     alpha,
		Margin:    tol - off,
		Failed:    off > tol,
		Method:    method,
		Observed:  fmt.Sprintf("mean %s, off the expected %s by %s (%.1f standard errors)", s.format(m), s.format(mu), s.format(off), off/se),
		Want:      fmt.Sprintf("off by at most %s (%.1f standard errors)", s.format(tol), tol/se),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%s too far", s.format(off-tol))
		r.Suggests = "shifted high: overshoot"
		if m < mu {
			r.Suggests = "shifted low: collapsed-range, sign-flip or truncated"
		}
	}
	return r
}

// mean returns the average of xs, summed with compensation so that 1e6 values keep full precision.
func mean(xs []float64) float64 {
	var sum, c float64
	for _, x := range xs {
		y := x - c
		t := sum + y
		c = (t - sum) - y
		sum = t
	}
	return sum / float64(len(xs))
}

// smallestN returns the smallest n for which ok(n) holds, assuming ok is monotone in n.
func smallestN(ok func(n int) bool) int {
	hi := 1
	for !ok(hi) {
		if hi > 1<<40 {
			return math.MaxInt
		}
		hi *= 2
	}
	lo := hi / 2 // ok(lo) is false, or lo = 0
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
