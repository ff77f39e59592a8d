package loops

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mathext"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/spread"
)

// The fleet claims run on the smallest fleet at which the loops written the wrong way still fail
// with probability at least 1 - 1e-12, computed here from the limits that spread's checks report
// for each size.
//
// A wrong way that puts every copy in one bucket fails for certain once the fleet is large enough
// for its checks to be sized at all: its fleet is the smallest at which it fails.
//
// A wrong way that packs the copies into a window [0, w) of the interval passes the load check
// only if every bucket holds fewer than the limit m. A packed fleet's counts in one interval are
// multinomial, which is negatively associated (Joag-Dev and Proschan 1983), so
//
//	P(every bucket < m) <= prod over buckets b of P(Binomial(n, p_b) < m),
//
// and intervals whose draws are independent multiply. The phases all lie in [0, w): their
// Kolmogorov-Smirnov distance from Uniform[0, I) is at least 1 - w/I, a certain failure once the
// check's limit is below it. The diagnosis "packed within 50%" needs both edge buckets of the
// window non-empty in the fullest interval, which fails with probability at most the sum over the
// intervals and the two edges of (1 - p_edge)^n.

// escapeLimit is how likely the wrong ways of a claim's fleet may pass, all together.
const escapeLimit = 1e-12

// A sizedFleet is a claims' fleet and its wrong ways, each a bound on the probability that it
// passes the checks that the claims expect it to fail, at a given size.
type sizedFleet struct {
	name  string
	fleet *fleet
	wrong []func(t *testing.T, f fleet) float64
}

var sizedFleets = []sizedFleet{
	{"lockstep", &lockstepFleet, []func(*testing.T, fleet) float64{
		func(t *testing.T, f fleet) float64 { // plain tickers (TestClaimTickerFleetStaysInLockstep)
			r := f.report(t, 1, spread.Ticker(interval).Next, spread.Ticker(interval), true)
			return certain(failsAll(r, spread.CheckLoad, spread.CheckPhases) && diagnosed(r, spread.SuspectLockstep, ""))
		},
		func(t *testing.T, f fleet) float64 { // jitter after the work (TestClaimJitterTickerFleetSpreads)
			r := f.report(t, 1, spread.Ticker(interval).Next, spread.JitterTicker(interval, interval), true)
			return certain(failsAll(r, spread.CheckLoad, spread.CheckPhases))
		},
	}},
	{"packed", &packedFleet, []func(*testing.T, fleet) float64{
		func(t *testing.T, f fleet) float64 { // half the interval (TestClaimJitterWindowFleetStaysPacked)
			return packedEscape(t, f, spread.JitterTicker(interval, interval/2).Next, spread.JitterTicker(interval, interval), interval/2, fleetIntervals, true)
		},
		func(t *testing.T, f fleet) float64 { // 100 ms
			return packedEscape(t, f, spread.JitterTicker(interval, 100*time.Millisecond).Next, spread.JitterTicker(interval, interval), 100*time.Millisecond, fleetIntervals, true)
		},
	}},
	{"re-offset", &reoffsetFleet, []func(*testing.T, fleet) float64{
		func(t *testing.T, f fleet) float64 { // the first batch before the first offset (TestClaimReoffsetFleetSpreads)
			r := f.report(t, 1, reoffsetAfterBatchSchedule, spread.Reoffset(interval, Batch), true)
			return certain(failsAll(r, spread.CheckLoad, spread.CheckPhases))
		},
	}},
	{"blip", &blipFleet, []func(*testing.T, fleet) float64{
		func(t *testing.T, f fleet) float64 { // tickers started within 100 ms (TestClaimStaggeredTickersSpread)
			// A ticker's phase is its start in every interval: one interval's draws, repeated.
			return packedEscape(t, f, spread.Ticker(interval).Next, spread.Ticker(interval), f.stagger, 1, false)
		},
		func(t *testing.T, f fleet) float64 { // tickers staggered over the interval, judged from the fleet's start
			// Their pace fails unless every copy's start is 0, each with probability 1/I in ns.
			r := f.staggered(interval).report(t, 1, spread.Ticker(interval).Next, spread.Ticker(interval), false)
			return math.Pow(1/float64(interval), float64(f.loops)) + certain(failsAll(r, spread.CheckPace))
		},
		func(t *testing.T, f fleet) float64 { // a sleep after 100 ms of work, staggered
			r := f.staggered(interval).report(t, 1, SleepAfterWorkSchedule(interval+100*time.Millisecond), spread.Ticker(interval), true)
			return certain(failsAll(r, spread.CheckGaps))
		},
	}},
}

