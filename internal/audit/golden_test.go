package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/mutants"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata")

// fixtureConfig is the configuration every fixture is audited with: a fixed seed and batch
// size, so that the runs' seeds (and the verdicts of tests that draw from them) are the same
// every time; the batch size that timings would choose could vary.
func fixtureConfig(name string) Config {
	return Config{Dir: filepath.Join("testdata", name), Runs: DefaultRuns, Seed: 42, Parallel: 2, Batch: 5}
}

// normalized returns the report without what varies between audits of the same code: the
// time taken, and the counts under clock-derived mutants, which read the real clock (their
// verdicts stay: the fixtures' tests see a real clock every run or never).
func normalized(r *Report) *Report {
	c := *r
	c.Seconds = 0
	c.Sites = append([]SiteReport(nil), r.Sites...)
	for i := range c.Sites {
		ms := append([]MutantReport(nil), c.Sites[i].Mutants...)
		for j := range ms {
			if ms[j].Class == mutants.ClockDerived.Name {
				ms[j].Runs, ms[j].Failures, ms[j].PValue, ms[j].BaselineRuns, ms[j].BaselineFailures = 0, 0, nil, 0, 0
			}
		}
		c.Sites[i].Mutants = ms
	}
	return &c
}

// TestGolden audits each fixture module and compares the report with its golden file.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("audits fixture modules with the go command")
	}
	for _, name := range []string{"story", "gaps", "equiv"} {
		t.Run(name, func(t *testing.T) {
			rep, err := Run(context.Background(), fixtureConfig(name))
			if err != nil {
				t.Fatal(err)
			}
			got := normalized(rep)
			var text bytes.Buffer
			got.WriteText(&text)
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				var b bytes.Buffer
				got.WriteJSON(&b)
				os.WriteFile(golden, b.Bytes(), 0o644)
			}
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var want Report
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("report differs from %s (-want +got):\n%s\ngot:\n%s", golden, diff, text.String())
			}
		})
	}
}
