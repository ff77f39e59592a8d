package testreport_test

import (
	"os"
	"slices"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// A session's records, summarized: TestJitter's checks were sized to fail once in 1e9 runs,
// yet it failed 3 times in 200.
func ExampleReport_WriteText() {
	pkg := testbin.Package{ImportPath: "example.com/retry", Target: "./retry"}
	var recs []resultsfile.Record
	for run := 1; run <= 200; run++ {
		jitter := testout.Pass
		if slices.Contains([]int{17, 88, 140}, run) {
			jitter = testout.Fail
		}
		seed := runner.RunSeed(1, run)
		recs = append(recs, resultsfile.Record{Package: pkg, Run: run, Seed: seed, Phase: resultsfile.Main,
			Tests: []testout.TestResult{
				{Name: "TestCap", Run: run, Seed: seed, Outcome: testout.Pass},
				{Name: "TestJitter", Run: run, Seed: seed, Outcome: jitter, Alphas: []float64{1e-9}, Seeded: true,
					Output: "    retry_test.go:41: mean: 612ms is outside [480ms, 520ms]\n"},
				{Name: testout.PackageTest, Run: run, Seed: seed, Outcome: testout.Pass},
			}})
	}
	rep := testreport.Summarize(recs, testreport.SummaryOptions{})
	rep.Seed, rep.Runs = 1, 200
	rep.WriteText(os.Stdout)
	// Output:
	// spreadcheck: 200 runs of 1 package, seed 1
	//
	// example.com/retry (200 runs in 200 processes)
	//     runs  fail  crash  hang  skip   rate    95% interval  checks allow  test
	//      200     0      0     0     0      0      [0, 1.83%]             -  TestCap
	//      200     3      0     0     0  1.50%  [0.31%, 4.32%]         1e-09  TestJitter
	//
	//   TestJitter: 3 of 200 runs failed where its checks allow 1e-09 per run: this is not chance (p = 1.3e-21); the code or the test is broken
	//     run 17 (fail): SPREADCHECK_SEED=11904322950028659555 SPREADCHECK_RUN=17 go test -run '^TestJitter$' -count=1 ./retry
	//     run 88 (fail): SPREADCHECK_SEED=2338127342049817198 SPREADCHECK_RUN=88 go test -run '^TestJitter$' -count=1 ./retry
	//     run 140 (fail): SPREADCHECK_SEED=7181649017373767154 SPREADCHECK_RUN=140 go test -run '^TestJitter$' -count=1 ./retry
	//     first failure:
	//       |     retry_test.go:41: mean: 612ms is outside [480ms, 520ms]
	//
	// 200 runs see a flake of 1.49% or more at least once with 95% probability; a 0.10% flake needs 2995 runs.
	// FLAKY: 1 test fails more often than -max-flake 0 at 95% confidence: example.com/retry.TestJitter
}
