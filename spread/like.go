package spread

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// Like declares a distribution by example: the documented formula of the jitter, written as a
// function of a *rand.Rand, for example
//
//	spread.Like(func(r *rand.Rand) time.Duration { return min(limit, backoff.Full(r, d)) })
//
// Then any distribution (capped, rounded, truncated, mixed, dependent on the attempt) is checked
// without deriving it by hand. Check and Analyze draw a reference sample of as many values as
// the sample, on a seed taken from the sample itself (so that a replayed sample gets the same
// reference, and every run a fresh one), and compare the two with exact two-sample statistics:
//
//   - fit: the two-sample Kolmogorov-Smirnov distance, its tail exact at every n
//     (Gnedenko-Korolyuk); the report says where the two differ most and which holds more;
//   - coverage: how many of the reference's values lie above the sample's largest (and below
//     its smallest), whose tail C(n, k)/C(2n, k) is exact for any distribution;
//   - independence: the order patterns of the sample itself.
//
// Ties, as at a cap, only make these statistics smaller, so their limits hold for every
// distribution. A reference that panics is an error, not a crash.
func Like[T Number](reference func(r *rand.Rand) T) Dist[T] {
	k := kindOf[T]()
	d := dist{kind: k, name: "Like(reference)"}
	if reference == nil {
		d.name, d.err = "Like(nil)", errors.New("spread: Like(nil): no reference sampler declared")
		return Dist[T]{d}
	}
	d.like = func(r *rand.Rand, n int) (keys []uint64, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("spread: the reference sampler panicked: %v", p)
			}
		}()
		keys = make([]uint64, n)
		for i := range keys {
			x := reference(r)
			if k.integer {
				keys[i] = intKey(x, k.signed)
				continue
			}
			f := float64(x)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("spread: the reference sampler drew %v: a reference takes finite numbers only", f)
			}
			keys[i] = floatKey(f)
		}
		return keys, nil
	}
	return Dist[T]{d}
}

// prepareLike draws the reference and keeps both samples' keys, sorted.
func (s *sample) prepareLike() error {
	seed := uint64(s.n)
	for _, k := range s.keys {
		seed = splitmix(seed ^ k)
	}
	ref, err := s.dist.like(rand.New(rand.NewPCG(seed, 0x5eed_7e7e_7e7e_7e7e)), s.n)
	if err != nil {
		return err
	}
	s.refSorted = sortedCopy(ref)
	return nil
}

// likeValue prints a key of the reference's domain as a value.
func (s *sample) likeValue(key uint64) string {
	if s.dist.kind.integer {
		return s.dist.kind.formatKey(key)
	}
	return formatFloat(s.keyValue(key), s.dist.kind.float32)
}

// coverageLike counts, at each end of the pooled values, how many of one sample lie beyond
// every value of the other: the run of one side at the top (or the bottom) of the pooled order.
// Either side may run over, so each end's rate is split between the two.
func (s *sample) coverageLike(alpha float64) ([]Result, error) {
	k, err := sizing.PooledTopLimit(s.n, alpha/2)
	if err != nil {
		return nil, err
	}
	own, ref := s.sortedKeys, s.refSorted
	method := Method{Formula: "P(the k largest of the 2n pooled values all from one sample) = 2 C(n, k)/C(2n, k) for two samples of n from one distribution (ties only shorten the run)",
		Inputs: fmt.Sprintf("k = %d, n = %d", k, s.n), Exact: true}
	end := func(name string, refBeyond, ownBeyond int, bound, refWord, ownWord, side string) Result {
		run := max(refBeyond, ownBeyond)
		r := Result{
			Check: CheckCoverage, Statistic: Statistic(name), N: s.n, Alpha: alpha,
			Value: float64(run), Limit: float64(k), Margin: float64(k - run), Failed: run >= k,
			Method:   method,
			Observed: fmt.Sprintf("%d of the reference's values %s the sample's %s %s, %d of the sample's %s the reference's", refBeyond, refWord, name, bound, ownBeyond, ownWord),
			Want:     fmt.Sprintf("fewer than %d beyond the other's %s", k, name),
		}
		if r.Failed {
			r.Distance = fmt.Sprintf("%d values too many", run-k+1)
			r.Suspects, r.why = collapsedTop, "the sample lacks the reference's "+side
			if ownBeyond > refBeyond {
				r.Suspects, r.why = []Suspect{SuspectOvershoot, SuspectSignFlip, SuspectWrongShape}, "the sample reaches past the reference's "+side
			}
		}
		return r
	}
	top := end("max", s.n-upperBound(ref, own[s.n-1]), s.n-upperBound(own, ref[s.n-1]), s.max, "above", "above", "top")
	bottom := end("min", lowerBound(ref, own[0]), lowerBound(own, ref[0]), s.min, "below", "below", "bottom")
	return []Result{bottom, top}, nil
}

