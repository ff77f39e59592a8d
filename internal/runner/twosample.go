package runner

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Two samples of runs, x1 failures in n1 and x2 in n2, compared: did the failure rate change?
// These back the replay verdict (do replays of a failing seed fail more often than the test
// does?) and spreadcheck compare (did a fix lower the rate, or was it luck?).

// hypergeometric is the distribution of the failures in the first sample given the total,
// under equal rates: the null distribution of Fisher's exact test.
type hypergeometric struct{ n1, n2, total int }

func (h hypergeometric) support() (lo, hi int) { return max(0, h.total-h.n2), min(h.total, h.n1) }

func (h hypergeometric) logProb(x int) float64 {
	return logChoose(h.n1, x) + logChoose(h.n2, h.total-x) - logChoose(h.n1+h.n2, h.total)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func checkSamples(x1, n1, x2, n2 int) error {
	if n1 < 1 || n2 < 1 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2 {
		return fmt.Errorf("runner: %d failures in %d runs against %d in %d: want 0 <= failures <= runs and runs >= 1", x1, n1, x2, n2)
	}
	return nil
}

// FisherGreater returns the one-sided p-value of Fisher's exact test that the first sample
// fails more often than the second: the probability, under equal rates and given the total
// failures, of x1 or more failures in the first.
func FisherGreater(x1, n1, x2, n2 int) (float64, error) {
	if err := checkSamples(x1, n1, x2, n2); err != nil {
		return 0, err
	}
	h := hypergeometric{n1, n2, x1 + x2}
	_, hi := h.support()
	p := 0.0
	for x := x1; x <= hi; x++ {
		p += math.Exp(h.logProb(x))
	}
	return min(p, 1), nil
}

// FisherTwoSided returns the two-sided p-value of Fisher's exact test that the two samples fail
// at the same rate: the probability of every table at most as likely as the one observed (with
// R's relative tolerance of 1e-7 for ties).
func FisherTwoSided(x1, n1, x2, n2 int) (float64, error) {
	if err := checkSamples(x1, n1, x2, n2); err != nil {
		return 0, err
	}
	h := hypergeometric{n1, n2, x1 + x2}
	lo, hi := h.support()
	obs := h.logProb(x1)
	p := 0.0
	for x := lo; x <= hi; x++ {
		if lp := h.logProb(x); lp <= obs+math.Log1p(1e-7) {
			p += math.Exp(lp)
		}
	}
	return min(p, 1), nil
}

// DiffInterval returns a 95% confidence interval for the difference of the failure rates,
// x1/n1 - x2/n2, by Newcombe's hybrid score method (method 10 of Newcombe 1998, from the two
// Wilson intervals): close to its nominal coverage at small rates and counts, where the
// textbook Wald interval collapses to a point at 0 failures.
func DiffInterval(x1, n1, x2, n2 int) (lo, hi float64, err error) {
	if err := checkSamples(x1, n1, x2, n2); err != nil {
		return 0, 0, err
	}
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := wilson(x1, n1)
	l2, u2 := wilson(x2, n2)
	d := p1 - p2
	return d - math.Hypot(p1-l1, u2-p2), d + math.Hypot(u1-p1, p2-l2), nil
}

// wilson returns the 95% Wilson score interval for x of n.
func wilson(x, n int) (lo, hi float64) {
	z := distuv.UnitNormal.Quantile(1 - (1-Confidence)/2)
	p, nf := float64(x)/float64(n), float64(n)
	centre := p + z*z/(2*nf)
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	den := 1 + z*z/nf
	return max(0, (centre-half)/den), min(1, (centre+half)/den)
}
