// Command spreadvet runs the spreadvet analyzer: blind and flaky tests of random code,
// clock-derived randomness, one-sided offsets, truncating conversions, random sleep loops and
// dead seams.
//
// Standalone, on package patterns:
//
//	spreadvet ./...
//	spreadvet -fix ./...   # apply the suggested fixes
//
// As a vet tool (go vet builds each package once and caches the facts):
//
//	go vet -vettool=$(which spreadvet) ./...
//	go vet -vettool=$(which spreadvet) -fix ./...
//
// It prints each finding in vet's format, file:line:col: message. Standalone, it exits 0 when
// nothing is found, 3 when something is, and 1 on errors, with -json (the findings as JSON)
// as without it.
package main

import (
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// main hands go vet's invocations (-V=full, -flags, a package's .cfg file) to singlechecker,
// which hands them to unitchecker; everything else is the standalone driver.
func main() {
	if fromVet(os.Args[1:]) {
		if os.Getenv("GOGC") == "" {
			// One package per process, a few tens of megabytes: the collector's default pace
			// spent a sixth of the CPU of a vet run (memberlist's package); four times the
			// heap's growth between collections halves that, for a tenth more memory.
			debug.SetGCPercent(400)
		}
		singlechecker.Main(spreadvet.Analyzer)
	}
	os.Exit(standalone(os.Args[1:], os.Stdout, os.Stderr))
}

// fromVet reports whether args are go vet's: the version and flags queries it makes of a vet
// tool, or a single package's configuration file.
func fromVet(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "-flags" || a == "--flags" || a == "--V=full" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
