package resultsfile

import (
	"fmt"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// Phase says why a run was made.
type Phase string

// The phases of a session: the main pass, reruns of the tests that failed it, and replays that
// check whether a failing run's seed reproduces its failure.
const (
	Main   Phase = "main"
	Rerun  Phase = "rerun"
	Replay Phase = "replay"
)

// Record is the result of one test process: Count runs of the package's tests, made in turn
// (-test.count), numbered Run, Run+Stride, ...
type Record struct {
	testbin.Package
	Run    int `json:"run"`              // the number of the process's first run
	Count  int `json:"count,omitempty"`  // the runs the process was to make; 0 means 1
	Stride int `json:"stride,omitempty"` // the step between their numbers (a shard's count); 0 means 1
	// Seed is the process's SPREADCHECK_SEED: iteration i of a test in it was given
	// replay.IterationSeed(Seed, i), which the TestResult holds.
	Seed   uint64 `json:"seed,string"`
	Phase  Phase  `json:"phase"`            // main, rerun or replay
	Filter string `json:"filter,omitempty"` // the -test.run pattern, if the process had one
	CPU    string `json:"cpu,omitempty"`    // its -test.cpu, when -cpu was given
	// Env holds the job's own environment variables ("KEY=value"), which its replays set.
	Env    []string `json:"env,omitempty"`
	Exit   int      `json:"exit"`             // the exit status; -1 when a signal ended the process
	Killed bool     `json:"killed,omitempty"` // the runner's watchdog stopped the process
	// Interrupted says that the session stopped the process: the tests that had ended are
	// here, the ones that were running are not.
	Interrupted bool `json:"interrupted,omitempty"`
	// Cut counts the top-level tests that a crash or hang in the process cut short or kept
	// from starting in the run it was making; Restarted says that they and the process's
	// remaining runs were made again in new processes.
	Cut       int     `json:"cut,omitempty"`
	Restarted bool    `json:"restarted,omitempty"` // see Cut
	Error     string  `json:"run_error,omitempty"` // why the process could not be started
	Shuffle   string  `json:"shuffle,omitempty"`   // the -test.shuffle seed the binary printed
	Seconds   float64 `json:"seconds"`             // the process's wall time
	// CPUSeconds is the process's user and system CPU time. It is not written to results
	// files: it measures this machine's run of the process, for the caller's scheduling
	// (spreadcheck audit's processes at once), not the tests.
	CPUSeconds float64              `json:"-"`
	Tests      []testout.TestResult `json:"tests,omitempty"` // one per test and run that ended; "(package)" once
	Log        string               `json:"log,omitempty"`   // the file holding the process's whole output
}

// Failed reports whether any test failed, crashed or hung in the process.
func (r *Record) Failed() bool {
	for _, t := range r.Tests {
		if t.Outcome.Failed() {
			return true
		}
	}
	return false
}

// Runs is how many runs the process was to make: Count, at least 1.
func (r *Record) Runs() int { return max(r.Count, 1) }

// Step is the step between the numbers of its runs: Stride, at least 1.
func (r *Record) Step() int { return max(r.Stride, 1) }

// FillRuns gives each result its run number and, for a test that recorded no seed, the seed
// of its iteration.
func (r *Record) FillRuns() {
	for i := range r.Tests {
		t := &r.Tests[i]
		t.Run = r.Run + t.Iter*r.Step()
		if !t.Seeded {
			t.Seed = replay.IterationSeed(r.Seed, t.Iter)
		}
	}
}

// ReplayCommand returns the shell command that replays test t's run in record r, in the run's
// conditions: the directory, the seed and run number it had in its environment, the build and
// test flags it had, and the test alone:
//
//	SPREADCHECK_SEED=<seed> SPREADCHECK_RUN=<n> go test -run '^TestName$' -count=1 ./pkg
func ReplayCommand(r *Record, t *testout.TestResult) string {
	c := replay.Command{
		Dir:     r.CdDir,
		Env:     append([]string{fmt.Sprintf("%s=%d", replay.SeedEnv, t.Seed), fmt.Sprintf("%s=%d", replay.RunEnv, r.Run)}, r.Env...),
		Flags:   replayFlags(r),
		Test:    t.Name,
		Package: r.Target,
		Args:    r.Args,
	}
	if t.Name == testout.PackageTest {
		c.Test = ""
	}
	if c.Package == "" {
		c.Package = r.ImportPath
	}
	return c.String()
}

// replayFlags returns the go test flags of a record's run, with -shuffle=on made the seed the
// binary chose, and its -cpu value.
func replayFlags(r *Record) []string {
	var flags []string
	for _, f := range r.Flags {
		if strings.HasPrefix(f, "-shuffle=") && r.Shuffle != "" {
			f = "-shuffle=" + r.Shuffle
		}
		flags = append(flags, f)
	}
	if r.CPU != "" {
		flags = append(flags, "-cpu="+r.CPU)
	}
	return flags
}
