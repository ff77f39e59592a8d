package spread

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkDistinct fails when the sample repeats values more often than n draws from the declared
// number of equally likely values allow: a constant, a coarse clock or a value quantized to a
// coarse step repeats far too often.
func (s *sample) checkDistinct(alpha float64) (Result, error) {
	repeats := 0
	for i := 1; i < s.n; i++ {
		if s.sorted[i] == s.sorted[i-1] {
			repeats++
		}
	}
	distinct := s.n - repeats
	m, method, err := sizing.RepeatsLimit(s.support, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Name:      CheckDistinct,
		N:         s.n,
		Statistic: float64(repeats),
		Limit:     float64(m),
		Alpha:     alpha,
		Margin:    float64(m - repeats),
		Failed:    repeats >= m,
		Method:    s.supportNote(method),
		Observed:  fmt.Sprintf("%d distinct %s, %d repeats", distinct, plural(distinct, "value", "values"), repeats),
		Want:      fmt.Sprintf("fewer than %d repeats", m),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d repeats too many", repeats-m+1)
		r.Suggests = "quantized or clock-derived (far too few distinct values)"
		if distinct == 1 {
			r.Suggests = "constant (one value on every call)"
		}
	}
	return r, nil
}

// supportNote adds to a method where a float sample's number of values came from.
func (s *sample) supportNote(method string) string {
	if s.discrete {
		return method
	}
	return fmt.Sprintf("%s; %s equally likely values assumed", method, supportText(s.support, false))
}

// supportText describes the number of possible values.
func supportText(w float64, discrete bool) string {
	switch {
	case w == 1<<53 && !discrete:
		return "2^53 (the resolution of rand.Float64)"
	case w == 1<<24 && !discrete:
		return "2^24 (the resolution of rand.Float32)"
	case w >= 1e6:
		return fmt.Sprintf("%.4g", w)
	default:
		return fmt.Sprintf("%.0f", w)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
