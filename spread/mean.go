package spread

import (
	"fmt"
	"math"
	"math/big"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
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

// meanUniform checks the mean of the positions in [0, 1), where no sum overflows: a z bound
// with sd 1/sqrt(12), widened by the resolution the floats allow.
func (s *sample) meanUniform(alpha float64) (Result, error) {
	sd := 1 / math.Sqrt(12)
	z, err := sizing.MeanZ(sd, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	tol := z + s.res
	if tol >= 0.5 {
		need, _ := sizing.MeanMinN(sdOverHalfWidth, alpha)
		if s.res > 0 {
			need = smallestN(func(n int) bool { z, err := sizing.MeanZ(sd, n, alpha); return err == nil && z+s.res < 0.5 })
		}
		return Result{}, &sizing.TooSmallError{Check: string(CheckMean), N: s.n, Need: max(need, s.n+1), Alpha: alpha}
	}
	m := compensatedMean(s.sortedPos)
	method := fmt.Sprintf("z bound tol = z*sd/sqrt(n), sd = w/sqrt(12) from %s, n = %d, plus %.3g of w for the resolution of the floats (conservative for a check rate up to 0.07: the exact Irwin-Hall tail is lighter than the normal one there)",
		s.dist, s.n, s.res)
	w := s.width()
	return s.meanResult(s.value(m), s.value(0.5), math.Abs(m-0.5)*w, tol*w, sd*w/math.Sqrt(float64(s.n)), alpha, m < 0.5, math.Abs(m-0.5) > tol, method), nil
}

// meanDiscrete checks the sum S of the cells exactly, in integers: it fails when
// |S - n(W-1)/2| >= dev, that is |2S - n(W-1)| >= 2 dev.
func (s *sample) meanDiscrete(alpha float64) (Result, error) {
	dev, method, err := sizing.MeanUniformInt(s.cells, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	// The sum of the cells of the values inside the range, and of the offsets, in steps, of
	// those outside it: a value outside fails bounds, and moves the mean as far as it lies.
	sum := new(big.Int).Lsh(new(big.Int).SetUint64(s.cellSum[0]), 64)
	sum.Or(sum, new(big.Int).SetUint64(s.cellSum[1]))
	sum.Add(sum, &s.outSum)
	top := new(big.Int).Mul(big.NewInt(int64(s.n)), new(big.Int).SetUint64(s.cells-1))
	off := new(big.Int).Sub(new(big.Int).Lsh(sum, 1), top) // 2S - n(W-1)
	low := off.Sign() < 0
	off.Abs(off)
	failed := new(big.Float).SetInt(off).Cmp(big.NewFloat(2*dev)) >= 0
	nf := float64(s.n)
	meanCell, _ := new(big.Rat).SetFrac(sum, big.NewInt(int64(s.n))).Float64()
	offCells, _ := new(big.Rat).SetFrac(off, big.NewInt(2*int64(s.n))).Float64()
	w := float64(s.cells)
	sdCells := math.Sqrt((w - 1) * (w + 1) / 12)
	unit := s.cellUnit()
	return s.meanResult(s.cellText(meanCell), s.cellText((w-1)/2), offCells*unit, dev/nf*unit, sdCells*unit/math.Sqrt(nf), alpha, low, failed, method), nil
}

// cellUnit is the width of one cell in the sample's units.
func (s *sample) cellUnit() float64 {
	if s.dist.integer() {
		return float64(s.step)
	}
	return s.stepF
}

// cellText prints the value at a (fractional) cell of a discrete declaration, rounded.
func (s *sample) cellText(k float64) string {
	return s.kind.formatApprox(s.dist.lo + k*s.cellUnit())
}

// meanGeneral checks the mean of a bounded distribution that declares its mean and variance:
// a Bernstein bound. A law's values are read as coordinates.
func (s *sample) meanGeneral(alpha float64) (Result, error) {
	mu, variance, _ := s.dist.moments()
	sd := math.Sqrt(variance)
	lo, hi, text := s.dist.lo, s.dist.hi, s.kind.formatApprox
	if l := s.dist.law; l != nil {
		lo, hi, text = l.lo, l.hi, l.text
	}
	maxDev := math.Max(mu-lo, hi-mu)
	tol, err := sizing.MeanBernstein(sd, maxDev, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	if tol >= maxDev {
		need := smallestN(func(n int) bool {
			t, err := sizing.MeanBernstein(sd, maxDev, n, alpha)
			return err == nil && t < maxDev
		})
		return Result{}, &sizing.TooSmallError{Check: string(CheckMean), N: s.n, Need: need, Alpha: alpha}
	}
	method := fmt.Sprintf("Bernstein bound with the declared sd %s and the largest deviation %s, n = %d",
		s.kind.formatApprox(sd), s.kind.formatApprox(maxDev), s.n)
	m := compensatedMean(s.sorted)
	return s.meanResult(text(m), text(mu), math.Abs(m-mu), tol, sd/math.Sqrt(float64(s.n)), alpha, m < mu, math.Abs(m-mu) > tol, method), nil
}

// meanResult reports a mean check; off and tol are in the sample's units, se is the standard
// error, for the report.
func (s *sample) meanResult(mean, mu string, off, tol, se, alpha float64, low, failed bool, method string) Result {
	f := s.kind.formatApprox
	r := Result{
		Check:    CheckMean,
		N:        s.n,
		Value:    off,
		Limit:    tol,
		Alpha:    alpha,
		Margin:   tol - off,
		Failed:   failed,
		Method:   sized(method, ""),
		Observed: fmt.Sprintf("mean %s, off the expected %s by %s (%.1f standard errors)", mean, mu, f(off), off/se),
		Want:     fmt.Sprintf("off by %s %s (%.1f standard errors)", wantWord(s.discrete), f(tol), tol/se),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%s too far", f(off-tol))
		r.Suspects, r.why = []Suspect{SuspectOvershoot, SuspectIgnoresBase}, "shifted high"
		if low {
			r.Suspects, r.why = []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectTruncated, SuspectIgnoresBase}, "shifted low"
		}
	}
	return r
}

// wantWord says how a deviation must relate to the mean's limit: a discrete sum fails at the
// limit, a continuous mean only past it.
func wantWord(discrete bool) string {
	if discrete {
		return "less than"
	}
	return "at most"
}

// compensatedMean returns the average of xs: the sum of x/n, so that no sum overflows, with
// compensation, so that 1e6 values keep full precision.
func compensatedMean(xs []float64) float64 {
	n := float64(len(xs))
	var sum, c float64
	for _, x := range xs {
		y := x/n - c
		t := sum + y
		c = (t - sum) - y
		sum = t
	}
	return sum
}

// smallestN returns the smallest n for which ok(n) holds, assuming ok is monotone in n, or
// sizing.MaxN + 1 when none up to sizing.MaxN does.
func smallestN(ok func(n int) bool) int {
	hi := 1
	for !ok(hi) {
		if hi > sizing.MaxN/2 {
			return sizing.MaxN + 1
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
