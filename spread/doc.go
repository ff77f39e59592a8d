// Package spread checks samples of random values, such as the waits of a jittered retry
// backoff, against the distribution they are declared to follow, with limits sized from a
// false-failure rate so that a test built on it catches broken randomness and never flakes.
//
// A test draws a sample from the code under test, seeded by Rand so that a failure can be
// replayed, and hands it to Check with the declared distribution:
//
//	func TestFullJitter(t *testing.T) {
//		r := spread.Rand(t)
//		xs := spread.Draw(1000, func() time.Duration { return backoff.Full(r, base) })
//		spread.Check(t, xs, spread.Uniform(0, base))
//	}
//
// Check runs a battery of checks, each sized by package sizing from the false-failure rate
// (default 1e-9 for the whole call), the sample size and the declared distribution:
//
//   - bounds: every value inside the declared range (exact; a correct sample never fails it);
//   - distinct: no more repeats than n draws from the declared number of values allow
//     (catches a constant, a coarse clock, a value quantized to a coarse step);
//   - mean: the mean within a z bound of the declared mean (catches shifts and one-sided
//     offsets);
//   - coverage: the min and max close enough to the ends of the range, and the range wide
//     enough (the sharpest test of a collapsed range);
//   - fit: one-sample Kolmogorov-Smirnov against the declared CDF (any change of shape);
//   - independence: the counts of ascents and of turning points (values read from a clock, at
//     any step).
//
// Uniform declares the usual jitter, Continuous any continuous distribution with a CDF and a
// quantile function (every continuous distribution in gonum's distuv), and Discrete any
// distribution over the integers with a CDF and a probability mass function (distuv.Poisson,
// distuv.Binomial, ...). A check that does not apply to a declaration is reported as skipped,
// with the reason.
//
// A failure is reported once, with every failing statistic explained: what was observed,
// the limit, its false-failure rate and how it was derived, how far outside it lies, the kind of
// broken randomness it suggests, a histogram of the sample, and the seed and command that replay
// the test. Analyze returns the same report without a testing.TB; Bounds, Distinct, Mean,
// Coverage, Fit and Independent run one check alone.
package spread