// fitLike is the two-sample Kolmogorov-Smirnov check, in integers: n D = max |#sample <= x -
// #reference <= x| over the pooled values x.
func (s *sample) fitLike(alpha float64) (Result, error) {
	k, method, err := sizing.KSTwoSampleCritical(s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	own, ref := s.sortedKeys, s.refSorted
	gap, at, i, j := 0, uint64(0), 0, 0
	for i < s.n || j < s.n {
		x := uint64(math.MaxUint64)
		if i < s.n {
			x = own[i]
		}
		if j < s.n {
			x = min(x, ref[j])
		}
		i, j = upperBoundFrom(own, x, i), upperBoundFrom(ref, x, j)
		if g := i - j; abs64(g) > abs64(gap) {
			gap, at = g, x
		}
	}
	r := Result{
		Check: CheckFit, Statistic: "ks", N: s.n, Alpha: alpha,
		Value: float64(abs64(gap)) / float64(s.n), Limit: float64(k) / float64(s.n),
		Margin: float64(k-abs64(gap)) / float64(s.n), Failed: abs64(gap) >= k,
		Method:   twoSampleMethod(method),
		Observed: fmt.Sprintf("D = %d/%d, at %s: %s", abs64(gap), s.n, s.likeValue(at), sideText(gap, s.n, s.likeValue(at))),
		Want:     fmt.Sprintf("D < %d/%d", k, s.n),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d values past the limit", abs64(gap)-k+1)
		r.Suspects, r.why = []Suspect{SuspectWrongShape, SuspectCollapsedRange, SuspectSignFlip}, "the sample's spread is not the reference's"
	}
	return r, nil
}

// sideText says which sample holds more values at or below x.
func sideText(gap, n int, x string) string {
	switch {
	case gap > 0:
		return fmt.Sprintf("the sample holds %d more values at or below %s than the reference (a lower median, or a heavier low end)", gap, x)
	case gap < 0:
		return fmt.Sprintf("the reference holds %d more values at or below %s than the sample (a higher median, or a heavier high end)", -gap, x)
	}
	return "the two agree everywhere"
}

// upperBound returns the number of values <= x in sorted.
func upperBound(sorted []uint64, x uint64) int { return upperBoundFrom(sorted, x, 0) }

// upperBoundFrom is upperBound starting at index i, for a merge.
func upperBoundFrom(sorted []uint64, x uint64, i int) int {
	for i < len(sorted) && sorted[i] <= x {
		i++
	}
	return i
}

// lowerBound returns the number of values < x in sorted.
func lowerBound(sorted []uint64, x uint64) int {
	i := 0
	for i < len(sorted) && sorted[i] < x {
		i++
	}
	return i
}

func abs64(x int) int { return max(x, -x) }

// twoSampleMethod is the Method of a two-sample KS limit from sizing's method.
func twoSampleMethod(method string) Method {
	m := sized(method, "")
	m.Formula = "two-sample Kolmogorov-Smirnov, " + m.Formula
	return m
}
