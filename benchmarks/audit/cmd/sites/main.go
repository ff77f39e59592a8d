// Command sites lists the sites that spreadcheck audit finds in the packages of a module,
// one a line, tab-separated: the file relative to the module's root, the line, the draw's
// source text (on one line), its kind and the enclosing function. Nothing is built or run.
// reach.sh compares the list with the sites found by hand (reach/labels.tsv).
//
//	go run ./cmd/sites DIR [packages]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/audit"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run prints the sites, or an error with exit status 2 and no list.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprintln(stderr, "usage: sites DIR [packages]")
		return 2
	}
	sites, err := audit.Find(context.Background(), audit.Config{Dir: args[0], Patterns: args[1:]})
	if err != nil {
		fmt.Fprintln(stderr, "sites:", err)
		return 2
	}
	for _, s := range sites {
		fmt.Fprintf(stdout, "%s\t%d\t%s\t%s\t%s\n", s.File, s.Line, oneLine(s.Expr), s.Draw.Kind, s.Func)
	}
	return 0
}

// oneLine joins a draw that spans lines into one, its runs of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
