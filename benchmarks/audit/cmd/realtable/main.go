// Command realtable prints one Markdown table of what the audits of several modules found:
// per site, the verdict of each class, and the spread line that would kill the survivors.
// real.sh writes its output to real/table.md, which the docs show.
//
//	go run ./cmd/realtable real/*.json
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/audit"
	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

func main() {
	fmt.Println("| module | site | draw | constant | sign-flip | clock-derived | collapsed-range |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var fixes []string
	for _, path := range os.Args[1:] {
		r, err := audit.ReadJSON(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, s := range r.Sites {
			cells := map[string]string{}
			for _, m := range s.Mutants {
				cells[m.Class] = cell(m)
			}
			fmt.Printf("| `%s` | `%s:%d` | `%s` |", r.Module, s.File, s.Line, strings.ReplaceAll(s.Expr, "|", `\|`))
			for _, c := range rewrite.Classes() {
				v := cells[string(c)]
				if v == "" {
					v = "-"
				}
				fmt.Printf(" %s |", v)
			}
			fmt.Println()
			if s.Suggest != "" {
				fixes = append(fixes, fmt.Sprintf("- `%s` %s, in `%s`:\n  `%s`", r.Module, s.File, s.Func, s.Suggest))
			}
		}
	}
	if len(fixes) > 0 {
		fmt.Print("\nThe line each survivor asks for:\n\n")
		fmt.Println(strings.Join(fixes, "\n"))
	}
}

// cell is a mutant's verdict as the table shows it, with the test that killed it.
func cell(m audit.MutantReport) string {
	switch m.Verdict {
	case audit.Killed:
		s := "killed by " + m.Test
		if m.Timeout {
			s += " (hang)"
		}
		return s
	case audit.Survived:
		return "**survived**"
	}
	return string(m.Verdict)
}
