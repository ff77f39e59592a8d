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
//
// It exits 0 when nothing is found, 3 when something is (standalone), and prints each
// finding in vet's format, file:line:col: message.
package main

import (
	"log"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// singlechecker.Main runs the analyzer standalone on package patterns, and hands over to
// unitchecker when go vet invokes it with a single .cfg file (and answers vet's -V=full and
// -flags queries), so one binary serves both.
func main() {
	if benchBuild != "" {
		log.Printf("benchmark build %s", benchBuild)
	}
	singlechecker.Main(spreadvet.Analyzer)
}

// benchBuild is set only by BenchmarkVetGonum (-X main.benchBuild=N) to make each build a
// distinct binary: go vet caches results by the tool's identity, and the benchmark must
// analyze every package again.
var benchBuild string
