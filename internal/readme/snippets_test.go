package readme

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A Go snippet of a page compiles as one of three forms:
//
//   - a whole file (it starts with its package clause): as it is;
//   - declarations (a func, type, var or const at the start of a line): in a file of package
//     snippet, with the imports it names;
//   - statements: in the body of a function of such a file.
//
// A line just above the fence may add to it:
//
//	<!-- go: given var t *testing.T; var waits []time.Duration -->
//
// declares what the snippet takes from its context, at package level, and
//
//	<!-- go: not compiled: the reason -->
//
// leaves it out, which at most maxNotCompiled snippets may do.
const maxNotCompiled = 3

var (
	marker       = regexp.MustCompile(`^<!-- go: (given|not compiled:) *(.*?) *-->$`)
	topLevelDecl = regexp.MustCompile(`(?m)^(func|type|var|const|import)\b`)
)

// knownImports are the packages a snippet of declarations or statements may name without
// importing them: the kit's, the examples' and the standard library's that the pages use.
var knownImports = map[string]string{
	"spread":    "github.com/spreadcheck/spreadcheck/spread",
	"sizing":    "github.com/spreadcheck/spreadcheck/sizing",
	"mutants":   "github.com/spreadcheck/spreadcheck/mutants",
	"fakeclock": "github.com/spreadcheck/spreadcheck/fakeclock",
	"spreadvet": "github.com/spreadcheck/spreadcheck/spreadvet",
	"backoff":   "github.com/spreadcheck/spreadcheck/examples/backoff",
	"loops":     "github.com/spreadcheck/spreadcheck/examples/loops",
	"distuv":    "gonum.org/v1/gonum/stat/distuv",
	"rand":      "math/rand/v2",
	"atomic":    "sync/atomic",
	"context":   "context",
	"errors":    "errors",
	"fmt":       "fmt",
	"math":      "math",
	"os":        "os",
	"slices":    "slices",
	"testing":   "testing",
	"time":      "time",
}

// snippet is one ```go block of a page.
type snippet struct {
	page       string // the page's path, slash-separated, relative to the root
	line       int    // the line of the block's first line of code
	code       string
	given      string // declarations from a "given" marker
	notCompile string // the reason from a "not compiled" marker
}

// snippets returns the Go blocks of a page's text, with their markers.
func snippets(page, text string) []snippet {
	var out []snippet
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		s := snippet{page: page, line: i + 2}
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "<!-- go: "); j-- {
			m := marker.FindStringSubmatch(lines[j])
			switch {
			case m == nil:
				s.notCompile = "" // an unreadable marker: compiled, and failing
			case m[1] == "given":
				s.given = strings.ReplaceAll(m[2], "; ", "\n")
			default:
				s.notCompile = m[2]
				if s.notCompile == "" {
					s.notCompile = "-" // no reason given: reported
				}
			}
		}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
			body = append(body, lines[i])
		}
		s.code = strings.Join(body, "\n") + "\n"
		out = append(out, s)
	}
	return out
}

// source returns the snippet as a Go file. Line directives make the compiler's messages name
// the page and its line.
func (s *snippet) source() string {
	here := fmt.Sprintf("//line %s:%d\n", s.page, s.line)
	if strings.HasPrefix(strings.TrimSpace(s.code), "package ") || strings.HasPrefix(s.code, "//") && strings.Contains(s.code, "\npackage ") {
		return here + s.code
	}
	var b strings.Builder
	b.WriteString("package snippet\n\n")
	if !regexp.MustCompile(`(?m)^import\b`).MatchString(s.code) {
		for _, path := range importsOf(s.given + "\n" + s.code) {
			fmt.Fprintf(&b, "import %q\n", path)
		}
		b.WriteString(s.given + "\n")
		if topLevelDecl.MatchString(s.code) {
			return b.String() + here + s.code
		}
		return b.String() + "func _() {\n" + here + s.code + uses(s.code) + "}\n"
	}
	return b.String() + here + s.code + "\n" + s.given + "\n"
}

