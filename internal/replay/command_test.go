package replay

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// shellRun runs a printed command in sh with a stand-in for go that prints, one per line, the
// directory it runs in, the value of SPREADCHECK_SEED and its arguments: what the shell would
// hand the real go command.
func shellRun(t interface{ Fatalf(string, ...any) }, cmd string) []string {
	script := `go() { pwd; printf '%s\n' "$SPREADCHECK_SEED"; for a in "$@"; do printf '%s\n' "$a"; done; }` + "\n" + cmd
	out, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", cmd, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

func TestCommandSurvivesTheShell(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no POSIX shell")
	}
	dir := filepath.Join(t.TempDir(), "it's a dir; with $HOME and `id`")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := Command{
		Dir:     dir,
		Env:     []string{SeedEnv + "=42"},
		Flags:   []string{"-vet=off", "-tags=a b"},
		Test:    "TestX/x';id>PWNED;'",
		Package: "./pkg",
		Args:    []string{"-flag", "$(id)"},
	}
	got := shellRun(t, c.String())
	want := []string{dir, "42", "test", "-vet=off", "-tags=a b", "-run", RunPattern(c.Test), "-count=1", "./pkg", "-args", "-flag", "$(id)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the shell ran %q with other words (-want +got):\n%s", c, diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Errorf("the test name ran a command")
	}
}

// TestCommandQuotingProperty: any directory, seed text, flag, test name and package reach go
// as the same words.
func TestCommandQuotingProperty(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no POSIX shell")
	}
	word := rapid.StringMatching(`[^\x00\n]{1,12}`)
	rapid.Check(t, func(rt *rapid.T) {
		c := Command{
			Env:     []string{SeedEnv + "=" + word.Draw(rt, "seed")},
			Flags:   []string{word.Draw(rt, "flag")},
			Test:    strings.ReplaceAll(word.Draw(rt, "test"), "/", "_"),
			Package: word.Draw(rt, "pkg"),
		}
		got := shellRun(rt, c.String())
		want := []string{got[0], strings.SplitN(c.Env[0], "=", 2)[1], "test", c.Flags[0], "-run", RunPattern(c.Test), "-count=1", c.Package}
		if diff := cmp.Diff(want, got); diff != "" {
			rt.Fatalf("%q reached go as other words (-want +got):\n%s", c, diff)
		}
	})
}

func TestCommandDefaults(t *testing.T) {
	got := Command{Env: []string{SeedEnv + "=7"}}.String()
	if want := "SPREADCHECK_SEED=7 go test -count=1 ."; got != want {
		t.Errorf("Command{seed 7} = %q, want %q", got, want)
	}
}

func TestIterationSeed(t *testing.T) {
	if got := IterationSeed(99, 0); got != 99 {
		t.Errorf("IterationSeed(99, 0) = %d, want the base itself", got)
	}
	seen := map[uint64]int{}
	for base := uint64(0); base < 50; base++ {
		for i := range 50 {
			s := IterationSeed(base, i)
			if j, dup := seen[s]; dup {
				t.Fatalf("IterationSeed(%d, %d) = %d repeats an earlier seed (%d)", base, i, s, j)
			}
			seen[s] = i
		}
	}
}

func TestTestPackage(t *testing.T) {
	if got, want := TestPackage(), "github.com/spreadcheck/spreadcheck/internal/replay"; got != want {
		t.Errorf("TestPackage() = %q, want %q", got, want)
	}
}
