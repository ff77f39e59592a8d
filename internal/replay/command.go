package replay

import (
	"runtime/debug"
	"strings"
)

// Command is a go test command line that replays one run: the directory it starts in, the
// environment the run had, the build and test flags it was built and run with, the one test it
// selects and the package. String prints it for a POSIX shell, every word quoted where it needs
// to be, so that a test named "x';id;'" prints a command that runs no id.
//
// Package spread and the spreadcheck runner both print their replay commands with it, so the
// two never disagree on how a run is replayed.
type Command struct {
	// Dir is the directory to run the command from; "" is wherever the user is.
	Dir string
	// Env holds "KEY=VALUE" assignments for the command, in order (the seed first).
	Env []string
	// Flags are go test's build and test flags as the run had them, e.g. "-vet=off", "-race",
	// "-tags=integration", "-short", "-cpu=2". -run and -count are added by String.
	Flags []string
	// Test is the full name of the test to select, subtests included ("TestX/case_1"); ""
	// selects every test of the package.
	Test string
	// Package is the package to test: an import path or a relative directory; "" is ".".
	Package string
	// Args are passed to the test binary after -args.
	Args []string
}

// String returns the command for a POSIX shell, e.g.
//
//	SPREADCHECK_SEED=42 go test -run '^TestBackoff$' -count=1 example.com/retry
func (c Command) String() string {
	var words []string
	if c.Dir != "" {
		words = append(words, "cd", Quote(c.Dir), "&&")
	}
	for _, kv := range c.Env {
		key, value, _ := strings.Cut(kv, "=")
		words = append(words, key+"="+Quote(value))
	}
	words = append(words, "go", "test")
	for _, f := range c.Flags {
		words = append(words, Quote(f))
	}
	if c.Test != "" {
		words = append(words, "-run", Quote(RunPattern(c.Test)))
	}
	pkg := c.Package
	if pkg == "" {
		pkg = "."
	}
	words = append(words, "-count=1", Quote(pkg))
	if len(c.Args) > 0 {
		words = append(words, "-args")
		for _, a := range c.Args {
			words = append(words, Quote(a))
		}
	}
	return strings.Join(words, " ")
}

// Quote quotes s as one word for a POSIX shell, leaving plainly safe words as they are.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestPackage returns the import path of the package whose test binary is running, from the
// binary's build information ("example.com/retry" for example.com/retry.test), or "" when the
// binary does not say (it was not built by go test).
func TestPackage() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	pkg, ok := strings.CutSuffix(bi.Path, ".test")
	if !ok {
		return ""
	}
	return pkg
}

// IterationSeed returns the seed of iteration i (from 0) of a test in a process whose seed is
// base: a process that runs each test several times (go test -count) gives every iteration a
// seed of its own. Iteration 0 draws from base itself, so the command that replays iteration i
// alone sets the seed to IterationSeed(base, i) and runs the test once.
func IterationSeed(base uint64, i int) uint64 {
	if i <= 0 {
		return base
	}
	return mix(base + uint64(i)*0x9e3779b97f4a7c15)
}

// mix is the SplitMix64 finaliser: it turns neighbouring inputs into unrelated outputs.
func mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
