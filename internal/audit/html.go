package audit

import (
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// htmlPage is what the -html page shows: the score of each package, then each audited file's
// source with its sites marked, and under each site's line the verdict and evidence of each of
// its mutants and the spread line that would kill its survivors.
type htmlPage struct {
	R     *Report
	Files []htmlFile
}

type htmlFile struct {
	Name  string
	Lines []htmlLine
}

type htmlLine struct {
	N     int
	Text  string
	Mark  string // the worst verdict of the line's sites, as a CSS class; "" for a line without one
	Sites []*SiteReport
}

// WriteHTML writes the report as one self-contained page (no script, style sheet, font or
// image loaded from anywhere): each audited file's source, read from root (the module's root
// directory), with its sites marked by their worst verdict, and per site and class the verdict,
// its evidence and the spread line that would kill each survivor; a score per package.
func (r *Report) WriteHTML(w io.Writer, root string) error {
	page := htmlPage{R: r}
	byFile := map[string][]*SiteReport{}
	var names []string
	for i := range r.Sites {
		s := &r.Sites[i]
		if byFile[s.File] == nil {
			names = append(names, s.File)
		}
		byFile[s.File] = append(byFile[s.File], s)
	}
	sort.Strings(names)
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return fmt.Errorf("the source of %s: %v", name, err)
		}
		f := htmlFile{Name: name}
		for i, text := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
			l := htmlLine{N: i + 1, Text: text}
			for _, s := range byFile[name] {
				if s.Line == l.N {
					l.Sites = append(l.Sites, s)
					l.Mark = worse(l.Mark, siteMark(s))
				}
			}
			f.Lines = append(f.Lines, l)
		}
		page.Files = append(page.Files, f)
	}
	return htmlTemplate.Execute(w, page)
}

// marks orders the CSS classes of verdicts from the best to the worst.
var marks = []string{"neutral", "killed", "notcovered", "survived", "dead"}

func worse(a, b string) string {
	ia, ib := -1, -1
	for i, m := range marks {
		if m == a {
			ia = i
		}
		if m == b {
			ib = i
		}
	}
	if ib > ia {
		return b
	}
	return a
}

// siteMark is the CSS class of a site's worst verdict.
func siteMark(s *SiteReport) string {
	if s.Dead != "" {
		return "dead"
	}
	m := "neutral"
	for _, mu := range s.Mutants {
		m = worse(m, verdictMark(mu))
	}
	return m
}

func verdictMark(m MutantReport) string {
	switch {
	case m.Accepted != "":
		return "neutral"
	case m.Verdict == Survived:
		return "survived"
	case m.Verdict == NotCovered:
		return "notcovered"
	case m.Verdict == Killed:
		return "killed"
	}
	return "neutral"
}

var htmlTemplate = template.Must(template.New("audit").Funcs(template.FuncMap{
	"verdict": verdictWord, "evidence": evidence, "mark": verdictMark, "siteMark": siteMark,
	"pct": func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>spreadcheck audit: {{if .R.Module}}{{.R.Module}}{{else}}.{{end}}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1b1b1b; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table.score { border-collapse: collapse; } table.score td, table.score th { border: 1px solid #ccc; padding: .2em .6em; text-align: right; }
table.score td:first-child, table.score th:first-child { text-align: left; }
pre { margin: 0; } .src { border: 1px solid #ddd; font: 13px/1.4 ui-monospace, monospace; }
.line { display: flex; white-space: pre; } .line .n { width: 4em; color: #888; text-align: right; padding-right: 1em; user-select: none; }
.survived { background: #fdd; } .dead { background: #f99; } .notcovered { background: #fec; } .killed { background: #dfd; } .neutral { background: #eee; }
.site { margin: .2em 0 .6em 5em; padding: .4em .8em; border-left: 4px solid #999; background: #fafafa; font: 13px/1.4 system-ui, sans-serif; white-space: normal; }
.site.survived, .site.dead { border-color: #c00; } .site.notcovered { border-color: #d80; } .site.killed { border-color: #080; }
.site table td { padding: .1em .6em .1em 0; vertical-align: top; } .v { font-weight: 600; }
code.add { display: block; margin-top: .3em; padding: .3em; background: #fff; border: 1px solid #ddd; white-space: pre-wrap; }
</style>
</head>
<body>
<h1>spreadcheck audit: {{if .R.Module}}{{.R.Module}}{{else}}.{{end}}</h1>
<p>{{len .R.Sites}} sites; up to {{.R.Runs}} runs at baseline and under each mutant; seed {{.R.Seed}}; a mutant is killed when a test fails more often than at baseline (Fisher's exact test, false-kill rate {{.R.Alpha}} for the family of {{.R.Family}} comparisons).</p>
{{if .R.Change}}<p>Only the sites on lines changed {{.R.Change.Since}}: {{.R.Change.Outside}} elsewhere left out.</p>{{end}}
{{range .R.Warnings}}<p class="warning">warning: {{.}}</p>{{end}}
<table class="score">
<tr><th>package</th><th>killed</th><th>survived</th><th>not covered</th><th>equivalent</th><th>not viable</th><th>ignored</th><th>score</th></tr>
{{range .R.Packages}}<tr><td><code>{{.Package}}</code></td><td>{{.Killed}}</td><td>{{.Survived}}</td><td>{{.NotCovered}}</td><td>{{.Equivalent}}</td><td>{{.NotViable}}</td><td>{{.Ignored}}</td><td>{{pct .Score}}</td></tr>
{{end}}</table>
{{range .Files}}
<h2 id="{{.Name}}">{{.Name}}</h2>
<div class="src">{{range .Lines}}<div class="line{{if .Mark}} {{.Mark}}{{end}}" id="{{.N}}"><span class="n">{{.N}}</span><pre>{{.Text}}</pre></div>
{{range .Sites}}<div class="site {{siteMark .}}">
<div><code>{{.Expr}}</code> in <code>{{.Func}}</code></div>
{{with .Dead}}<div class="v">NEVER REACHES THE CODE: {{.}}</div>{{end}}
<table>{{range .Mutants}}<tr class="{{mark .}}"><td>{{.Class}}</td><td class="v">{{verdict .}}</td><td>{{evidence .}}</td></tr>
{{end}}</table>
{{with .Suggest}}<code class="add">add: {{.}}</code>{{end}}
</div>
{{end}}{{end}}</div>
{{end}}
</body>
</html>
`))
