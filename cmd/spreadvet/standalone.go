package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// standalone loads the packages that args name, runs the analyzer on them and prints its
// findings (or applies their fixes), and returns the exit code: 0 when nothing is found, 3
// when something is, 1 on errors.
//
// It is singlechecker's driver with one change that makes it fast: the standard library is
// loaded without function bodies. An analyzer with facts makes the driver load every
// dependency from source, and spreadvet computes no facts on the standard library (its
// randomness is read from math/rand's signatures), so the bodies there cost time and change
// nothing.
func standalone(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("spreadvet", flag.ContinueOnError)
	flags.SetOutput(stderr)
	fix := flags.Bool("fix", false, "apply the first suggested fix of each finding")
	json := flags.Bool("json", false, "print the findings as JSON")
	context := flags.Int("c", -1, "print each finding's line with this many lines of context")
	tests := flags.Bool("test", true, "analyze the packages' tests too")
	flags.Usage = func() { usage(flags) }
	if err := flags.Parse(args); err != nil {
		return 1
	}
	if flags.NArg() == 0 {
		flags.Usage()
		return 1
	}
	env, buildFlags := moveModfile(os.Environ())
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: *tests, ParseFile: parseFile, Env: env, BuildFlags: buildFlags}
	pkgs, err := packages.Load(cfg, flags.Args()...)
	if err == nil && len(pkgs) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(flags.Args(), " "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "spreadvet: %v\n", err)
		return 1
	}
	code := 0
	if packages.PrintErrors(pkgs) > 0 {
		code = 1
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{spreadvet.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "spreadvet: %v\n", err)
		return 1
	}
	switch {
	case *fix:
		return max(code, applyFixes(graph, stderr))
	case *json:
		// The exit code says what the text does: a script that reads the JSON can still
		// fail a build on its status alone.
		if err := graph.PrintJSON(stdout); err != nil {
			return 1
		}
		return max(code, exitCode(graph))
	}
	if err := graph.PrintText(stderr, *context); err != nil {
		return 1
	}
	return max(code, exitCode(graph))
}

// exitCode is 1 when an analysis failed, 3 when a root package has a finding, else 0.
func exitCode(graph *checker.Graph) int {
	code := 0
	for act := range graph.All() {
		switch {
		case act.Err != nil:
			return 1
		case act.IsRoot && len(act.Diagnostics) > 0:
			code = 3
		}
	}
	return code
}

func usage(flags *flag.FlagSet) {
	doc := strings.SplitN(spreadvet.Analyzer.Doc, "\n\n", 2)
	fmt.Fprintf(flags.Output(), "spreadvet: %s\n\nUsage: spreadvet [-flag] [package]\n\n%s\n\nFlags:\n", doc[0], doc[len(doc)-1])
	flags.PrintDefaults()
}

// moveModfile takes -modfile out of GOFLAGS in env and returns it as a build flag instead.
// go/packages asks the go command for its version with GO111MODULE=off, and under
// GOFLAGS=-modfile=... that query fails ("build flag -modfile only valid when using
// modules"); as a build flag, -modfile reaches go list and not that query. go vet is not
// affected: it hands the tool each package's configuration and runs no go command of its own.
func moveModfile(env []string) (out, buildFlags []string) {
	for _, kv := range env {
		value, ok := strings.CutPrefix(kv, "GOFLAGS=")
		if !ok {
			out = append(out, kv)
			continue
		}
		var kept []string
		for _, f := range strings.Fields(value) {
			if strings.HasPrefix(f, "-modfile=") || strings.HasPrefix(f, "--modfile=") {
				buildFlags = append(buildFlags, f)
			} else {
				kept = append(kept, f)
			}
		}
		out = append(out, "GOFLAGS="+strings.Join(kept, " "))
	}
	return out, buildFlags
}
