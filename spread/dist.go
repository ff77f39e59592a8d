package spread

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Dist is a declared distribution of values of type T: what a correct implementation's values
// must look like. Make one with Uniform, UniformClosed, Continuous, Discrete, Like or OneOf.
// The zero Dist is invalid.
//
// Its type parameter is the sample's type, so that Check and Analyze take only a declaration of
// the sample's own type: a float declaration against an integer sample does not compile. Go
// infers T from the arguments of the declaring call, never from the call around it: write the
// bounds in the sample's type (Uniform(0, time.Second), Uniform(0.0, 1.0), Uniform(0, base)),
// or name T where every bound is an untyped constant (Uniform[int64](0, 1000)).
type Dist[T Number] struct{ d dist }

// dist is a declaration, whatever its type.
type dist struct {
	name string
	kind numKind // the type of the declared bounds

	uniform bool
	closed  bool    // a uniform over [lo, hi], both ends included
	lo, hi  float64 // the range; for an integer uniform, its bounds rounded to float64
	// An integer uniform over [loKey, lastKey], both included, in the keys of its type (see
	// intKey): exact for every value of every integer type.
	loKey, lastKey uint64
	bounds         [2]string // the bounds, printed exactly
	step           step      // the grid of a uniform (Dist.Step)

	cont     continuousDist // a general continuous distribution (uniform == false)
	contDecl any            // the ContinuousDist as declared, for its Mean and Variance
	law      *law           // a distribution known by its exact CDF (Discrete, Clamp, TowardZero, OneOf)
	// like draws n values of a reference sampler, as keys of its type (see Like).
	like func(r *rand.Rand, n int) ([]uint64, error)

	err error
}

// ContinuousDist is a continuous distribution over values of type T (float64 or float32) known
// by its CDF and quantile function, such as every continuous distribution in
// gonum.org/v1/gonum/stat/distuv (distuv.Normal, distuv.Exponential, distuv.Beta, ...), whose
// methods make T float64. If it also has Mean() and Variance() methods returning float64 and
// a bounded support, the mean check uses them.
type ContinuousDist[T ~float32 | ~float64] interface {
	CDF(x T) float64
	Quantile(p float64) T
}

// Uniform declares the uniform distribution over the half-open range [lo, hi).
//
// For an integer type (time.Duration counts nanoseconds) it is the discrete uniform
// distribution over the integers in [lo, hi), anywhere in the type's range; for a
// floating-point type it is continuous. T is the bounds' type: Uniform(0, time.Second) declares
// durations, Uniform(0.0, 1.0) float64s; untyped constants alone make an int, so Uniform(0, 1)
// against a float sample does not compile (see Dist).
func Uniform[T Number](lo, hi T) Dist[T] { return Dist[T]{uniform(lo, hi, false)} }

// UniformClosed declares the uniform distribution over the closed range [lo, hi], both ends
// included: the values of the common formula lo + r.Int64N(hi-lo+1), whose upper end is
// inclusive. For a float type it is the same continuous distribution as Uniform, except that
// the bounds check accepts hi itself. The whole range of a 64-bit type, such as
// UniformClosed(uint64(0), math.MaxUint64) for r.Uint64(), is a declaration like any other:
// its 2^64 values are one more than a uint64 counts, so the checks merge the two largest into
// one cell and give up n 2^-64 of the false-failure rate for it (3.6e-12 at 2^26 values), which
// keeps the rate exact; a sample of more than alpha 2^63 values is an error.
func UniformClosed[T Number](lo, hi T) Dist[T] { return Dist[T]{uniform(lo, hi, true)} }

func uniform[T Number](lo, hi T, closed bool) dist {
	k := kindOf[T]()
	d := dist{kind: k, uniform: true, closed: closed, lo: float64(lo), hi: float64(hi)}
	end := ")"
	if closed {
		end = "]"
	}
	if k.integer {
		d.bounds = [2]string{k.formatKey(intKey(lo, k.signed)), k.formatKey(intKey(hi, k.signed))}
		d.name = fmt.Sprintf("Uniform[%s, %s%s", d.bounds[0], d.bounds[1], end)
		d.loKey, d.lastKey = intKey(lo, k.signed), intKey(hi, k.signed)
		switch {
		case closed && d.loKey > d.lastKey, !closed && d.loKey >= d.lastKey:
			d.err = fmt.Errorf("spread: %s: lo must be below hi", d.name)
		case !closed:
			d.lastKey--
		}
		return d
	}
	d.bounds = [2]string{formatFloat(d.lo, k.float32), formatFloat(d.hi, k.float32)}
	d.name = fmt.Sprintf("Uniform[%s, %s%s", d.bounds[0], d.bounds[1], end)
	switch {
	case math.IsNaN(d.lo) || math.IsNaN(d.hi) || math.IsInf(d.lo, 0) || math.IsInf(d.hi, 0):
		d.err = fmt.Errorf("spread: %s: the bounds must be finite numbers", d.name)
	case !(d.lo < d.hi):
		d.err = fmt.Errorf("spread: %s: lo must be below hi", d.name)
	}
	return d
}

// above reports whether a float value lies past the end of a uniform range.
func (d dist) above(x float64) bool { return x > d.hi || !d.closed && x == d.hi }

