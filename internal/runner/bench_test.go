package runner

import (
	"context"
	"os/exec"
	"sync"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// The runner's cost per run against the least any runner can do: start the binary and wait
// for it, two at a time, as x/tools/cmd/stress does. Compare the two side by side:
//
//	go test -run '^$' -bench 'PerRun' -count 10 ./internal/runner
//
// The fixture's one test reads a small file, so the process start-up dominates.

func BenchmarkPerRunExecute(b *testing.B) {
	p := fixture(&testing.T{}, "readsdata")
	opts := Options{Runs: b.N, Parallel: 2}
	b.ResetTimer()
	if _, err := Execute(context.Background(), MainJobs([]testbin.Package{p}, opts), opts); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkPerRunBareExec(b *testing.B) {
	p := fixture(&testing.T{}, "readsdata")
	jobs := make(chan int)
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 2 {
		wg.Go(func() {
			for range jobs {
				cmd := exec.Command(p.Binary)
				cmd.Dir = p.Dir
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Errorf("%v\n%s", err, out)
				}
			}
		})
	}
	for i := range b.N {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
