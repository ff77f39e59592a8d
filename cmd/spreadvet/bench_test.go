package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkVetGonum runs go vet -vettool=spreadvet over all of gonum v0.17.0 (about 310,000
// lines with its tests, 90 packages), copied from the module cache (gonum is a dependency of
// this module). Each iteration builds the tool with a new -X flag, untimed, so that go vet
// cannot reuse cached results and analyzes every package again; compiled dependencies stay
// cached after the first run, as they are in an editor or CI that has built the code. ns/op
// is the wall time of one whole run; the first of a -count series also compiles.
//
//	go test ./cmd/spreadvet -run XXX -bench VetGonum -benchtime 1x -count 3
func BenchmarkVetGonum(b *testing.B) {
	dir := copyModule(b, "gonum.org/v1/gonum@v0.17.0")
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		bin := filepath.Join(b.TempDir(), "spreadvet")
		if out, err := exec.Command("go", "build", "-ldflags", fmt.Sprintf("-X main.benchBuild=%d", i), "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		b.StartTimer()
		cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
		cmd.Dir = dir
		// -trimpath keeps the temporary folder out of the build cache's keys, so that
		// runs after the first reuse the compiled packages.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil && len(out) == 0 {
			b.Fatalf("go vet: %v", err)
		}
	}
}

// copyModule copies module m from the module cache into a writable temporary folder.
func copyModule(b testing.TB, m string) string {
	b.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", m).Output()
	if err != nil {
		b.Fatalf("go mod download %s: %v", m, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "mod")
	for _, args := range [][]string{{"cp", "-r", info.Dir, dir}, {"chmod", "-R", "u+w", dir}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return dir
}