// importsOf returns the import paths of the known packages that src names (pkg.Name outside
// comments and strings).
func importsOf(src string) []string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	seen := map[string]bool{}
	prev, prevLit := token.ILLEGAL, ""
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.PERIOD && prev == token.IDENT && knownImports[prevLit] != "" {
			seen[knownImports[prevLit]] = true
		}
		prev, prevLit = tok, lit
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// uses returns a "_ = x" line for every variable the statements define at their top level, so
// that a fragment, which the reader goes on from, need not use all it defines.
func uses(stmts string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+stmts+"\n}", 0)
	if err != nil {
		return "" // the compiler reports it
	}
	var b strings.Builder
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		var names []*ast.Ident
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						names = append(names, id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					names = append(names, sp.(*ast.ValueSpec).Names...)
				}
			}
		}
		for _, id := range names {
			if id.Name != "_" {
				fmt.Fprintf(&b, "_ = %s\n", id.Name)
			}
		}
	}
	return b.String()
}

// compile builds every snippet, each as a package of its own under dir (a directory of the
// module that need not exist: the files reach the go command as an -overlay), and returns the
// go command's messages, or "" when all compiled.
func compile(t *testing.T, module, dir string, snips []snippet) string {
	t.Helper()
	tmp := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	for i, s := range snips {
		file := filepath.Join(tmp, fmt.Sprintf("s%03d.go", i))
		if err := os.WriteFile(file, []byte(s.source()), 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := filepath.Join(dir, fmt.Sprintf("s%03d", i))
		overlay[filepath.Join(pkg, "snippet.go")] = file
		pkgs = append(pkgs, pkg)
	}
	if len(pkgs) == 0 {
		return ""
	}
	b, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "-overlay=" + ov, "-o", os.DevNull}
	if len(pkgs) > 1 {
		args = args[:2] // several packages: go build checks them and keeps nothing
	}
	cmd := exec.Command("go", append(args, pkgs...)...)
	cmd.Dir = module
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out) + err.Error()
	}
	return ""
}

// TestSnippetsCompile compiles every Go snippet of README.md and docs/*.md, so that what a
// reader pastes builds.
func TestSnippetsCompile(t *testing.T) {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	var all []snippet
	skipped := 0
	for _, page := range pages(t) {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range snippets(page, string(text)) {
			switch s.notCompile {
			case "":
				all = append(all, s)
			case "-":
				t.Errorf("%s:%d: a snippet marked not compiled must say why", s.page, s.line)
			default:
				skipped++
			}
		}
	}
	if skipped > maxNotCompiled {
		t.Errorf("%d snippets are marked not compiled; at most %d may be: make them compile", skipped, maxNotCompiled)
	}
	if len(all) == 0 {
		t.Fatal("no Go snippets found")
	}
	if msg := compile(t, abs, filepath.Join(abs, "internal", "readme", "snippets"), all); msg != "" {
		t.Errorf("Go snippets of the pages do not compile:\n%s", msg)
	}
}

// TestSnippetCompileFailsOnBrokenCode shows the check failing: a snippet that names something
// undefined, and one that defines a variable it never uses in a function of its own, do not
// compile, and the messages name the page's line; a statement fragment may leave what it
// defines unused, and a "given" marker declares what it takes.
func TestSnippetCompileFailsOnBrokenCode(t *testing.T) {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	page := "intro\n\n<!-- go: given var t *testing.T -->\n```go\nr := spread.Rand(t)\n```\n\n" +
		"```go\na, _ := sizing.SuiteAlpha(1e-3, 20, 500) // a unused: fine in a fragment\n```\n\n" +
		"```go\nfunc TestX(t *testing.T) {\n\tx := backoff.Full(spread.Rand(t), time.Second)\n}\n```\n\n" +
		"```go\nspread.Check(t, xs, spread.Uniform(0, 1))\n```\n\n" +
		"<!-- go: not compiled: a sketch -->\n```go\nnot go at all\n```\n"
	snips := snippets("docs/x.md", page)
	if len(snips) != 5 || snips[4].notCompile != "a sketch" || snips[0].given == "" {
		t.Fatalf("snippets = %+v", snips)
	}
	dir := filepath.Join(abs, "internal", "readme", "snippets")
	if msg := compile(t, abs, dir, snips[:2]); msg != "" {
		t.Errorf("good snippets failed:\n%s", msg)
	}
	for _, s := range snips[2:4] {
		msg := compile(t, abs, dir, []snippet{s})
		if msg == "" {
			t.Errorf("snippet at line %d compiled:\n%s", s.line, s.source())
		} else if !strings.Contains(msg, fmt.Sprintf("docs/x.md:%d", s.line+1)) && !strings.Contains(msg, fmt.Sprintf("docs/x.md:%d", s.line)) {
			t.Errorf("message does not name docs/x.md near line %d:\n%s", s.line, msg)
		}
	}
}