// escape returns the bound on the probability that any of the wrong ways passes at f.
func (s sizedFleet) escape(t *testing.T, f fleet) float64 {
	p := 0.0
	for _, w := range s.wrong {
		p += w(t, f)
	}
	return p
}

// Each claims' fleet is large enough for its wrong ways, and one copy fewer is not: the smallest.
// The long run checks every smaller fleet, not only the next.
func TestFleetSizesAreTheSmallest(t *testing.T) {
	for _, s := range sizedFleets {
		t.Run(s.name, func(t *testing.T) {
			f := *s.fleet
			if p := s.escape(t, f); p > escapeLimit {
				t.Errorf("%d copies: the wrong ways pass with probability up to %.3g, over %g", f.loops, p, escapeLimit)
			}
			smaller := []int{f.loops - 1}
			if longtest.Enabled() {
				smaller = smaller[:0]
				for n := 1; n < f.loops; n++ {
					smaller = append(smaller, n)
				}
			}
			for _, n := range smaller {
				g := f
				g.loops = n
				if p := s.escape(t, g); p <= escapeLimit {
					t.Errorf("%d copies: the wrong ways pass with probability up to %.3g, within %g: %d copies are more than needed", n, p, escapeLimit, f.loops)
				}
			}
		})
	}
}

// The bound can fail: a fleet one tenth the size lets a packed fleet through far too often, and
// the certain failures are not certain at two copies.
func TestFleetSizeBoundsCanFail(t *testing.T) {
	for _, s := range sizedFleets {
		f := *s.fleet
		f.loops = max(f.loops/10, 2)
		if p := s.escape(t, f); p <= escapeLimit {
			t.Errorf("%s: %d copies: the wrong ways pass with probability up to %.3g, within %g", s.name, f.loops, p, escapeLimit)
		}
	}
}

// certain returns the probability that a wrong way whose failure does not depend on the draws
// passes: 0 if it failed, 1 if not.
func certain(failed bool) float64 {
	if failed {
		return 0
	}
	return 1
}

// failsAll reports whether every one of the checks fails in r.
func failsAll(r spread.Report, checks ...spread.TimeCheck) bool {
	failed := failedChecks(r)
	for _, c := range checks {
		if !slices.Contains(failed, c) {
			return false
		}
	}
	return true
}

// diagnosed reports whether r's diagnosis starts with suspect and its text holds say.
func diagnosed(r spread.Report, suspect spread.Suspect, say string) bool {
	d := r.Diagnosis()
	return len(d) > 0 && d[0] == suspect && strings.Contains(r.String(), say)
}

// packedEscape bounds the probability that a fleet of f packed into [0, w) of each interval passes
// the load check, the phases check, or (if diagnose) the diagnosis "packed within x%": see the
// comment at the top. independent is the number of intervals with draws of their own.
func packedEscape(t *testing.T, f fleet, s func(*rand.Rand) func(time.Duration) time.Duration, want spread.Schedule, w time.Duration, independent int, diagnose bool) float64 {
	t.Helper()
	r := f.report(t, 1, s, want, true)
	load, phases := result(t, r, "load"), result(t, r, "phases")
	if load.Skipped != nil || phases.Skipped != nil {
		return 1 // too few copies to size the checks
	}
	p := 0.0
	if phases.Limit > 1-float64(w)/float64(interval) {
		p = 1
	}
	m := int(load.Limit)
	const buckets = 32
	bucket := interval / buckets
	passLoad := 1.0
	for lo := time.Duration(0); lo < w; lo += bucket {
		pb := float64(min(lo+bucket, w)-lo) / float64(w)
		passLoad *= binomialCDF(f.loops, pb, m-1)
	}
	p += math.Pow(passLoad, float64(independent))
	if diagnose {
		first := float64(min(bucket, w)) / float64(w)
		last := float64(w-(w-1)/bucket*bucket) / float64(w)
		p += float64(independent) * (math.Pow(1-first, float64(f.loops)) + math.Pow(1-last, float64(f.loops)))
	}
	return p
}

// binomialCDF returns P(Binomial(n, p) <= k).
func binomialCDF(n int, p float64, k int) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	}
	return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)
}
