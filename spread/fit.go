package spread

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// checkFit compares the sample's shape with the declared one: the Kolmogorov-Smirnov distance
// (any change of shape, given enough values) and, where the positions are fine enough, the
// order-statistic tails of the positions and of their distances from the middle (an end too
// heavy or too light, a spread too wide or too narrow), the three sharing the check's rate.
// Like compares two samples: its fit is the two-sample distance alone.
func (s *sample) checkFit(alpha float64) ([]Result, error) {
	if s.dist.like != nil {
		r, err := s.fitLike(alpha)
		return []Result{r}, err
	}
	bounds := s.positionBounds()
	if bounds == nil {
		r, err := s.ks(alpha)
		return []Result{r}, err
	}
	part, err := share(alpha, 3)
	if err != nil {
		return nil, err
	}
	ks, err := s.ks(part)
	if err != nil {
		return nil, err
	}
	tails, err := s.orderTails(bounds, part, false)
	if err != nil {
		return nil, err
	}
	ranks, err := sizing.OrderTailsRanks(s.n)
	if err != nil {
		return nil, err
	}
	spread, err := s.orderTails(foldedBounds(s.n, bounds, ranks), part, true)
	if err != nil {
		return nil, err
	}
	return []Result{ks, tails, spread}, nil
}

// ks fails when the sample's empirical CDF strays too far from the declared CDF anywhere
// (one-sample Kolmogorov-Smirnov).
func (s *sample) ks(alpha float64) (Result, error) {
	var stat, limit float64
	var method string
	var err error
	switch {
	case s.discrete:
		if stat, err = sizing.KSStatisticUniformInt(s.sortedCells, s.cells); err != nil {
			return Result{}, err
		}
		limit, method, err = sizing.KSCriticalUniformInt(s.cells, s.n, alpha)
	case s.dist.law != nil:
		stat = s.ksLaw()
		limit, method, err = s.ksResolved(alpha)
		method += ", the continuous value, conservative for a distribution with atoms"
	default:
		if stat, err = sizing.KSStatistic(s.sortedPos, clamp01); err != nil {
			return Result{}, err
		}
		limit, method, err = s.ksResolved(alpha)
	}
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Check: CheckFit, Statistic: "ks",
		N:        s.n,
		Value:    stat,
		Limit:    limit,
		Alpha:    alpha,
		Margin:   limit - stat,
		Failed:   stat >= limit,
		Method:   ksMethod(method, s.dist.law != nil, s.n),
		Observed: fmt.Sprintf("D = %.4f (largest gap between the sample's CDF and the declared one)", stat),
		Want:     fmt.Sprintf("D < %.4f", limit),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("D is %.4f past the limit", stat-limit)
		r.Suspects, r.why = []Suspect{SuspectWrongShape}, "a shifted, collapsed or skewed spread"
		if s.dist.uniform {
			r.Suspects = []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectIgnoresBase}
		}
	}
	return r, nil
}

// ksResolved returns the KS limit for a float uniform sample, widened by its resolution: a
// value's position lies within res of the continuous uniform it stands for, so D lies within
// res of the continuous statistic.
func (s *sample) ksResolved(alpha float64) (float64, string, error) {
	d, method, err := sizing.KSCritical(s.n, alpha)
	if err != nil {
		return 0, "", err
	}
	if s.res == 0 {
		return d, method, nil
	}
	if d+s.res >= 1 {
		need := smallestN(func(n int) bool { d, _, err := sizing.KSCritical(n, alpha); return err == nil && d+s.res < 1 })
		return 0, "", &sizing.TooSmallError{Check: string(CheckFit), N: s.n, Need: max(need, s.n+1), Alpha: alpha}
	}
	return d + s.res, fmt.Sprintf("%s, plus %.3g for the resolution of the floats", method, s.res), nil
}

// clamp01 returns x within [0, 1] (NaN stays NaN), by comparisons: the order-statistic
// tails call it for every value.
func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// ksLaw returns the Kolmogorov-Smirnov distance between the sample and a law: the empirical
// CDF is flat between sample values and the declared one rises, so the supremum is at a sample
// value v, either at v or just below it (where the declared CDF is P(X < v)).
func (s *sample) ksLaw() float64 {
	n := float64(s.n)
	d := 0.0
	for i := 0; i < s.n; {
		v := s.sorted[i]
		j := i
		for j < s.n && s.sorted[j] == v {
			j++
		}
		below, at := s.dist.law.cdf(v)
		d = max(d, math.Abs(float64(i)/n-below), math.Abs(float64(j)/n-at))
		i = j
	}
	return d
}

// ksMethod is the Method of a one-sample KS limit from sizing's method; law says that the
// continuous limit was taken for a law, which may have atoms: there it is a bound.
func ksMethod(method string, law bool, n int) Method {
	m := sized(method, fmt.Sprintf("n = %d", n))
	m.Formula = "one-sample Kolmogorov-Smirnov critical value, " + m.Formula
	if law {
		m.Exact = false
	}
	return m
}
