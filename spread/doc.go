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
// (default 1e-9 for the whole call, shared between the statistics by Bonferroni, which holds
// for dependent statistics), the sample size and the declared distribution:
//
//   - bounds: every value inside the declared range (exact; a correct sample never fails it);
//   - distinct: no more repeats than n draws from the declared number of values allow
//     (catches a constant, a coarse clock, a value quantized to a coarse step);
//   - mean: the mean within its limit of the declared mean (catches shifts and one-sided
//     offsets);
//   - coverage: the min and max close enough to the ends of the range, and the range wide
//     enough (the sharpest test of a collapsed range);
//   - fit: one-sample Kolmogorov-Smirnov against the declared CDF (any change of shape), and
//     the order statistics of the positions and of their distances from the middle, each on
//     its own Beta scale (an end too heavy or too light, a spread too wide or too narrow);
//   - lattice: the leading binary digits of the values' positions on which every value agrees
//     (a stuck bit of the source), and the coarsest grid over the range that every value lies
//     within the sample's resolution of (a generator with too few random bits, scaled to the
//     range);
//   - independence: the counts of ascents and of turning points, and the lag-1 product sum
//     (values read from a clock, at any step; a smooth serial correlation).
//
// Only runs some of them. Uniform declares the usual jitter over [lo, hi) and UniformClosed
// over [lo, hi], Continuous any continuous distribution with a CDF and a quantile function
// (every continuous distribution in gonum's distuv), Discrete any distribution over the
// integers with a CDF and a probability mass function (distuv.Poisson, distuv.Binomial, ...),
// Like any distribution by example: a reference sampler, compared with exact two-sample
// statistics. Three shapes of real jitter are declared exactly: Clamp (a cap or a floor that
// becomes a point mass), TowardZero (a float converted to an integer) and OneOf (a few values).
// A check that does not apply to a declaration is reported as skipped, with the reason.
//
// Integer samples (time.Duration counts nanoseconds) are checked exactly, in integers, over the
// whole range of their type: values map to uint64 keys in the same order, so now.UnixNano()
// plus a jitter, or a uint64 above 2^63, is an ordinary sample. Float samples are continuous,
// with an allowance for the resolution of the common random floats (rand.Float64, a float32
// widened to float64, a duration's Seconds): no float value of theirs is more likely than
// p = max(2^-24, 1/(w 1e9)) + 4 ulp/w of a range of width w, and each check is sized so that
// such a source fails no more often than its rate. Dist.Step declares the grid of a sample whose
// values have one, integer or float; the checks are then exact on the grid.
//
// A failure is reported once, with every failing statistic explained: what was observed,
// the limit, its false-failure rate and how it was derived, how far outside it lies, the kinds
// of broken randomness it suggests (Suspect, named as package mutants names its classes), a
// histogram of the sample, and the seed and command that replay the test. Analyze returns the
// same report without a testing.TB.
//
// # Declarations are typed
//
// A declaration is a Dist[T], T the type of the values it declares, and Check and Analyze take
// a []T with a Dist[T] only: a float declaration against an integer sample, or one of int64
// against durations, does not compile. Go infers T from the arguments of the call that makes the
// declaration, never from the call it is passed to, so:
//
//   - the common declarations need no type: Uniform(0, base), Uniform(0, time.Second) and
//     Uniform(0.0, 1.0) take their bounds' types, Like its sampler's result type, and
//     Continuous(distuv.Normal{...}) the type of the distribution's methods (float64 for
//     gonum's);
//   - untyped constants alone default to int or float64, so Uniform(0, 1000) declares ints: a
//     sample of another type names it, Uniform[int64](0, 1000), Uniform[float32](0, 1), or
//     types a bound, Uniform(0, 16*time.Millisecond);
//   - Discrete names its type, Discrete[int](distuv.Poisson{Lambda: 4}): a gonum discrete
//     distribution's methods take float64 whatever the sample, so they cannot tell it.
//
// The alternative, a declaration of no type converted to the sample's at run time, would let
// Uniform(0, 1000) check any integer sample but would catch Uniform(0, 1) against floats only
// when the test runs.
//
// # Checks on event times
//
// A loop that does a thing once per interval is judged by its event times. CheckLoop checks
// one loop's events (offsets from its start) against its declared Schedule (Ticker,
// JitterTicker, RandomSleep, Reoffset, ReoffsetTicker): its gaps and pace, exactly where the
// shape fixes them and within sized bands where a sleep lets them drift, its rate, and the
// longest runs of its short and long draws. CheckFleet checks a fleet's events as well for its
// load (the fullest time bucket against the limit of independent uniform phases) and its
// phases; FleetStream takes a fleet's events one at a time, as a fakeclock Fleet's Sink hands
// them over, and keeps no event. Each failure names the loop and the event, and draws the load
// over one interval.
//
// # Limits
//
// Every input gets an answer: a report, an error, or (where the signature has no error) a
// panic whose message says what was wrong. Draw makes at most 1<<26 values, and a fleet has at
// most 1<<20 loops (as a fakeclock Fleet has), past which their memory would run out; a nil
// testing.TB panics with the name of the call; the zero FleetStream returns an error. The
// generator Rand returns belongs to one goroutine at a time.
package spread
