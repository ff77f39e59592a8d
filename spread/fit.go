package spread

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkFit fails when the sample's empirical CDF strays too far from the declared CDF anywhere
// (one-sample Kolmogorov-Smirnov): it sees any change of shape, given enough values.
func (s *sample) checkFit(alpha float64) (Result, error) {
	var stat, limit float64
	var method string
	var err error
	if s.discrete {
		cells := make([]int64, s.n)
		for i, k := range s.sortedK {
			cells[i] = min(max(k, 0), s.cells-1)
		}
		stat = sizing.KSStatisticUniformInt(cells, s.cells)
		limit, method, err = sizing.KSCriticalUniformInt(s.cells, s.n, alpha)
	} else if s.dist.disc != nil {
		stat = s.ksDiscreteDist()
		limit, method, err = sizing.KSCritical(s.n, alpha)
		method += ", the continuous value, conservative for a discrete distribution"
	} else {
		stat = sizing.KSStatistic(s.sorted, func(x float64) float64 {
			return math.Min(1, math.Max(0, s.pos(x)))
		})
		limit, method, err = sizing.KSCritical(s.n, alpha)
	}
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Name:      CheckFit,
		N:         s.n,
		Statistic: stat,
		Limit:     limit,
		Alpha:     alpha,
		Margin:    limit - stat,
		Failed:    stat >= limit,
		Method:    fmt.Sprintf("one-sample Kolmogorov-Smirnov critical value, %s, n = %d", method, s.n),
		Observed:  fmt.Sprintf("D = %.4f (largest gap between the sample's CDF and the declared one)", stat),
		Want:      fmt.Sprintf("D < %.4f", limit),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("D is %.4f past the limit", stat-limit)
		r.Suggests = "wrong shape (a shifted, collapsed or skewed spread)"
	}
	return r, nil
}

// ksDiscreteDist returns the Kolmogorov-Smirnov distance between the sample and a distribution
// over the integers: the empirical CDF is flat between sample values, and the declared one
// rises only at integers, so the supremum is at a sample value v, either at v or just below it
// (where the declared CDF is CDF(v-1)).
func (s *sample) ksDiscreteDist() float64 {
	cdf := s.dist.disc.CDF
	n := float64(s.n)
	d := 0.0
	for i := 0; i < s.n; {
		v := s.sorted[i]
		j := i
		for j < s.n && s.sorted[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/n-cdf(math.Ceil(v)-1)), math.Abs(float64(j)/n-cdf(v)))
		i = j
	}
	return d
}
