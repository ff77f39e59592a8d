package spread

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Check runs the default battery of checks (bounds, distinct, mean, coverage, fit,
// independence) on xs against the declared distribution, and fails t with one report that
// explains every failing check: the observed statistic, its limit, the false-failure rate and
// how the limit was derived, how far outside it the statistic is, the kind of broken randomness
// it suggests, a histogram of the sample, and the seed and command that replay the test.
//
// By construction Check fails a correct implementation with probability at most the
// false-failure rate (default 1e-9 for the whole call; see FalseFailureRate), so a test built on
// it does not flake. Input it cannot judge (see Analyze) fails t with the reason.
//
// Check records the call's false-failure rate and each statistic with t.Attr, so that
// go test -json and the spreadcheck command carry them.
func Check[T Number](t testing.TB, xs []T, want Dist, opts ...Option) {
	t.Helper()
	r, err := Analyze(xs, want, opts...)
	record(t, r, err)
	switch {
	case err != nil:
		t.Errorf("%v%s", err, replayText(t))
	case r.Failed():
		t.Errorf("%s%s", r, replayText(t))
	}
}

// record stores the call's rate and statistics as test attributes.
func record(t testing.TB, r Report, err error) {
	if err != nil || r.FalseFailureRate == 0 {
		return
	}
	t.Attr("spreadcheck.alpha", fmt.Sprintf("%g", r.FalseFailureRate))
	for _, res := range r.Results {
		if res.Skipped != "" {
			continue
		}
		v, _ := json.Marshal(attrValue{res.Statistic, res.Limit, res.Alpha, res.N, res.Failed})
		t.Attr("spreadcheck.check."+strings.ReplaceAll(res.Name, "/", "."), string(v))
	}
}

type attrValue struct {
	Statistic float64 `json:"statistic"`
	Limit     float64 `json:"limit"`
	Alpha     float64 `json:"alpha"`
	N         int     `json:"n"`
	Failed    bool    `json:"failed"`
}

// replayText tells how to replay the failing test, or why it cannot be replayed.
func replayText(t testing.TB) string {
	rec, ok := seedOf(t)
	if !ok {
		return "\n  the sample was not drawn from spread.Rand(t): seed its randomness from spread.Rand so that a failure can be replayed"
	}
	rec.reported.Store(true)
	return fmt.Sprintf("\n  seed %d; replay with:\n    %s", rec.seed, rec.replay)
}
