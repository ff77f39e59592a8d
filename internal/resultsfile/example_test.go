package resultsfile_test

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

func ExampleReplayCommand() {
	rec := &resultsfile.Record{Package: testbin.Package{ImportPath: "example.com/retry", Target: "./retry",
		Flags: []string{"-race", "-short"}}, Run: 41}
	fmt.Println(resultsfile.ReplayCommand(rec, &testout.TestResult{Name: "TestJitter/full", Seed: 8234001}))
	// Output:
	// SPREADCHECK_SEED=8234001 SPREADCHECK_RUN=41 go test -race -short -run '^TestJitter$/^full$' -count=1 ./retry
}
