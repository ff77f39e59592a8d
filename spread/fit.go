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
