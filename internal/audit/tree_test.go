package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// hashTree returns the SHA-256 of every file under dir, with its mode.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[path] = info.Mode().String()
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[path] = info.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEndToEnd is the normal run's one audit of a fixture module with the go command: the
// story fixture (the bidder's backoff in four copies, each tested differently) audited to the
// end, its report compared with the golden file, every file of the audited tree byte-identical
// afterwards, no file added, the temporary folder gone.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("audits a fixture module with the go command")
	}
	dir := filepath.Join("testdata", "story")
	before := hashTree(t, dir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	rep, err := Run(context.Background(), fixtureConfig("story"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "story", rep)
	checkUntouched(t, dir, before, tmp)
}

// checkUntouched checks that the tree under dir hashes as before and that tmp is empty.
func checkUntouched(t *testing.T, dir string, before map[string]string, tmp string) {
	t.Helper()
	if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
		t.Errorf("the audited tree changed (-before +after):\n%s", diff)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

// TestNeverWritesTheTree audits a fixture interrupted after each stage, and checks that every
// file of the audited tree is byte-identical afterwards, that no file was added, and that the
// temporary folder is gone.
func TestNeverWritesTheTree(t *testing.T) {
	longtest.Skip(t) // audits a fixture module once per stage; TestEndToEnd audits it whole
	dir := filepath.Join("testdata", "story")
	before := hashTree(t, dir)
	for _, at := range []string{"find", "build", "trace", "baseline", "look 1", "look 2", "identical"} {
		t.Run("interrupted at "+at, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stageHook = func(s string) {
				if s == at {
					cancel()
				}
			}
			defer func() { stageHook = nil }()
			rep, err := Run(ctx, fixtureConfig("story"))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Interrupted || rep.ExitCode() != ExitInterrupted {
				t.Errorf("Interrupted = %v, exit code %d; want true, %d", rep.Interrupted, rep.ExitCode(), ExitInterrupted)
			}
			checkUntouched(t, dir, before, tmp)
		})
	}
}

// TestBadInput: code that does not compile is a BuildError with the compiler's message, once;
// no randomness is no error and no site; patterns that match nothing, and a folder in no
// module, are BuildErrors that say so and name them. None of these builds a test binary.
func TestBadInput(t *testing.T) {
	_, err := Run(context.Background(), fixtureConfig("broken"))
	var be *BuildError
	if !errors.As(err, &be) || be.Stage != Compile || strings.Count(be.Msg, "broken.go:8") != 1 {
		t.Errorf("broken: error %v, want a BuildError of the compile stage naming broken.go:8 once", err)
	}

	rep, err := Run(context.Background(), fixtureConfig("norand"))
	if err != nil || len(rep.Sites) != 0 || rep.ExitCode() != ExitClean {
		t.Errorf("norand: %d sites, exit %d, error %v; want none, 0, nil", len(rep.Sites), rep.ExitCode(), err)
	}

	cfg := fixtureConfig("norand")
	cfg.Patterns = []string{"./nothing/..."}
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || be.Stage != NoPackage || !strings.Contains(be.Msg, "./nothing/...") {
		t.Errorf("a pattern matching nothing: error %v, want a BuildError of no package that names it", err)
	}

	cfg.Dir, cfg.Patterns = t.TempDir(), nil
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || be.Stage != NotAModule || be.Msg != cfg.Dir {
		t.Errorf("a folder in no module: error %v, want a BuildError of not a module that names it", err)
	}
}

// TestBadTests: a test that fails every baseline run is left out with a warning while the
// rest are audited; vet's findings in the tests stop nothing with vet off (the default), and
// are a BuildError naming the test file with -vet=all.
func TestBadTests(t *testing.T) {
	longtest.Skip(t) // audits fixture modules with the go command
	rep, err := Run(context.Background(), fixtureConfig("failing"))
	if err != nil {
		t.Fatal(err)
	}
	excluded := len(rep.Baseline) == 2 && rep.Baseline[1].Test == "TestBroken" && rep.Baseline[1].Excluded
	if !excluded || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "TestBroken fails every baseline run") {
		t.Errorf("failing: baseline %+v, warnings %q; want TestBroken excluded with a warning", rep.Baseline, rep.Warnings)
	}
	if v := rep.Sites[0].Mutants[1]; v.Class != "sign-flip" || v.Verdict != Killed || v.Test != "TestBounds" {
		t.Errorf("failing: sign-flip %+v, want killed by TestBounds", v)
	}

	if _, err := Run(context.Background(), fixtureConfig("vetfail")); err != nil {
		t.Errorf("vetfail with vet off (the default): %v", err)
	}
	cfg := fixtureConfig("vetfail")
	cfg.BuildFlags = []string{"-vet=all"}
	var be *BuildError
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || !strings.Contains(be.Msg, "jitter_test.go:7") {
		t.Errorf("vetfail with -vet=all: error %v, want a BuildError naming jitter_test.go:7", err)
	}
}

// TestHangIsKill: a mutant under which a test never ends (a constant draw in a loop that
// waits for a zero) is killed by timeout and says so; the others end and survive.
func TestHangIsKill(t *testing.T) {
	longtest.Skip(t) // audits a fixture module whose mutant hangs till the timeout
	cfg := fixtureConfig("hang")
	cfg.Timeout = time.Second
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Sites[0].Mutants {
		hung := m.Class == "constant"
		if hung != (m.Verdict == Killed && m.Timeout) {
			t.Errorf("%s: %s, timeout %v; want killed by timeout only for constant", m.Class, m.Verdict, m.Timeout)
		}
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "(timeout: it hung)") {
		t.Errorf("the report does not say the kill was a hang:\n%s", text.String())
	}
}

// TestPerMutantAgrees: one build per mutant and the mutant schema give the same verdicts.
func TestPerMutantAgrees(t *testing.T) {
	longtest.Skip(t) // builds one test binary per mutant
	verdicts := func(perMutant bool) []string {
		cfg := fixtureConfig("failing")
		cfg.PerMutant = perMutant
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range rep.Sites[0].Mutants {
			out = append(out, m.Class+" "+string(m.Verdict)+" "+m.Test)
		}
		return out
	}
	schema, per := verdicts(false), verdicts(true)
	if diff := cmp.Diff(schema, per); diff != "" {
		t.Errorf("verdicts (-schema +per-mutant):\n%s", diff)
	}
	if len(per) != 4 {
		t.Errorf("%d mutants, want 4", len(per))
	}
}
