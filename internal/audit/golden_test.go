package audit

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/spread"
)

// fixtureConfig is the configuration every fixture is audited with: a fixed seed and batch
// size, so that the runs' seeds (and the verdicts of tests that draw from them) are the same
// every time; the batch size that timings would choose could vary.
func fixtureConfig(name string) Config {
	return Config{Dir: filepath.Join("testdata", name), Options: runner.Options{Runs: DefaultRuns, Seed: 42, Parallel: 2, Batch: 5}}
}

// readsTheClock stands for the verdict of a clock-derived mutant that ran, in a normalized
// report.
const readsTheClock Verdict = "killed or survived: it reads the real clock"

// normalized returns the report without what varies between audits of the same code: the
// time taken, and what clock-derived mutants that ran showed. They read the real clock, so
// that a test's failures under them depend on when it ran (TestFixed's mean of 1,000 values
// read within a millisecond lands within 5% of 0.5 in about one run of ten): their counts
// and verdicts, and what follows from them (the suggestion when no other class survived, the
// package's score), are left out.
func normalized(r *Report) *Report {
	c := *r
	c.Seconds = 0
	c.Sites = append([]SiteReport(nil), r.Sites...)
	for i := range c.Sites {
		s := &c.Sites[i]
		s.Mutants = append([]MutantReport(nil), s.Mutants...)
		for j := range s.Mutants {
			if m := &s.Mutants[j]; m.Class == string(spread.SuspectClockDerived) && (m.Verdict == Killed || m.Verdict == Survived) {
				*m = MutantReport{Class: m.Class, Verdict: readsTheClock}
			}
		}
		if !s.survivors() && s.Dead == "" {
			s.Suggest = ""
		}
	}
	c.score()
	return &c
}

// TestGolden audits the other fixture modules and compares each report with its golden
// file: gaps (randomness tests miss in five ways), equiv (a draw for each way a mutant
// is equivalent), clockseed (clock readings that reach a seed through locals), reduced (draws
// of uniform bits reduced to some of them), reader (crypto/rand's Reader read as an
// io.Reader), wrapped (draws through the module's own wrappers and the defaults of a field and
// a variable) and onlyfailing (a draw only a failing test reaches, one a flaky test does).
// TestEndToEnd does the story fixture in the normal run.
func TestGolden(t *testing.T) {
	longtest.Skip(t) // audits fixture modules with the go command
	for _, name := range []string{"gaps", "equiv", "clockseed", "reduced", "reader", "wrapped", "onlyfailing"} {
		t.Run(name, func(t *testing.T) {
			rep, err := Run(context.Background(), fixtureConfig(name))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, rep)
		})
	}
}

// TestOldGoLines audits the oldgo fixture (a draw of each kind that code before generics
// holds) under the go lines of long-lived modules: its own go 1.11, go 1.16, go 1.17, and none
// (which the go command reads as 1.16), each a copy of it whose go.mod says so. The go command
// compiles the rewrites at that version; every report is the one golden report, with no
// mutant not viable.
func TestOldGoLines(t *testing.T) {
	longtest.Skip(t) // audits a fixture module four times with the go command
	for _, line := range []string{"go 1.11", "go 1.16", "go 1.17", ""} {
		t.Run(cmp.Or(line, "no go line"), func(t *testing.T) {
			dir := copyFixture(t, "oldgo")
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/oldgo\n\n"+line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := fixtureConfig("oldgo")
			cfg.Dir = dir
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "oldgo", rep)
		})
	}
}

// copyFixture copies a fixture module into a temporary folder and returns the folder.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkGolden compares a fixture's report, normalized, with its golden file (-update
// rewrites it).
func checkGolden(t *testing.T, name string, rep *Report) {
	t.Helper()
	got := normalized(rep)
	var text bytes.Buffer
	got.WriteText(&text)
	path := filepath.Join("testdata", name+".golden.json")
	if golden.Updating() {
		var b bytes.Buffer
		got.WriteJSON(&b)
		os.WriteFile(path, b.Bytes(), 0o644)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want Report
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(&want, got); diff != "" {
		t.Errorf("report differs from %s (-want +got):\n%s\ngot:\n%s", path, diff, text.String())
	}
}
