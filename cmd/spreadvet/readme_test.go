package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// TestREADMEFindings pins what the README shows of spreadvet (testdata/readme-findings.txt,
// copied in by go test ./internal/readme -update): the standalone command's findings on the
// fixture module, its paths made relative to the module and its lines sorted.
func TestREADMEFindings(t *testing.T) {
	cmd := exec.Command(buildTool(t), "./...")
	cmd.Dir = filepath.Join("testdata", "mod")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("spreadvet ./... found nothing:\n%s", out)
	}
	dir, err := filepath.Abs(cmd.Dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(out), dir+string(filepath.Separator), "")), "\n")
	slices.Sort(lines)
	golden.Check(t, filepath.Join("testdata", "readme-findings.txt"), strings.Join(lines, "\n")+"\n")
}
