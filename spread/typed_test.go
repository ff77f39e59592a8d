package spread_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// declarations pairs samples with declarations; the lines that end in "// mismatch" must not
// compile, every other line must.
const declarations = `package p

import (
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/spread"
)

func checks(t *testing.T, waits []time.Duration, fs []float64, f32s []float32, ns []int, big []int64) {
	const base = 2 * time.Second
	spread.Check(t, waits, spread.Uniform(0, base))
	spread.Check(t, waits, spread.Uniform(0, time.Second))
	spread.Check(t, waits, spread.UniformClosed(5*time.Millisecond, 16*time.Millisecond))
	spread.Check(t, fs, spread.Uniform(0.0, 1.0))
	spread.Check(t, ns, spread.Uniform(0, 10))
	spread.Check(t, big, spread.Uniform[int64](0, 1000))
	spread.Check(t, f32s, spread.Uniform[float32](0, 1))
	spread.Check(t, fs, spread.Continuous(distuv.Normal{Mu: 1, Sigma: 0.1}))
	spread.Check(t, ns, spread.Discrete[int](distuv.Poisson{Lambda: 4}))
	spread.Check(t, waits, spread.Like(func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) }))

	spread.Check(t, fs, spread.Uniform(0, 1))                               // mismatch
	spread.Check(t, ns, spread.Uniform(0.0, 1.0))                           // mismatch
	spread.Check(t, waits, spread.Uniform(0, 16))                           // mismatch
	spread.Check(t, waits, spread.Uniform[int64](0, 16))                    // mismatch
	spread.Check(t, big, spread.Uniform(0, 1000))                           // mismatch
	spread.Check(t, f32s, spread.Uniform(0.0, 1.0))                         // mismatch
	spread.Check(t, f32s, spread.Continuous(distuv.Normal{Mu: 1, Sigma: 1})) // mismatch
	spread.Check(t, fs, spread.Like(func(r *rand.Rand) int { return r.IntN(3) })) // mismatch
}
`

// options passes each kind of option to each kind of check; the lines that end in
// "// mismatch" must not compile: a time check's option to a sample's check and the reverse
// (both were accepted, and the first ignored or refused at run time), a sample's check to
// Only, a grid of another type than the sample's (Step(time.Millisecond) on floats).
const options = `package p

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

func options(t *testing.T, waits []time.Duration, fs []float64, ns []int, events []time.Duration, fleet [][]time.Duration) {
	s := spread.Ticker(time.Second)
	spread.Check(t, fs, spread.Uniform(0.0, 1.0), spread.FalseFailureRate(1e-6), spread.Only(spread.CheckMean))
	spread.Check(t, waits, spread.Uniform(0, time.Second).Step(time.Millisecond))
	spread.Check(t, fs, spread.Uniform(0.0, 1.0).Step(0.001))
	spread.Check(t, ns, spread.UniformClosed(0, 100).Step(5))
	spread.CheckLoop(t, events, s, time.Minute, spread.FalseFailureRate(1e-6))
	spread.CheckFleet(t, fleet, s, time.Minute, spread.WarmUp(2), spread.Buckets(16), spread.LoopStarts(nil), spread.FalseFailureRate(1e-6))
	_, _ = spread.NewFleetStream(10, s, time.Minute, spread.WarmUp(2))

	spread.Check(t, fs, spread.Uniform(0.0, 1.0).Step(time.Millisecond))        // mismatch
	spread.Check(t, ns, spread.Uniform(0, 10).Step(0.5))                         // mismatch
	spread.Check(t, fs, spread.Uniform(0.0, 1.0), spread.Only(spread.CheckGaps)) // mismatch
	spread.Check(t, fs, spread.Uniform(0.0, 1.0), spread.WarmUp(2))              // mismatch
	spread.Check(t, fs, spread.Uniform(0.0, 1.0), spread.Buckets(16))            // mismatch
	_, _ = spread.Analyze(fs, spread.Uniform(0.0, 1.0), spread.LoopStarts(nil))  // mismatch
	spread.CheckLoop(t, events, s, time.Minute, spread.Only(spread.CheckMean))   // mismatch
	spread.CheckFleet(t, fleet, s, time.Minute, spread.Only(spread.CheckLoad))   // mismatch
}
`

// TestDeclarationsAreTyped type-checks calls of Check: a declaration of the sample's type
// compiles, one of another type does not, whichever way they differ. Go infers a declaration's
// type from its own arguments: untyped constants alone make an int or a float64.
func TestDeclarationsAreTyped(t *testing.T) {
	t.Parallel()
	typecheck(t, declarations)
}

// TestOptionsAreTyped type-checks calls with options: each check takes its own kind.
func TestOptionsAreTyped(t *testing.T) {
	t.Parallel()
	typecheck(t, options)
}

// typecheck checks that the lines of src that end in "// mismatch" do not compile, with a
// type error, and that every other line does.
func typecheck(t *testing.T, src string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	bad := map[int]string{}
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "source", nil),
		Error:    func(err error) { e := err.(types.Error); bad[fset.Position(e.Pos).Line] = e.Msg },
	}
	_, _ = conf.Check("p", fset, []*ast.File{f}, nil)
	for i, line := range strings.Split(src, "\n") {
		msg, failed := bad[i+1]
		switch mismatch := strings.HasSuffix(line, "// mismatch"); {
		case mismatch && !failed:
			t.Errorf("line %d compiles: %s", i+1, strings.TrimSpace(line))
		case mismatch && !strings.Contains(msg, "does not match") && !strings.Contains(msg, "cannot use"):
			t.Errorf("line %d: %s", i+1, msg)
		case !mismatch && failed:
			t.Errorf("line %d does not compile: %s\n%s", i+1, strings.TrimSpace(line), msg)
		}
	}
}

// results reads a Result as a user does; the lines that end in "// mismatch" must not
// compile: the name, the method and the skip reason were strings (Name beside Check, a
// method that did not say whether it was exact, a reason that could not carry the sample
// size a check needs), and a statistic's name could be a check's.
const results = `package p

import (
	"errors"

	"github.com/spreadcheck/spreadcheck/sizing"
	"github.com/spreadcheck/spreadcheck/spread"
)

func results(r spread.Result, name string) {
	var n string = r.Name()
	var exact bool = r.Method.Exact
	var formula string = r.Method.Formula
	var skipped error = r.Skipped
	var small *sizing.TooSmallError
	_ = errors.As(r.Skipped, &small)
	r.Statistic = "max"
	var v float64 = r.Value
	var observed, want, distance string = r.Observed, r.Want, r.Distance
	_, _, _, _, _, _, _, _ = n, exact, formula, skipped, v, observed, want, distance

	var name1 string = r.Name             // mismatch
	var method string = r.Method          // mismatch
	var reason string = r.Skipped         // mismatch
	r.Statistic = spread.CheckMean        // mismatch
	r.Statistic = name                    // mismatch
	var stat float64 = r.Statistic        // mismatch
	_, _, _, _ = name1, method, reason, stat
}
`

// TestResultIsTyped type-checks reads of a Result: its name, method, skip reason and
// statistic are typed, not strings.
func TestResultIsTyped(t *testing.T) {
	t.Parallel()
	typecheck(t, results)
}