// Continuous declares a continuous distribution by its CDF and quantile function, for example
// Continuous(distuv.Normal{Mu: 1, Sigma: 0.1}): T is inferred from the distribution's methods,
// float64 for gonum's. Its support is [Quantile(0), Quantile(1)], which may be infinite. A
// distribution so narrow that one value of T carries more than 1/64 of its probability (a
// Normal whose Sigma is below the spacing of the floats at Mu) is an error of Check and
// Analyze: its values fall on a few floats, which no continuous check can judge.
func Continuous[T ~float32 | ~float64](d ContinuousDist[T]) (out Dist[T]) {
	out.d = dist{kind: kindOf[T](), name: "Continuous(nil)"}
	if d == nil {
		out.d.err = errors.New("spread: Continuous(nil): no distribution declared")
		return out
	}
	out.d.cont, out.d.contDecl = continuousAs[T]{d}, d
	out.d.name = distName(d)
	defer func() {
		if p := recover(); p != nil {
			out.d.err = fmt.Errorf("spread: %s panicked: %v: check the distribution's parameters", out.d.name, p)
		}
	}()
	out.d.lo, out.d.hi = float64(d.Quantile(0)), float64(d.Quantile(1))
	if math.IsNaN(out.d.lo) || math.IsNaN(out.d.hi) || !(out.d.lo < out.d.hi) {
		out.d.err = fmt.Errorf("spread: %s: its support [Quantile(0), Quantile(1)] = [%v, %v] is not a range", out.d.name, out.d.lo, out.d.hi)
	}
	return out
}

// continuousDist is a ContinuousDist on float64, as the checks read one.
type continuousDist interface {
	CDF(x float64) float64
	Quantile(p float64) float64
}

// continuousAs reads a ContinuousDist[T] on float64; it keeps the declared distribution for
// its Mean and Variance methods.
type continuousAs[T ~float32 | ~float64] struct{ d ContinuousDist[T] }

func (c continuousAs[T]) CDF(x float64) float64      { return c.d.CDF(T(x)) }
func (c continuousAs[T]) Quantile(p float64) float64 { return float64(c.d.Quantile(p)) }

// DiscreteDist is a distribution over the integers known by its CDF and probability mass
// function, such as distuv.Poisson, distuv.Binomial, distuv.Bernoulli and distuv.Categorical
// from gonum.org/v1/gonum/stat/distuv.
type DiscreteDist interface {
	CDF(x float64) float64
	Prob(x float64) float64
}

// Discrete declares a distribution over the integers by its CDF and probability mass
// function, for example Discrete[int](distuv.Poisson{Lambda: 4}). Name the sample's type: the
// distribution's methods take float64 whatever the sample, so they cannot tell T (values
// beyond 2^53 reach them rounded). A value of probability zero (outside the support, or not a
// whole number) fails the bounds check. Its values are not equally likely, so the distinct
// check does not apply; the mean check needs a bounded support, so it is skipped too; coverage
// checks the min and max on the probability scale, and fit uses the continuous
// Kolmogorov-Smirnov limit, which is conservative for a discrete distribution.
func Discrete[T Number](d DiscreteDist) Dist[T] {
	k := kindOf[T]()
	out := dist{kind: k, name: "Discrete(nil)", lo: math.Inf(-1), hi: math.Inf(1)}
	if d == nil {
		out.err = errors.New("spread: Discrete(nil): no distribution declared")
		return Dist[T]{out}
	}
	out.name, out.law = distName(d), discreteLaw(d, k)
	return Dist[T]{out}
}

// distName prints a gonum distribution without its nil source.
func distName(d any) string {
	return strings.NewReplacer(" Src:<nil>", "", "Src:<nil>", "").Replace(fmt.Sprintf("%T%+v", d, d))
}

// String returns the declaration, e.g. "Uniform[0s, 1s)".
func (d Dist[T]) String() string { return d.d.String() }

func (d dist) String() string {
	if d.name == "" {
		return "Dist{}"
	}
	return d.name
}

// validate reports why d cannot be used, if it cannot.
func (d dist) validate() error {
	if d.name == "" {
		return errors.New("spread: the zero Dist declares nothing: use Uniform, Continuous or Discrete")
	}
	return d.err
}

// integer reports whether d is a uniform over an integer type.
func (d dist) integer() bool { return d.uniform && d.kind.integer }

// bounded reports whether the support is finite at both ends.
func (d dist) bounded() bool {
	switch {
	case d.like != nil:
		return false
	case d.law != nil:
		return !math.IsInf(d.law.lo, 0) && !math.IsInf(d.law.hi, 0)
	}
	return !math.IsInf(d.lo, 0) && !math.IsInf(d.hi, 0)
}

// moments returns the mean and variance the distribution declares, if it declares them.
func (d dist) moments() (mean, variance float64, ok bool) {
	if d.law != nil {
		return d.law.mean, d.law.variance, !math.IsNaN(d.law.mean)
	}
	if d.uniform || d.like != nil {
		return 0, 0, false // the uniform checks use exact formulas of their own
	}
	m, okM := d.contDecl.(interface{ Mean() float64 })
	v, okV := d.contDecl.(interface{ Variance() float64 })
	if !okM || !okV {
		return 0, 0, false
	}
	mean, variance = m.Mean(), v.Variance()
	if math.IsNaN(mean) || math.IsInf(mean, 0) || math.IsNaN(variance) || math.IsInf(variance, 0) || variance < 0 {
		return 0, 0, false
	}
	return mean, variance, true
}
