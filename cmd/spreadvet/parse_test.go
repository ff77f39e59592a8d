package main

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

func TestImportedName(t *testing.T) {
	for path, want := range map[string]string{
		"fmt": "fmt", "math/rand/v2": "rand", "crypto/internal/entropy/v1.0.0": "entropy", "go/build/constraint": "constraint",
	} {
		if got := importedName(path); got != want {
			t.Errorf("importedName(%q) = %q, want %q", path, got, want)
		}
	}
}

// stdSrc uses fmt and strings in bodies only, io in a signature, and math/rand/v2 (package
// rand) in a body.
const stdSrc = `package x

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

func Write(w io.Writer, s string) (int, error) {
	return fmt.Fprint(w, strings.ToUpper(s), rand.N(3))
}

func init() { fmt.Println() }
`

// parsed parses src as a file of the standard library (or not) and returns its function
// bodies' statements and its imports as written.
func parsed(t *testing.T, std bool, src string) (bodies []string, imports []string) {
	t.Helper()
	name := filepath.Join(goroot, "x", "x.go")
	if !std {
		name = filepath.Join(t.TempDir(), "x.go")
	}
	f, err := parseFile(token.NewFileSet(), name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			bodies = append(bodies, stmtNames(fd.Body.List))
		}
	}
	for _, imp := range f.Imports {
		s := imp.Path.Value
		if imp.Name != nil {
			s = imp.Name.Name + " " + s
		}
		imports = append(imports, s)
	}
	return bodies, imports
}

// stmtNames names the statements of a body: "return", or the function an expression
// statement calls.
func stmtNames(list []ast.Stmt) string {
	var out []string
	for _, s := range list {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			out = append(out, "return")
		case *ast.ExprStmt:
			out = append(out, types.ExprString(s.X.(*ast.CallExpr).Fun))
		default:
			out = append(out, "?")
		}
	}
	return strings.Join(out, ";")
}

// TestParseFile: a file of the standard library keeps its declarations, each body becomes
// panic(0), and the imports only bodies used are renamed _; other files, and standard files
// whose imports cannot all be named, are parsed whole.
func TestParseFile(t *testing.T) {
	check := func(name string, std bool, src, wantBodies, wantImports string) {
		t.Helper()
		bodies, imports := parsed(t, std, src)
		if got := strings.Join(bodies, " "); got != wantBodies {
			t.Errorf("%s: bodies %q, want %q", name, got, wantBodies)
		}
		if got := strings.Join(imports, " "); got != wantImports {
			t.Errorf("%s: imports %q, want %q", name, got, wantImports)
		}
	}
	check("standard", true, stdSrc, "panic panic", `_ "fmt" "io" _ "math/rand/v2" _ "strings"`)
	check("not standard", false, stdSrc, "return fmt.Println", `"fmt" "io" "math/rand/v2" "strings"`)
	check("dot import", true, strings.Replace(stdSrc, `"strings"`, `. "strings"`, 1), "return fmt.Println", `"fmt" "io" "math/rand/v2" . "strings"`)
	check("misnamed import", true, strings.Replace(stdSrc, `rand.N(3)`, `mrand.N(3)`, 1), "return fmt.Println", `"fmt" "io" "math/rand/v2" "strings"`)
}

// TestStandardLibraryLoads loads every package of the standard library with parseFile: none
// may have a type error, or the analysis of every package that imports it would fail.
func TestStandardLibraryLoads(t *testing.T) {
	longtest.Skip(t)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, ParseFile: parseFile}
	pkgs, err := packages.Load(cfg, "std")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		n++
		for _, err := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, err)
		}
	})
	if n < 200 {
		t.Errorf("%d packages loaded; want all of std", n)
	}
}
