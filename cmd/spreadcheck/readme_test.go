package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// readmeArgs is the session whose report the README shows, in the runner's fixture module.
var readmeArgs = []string{"-runs", "200", "-seed", "1", "-batch", "10", "./attrs", "./crashmid"}

// TestREADMEReport produces the report that the README quotes (testdata/readme-report.txt,
// copied in by go test ./internal/readme -update): a real session on the fixtures, its seeds
// fixed, with the wall time and test durations, which vary from one machine to the next, left
// out.
func TestREADMEReport(t *testing.T) {
	inFixtures(t)
	code, out, errOut := spreadcheck(t, append([]string{"-json", "-progress=false"}, readmeArgs...)...)
	if code != testreport.ExitFlaky {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var rep testreport.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	rep.Seconds = 0
	for i := range rep.Packages {
		for j := range rep.Packages[i].Tests {
			rep.Packages[i].Tests[j].Duration = testreport.Durations{}
		}
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	golden.Check(t, filepath.Join(pkgDir, "testdata", "readme-report.txt"), b.String())
}

// pkgDir is this package's directory: the tests change into the fixture module.
var pkgDir, _ = os.Getwd()
