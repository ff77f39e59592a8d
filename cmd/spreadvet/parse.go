package main

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// goroot is where the standard library's sources are (the analyzer skips the same files).
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// parseFile parses a file for the loader: in full, or, for a file of the standard library,
// with every function body replaced by a panic, so that only its declarations are
// type-checked. Imports that only the bodies used are renamed _, which keeps the package
// free of type errors; a file whose imports cannot all be named so safely (a dot import, an
// import whose name is not the last element of its path) is kept whole.
func parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if !strings.HasPrefix(filename, goroot) {
		return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
	}
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return f, err
	}
	before := qualifiers(f)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			fd.Body = panicBody(fd.Body)
		}
	}
	if !dropUnusedImports(f, before, qualifiers(f)) {
		return parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	}
	return f, nil
}

// panicBody returns a body that type-checks in any function: { panic(0) } ends without a
// return, declares nothing and uses no import.
func panicBody(b *ast.BlockStmt) *ast.BlockStmt {
	call := &ast.CallExpr{Fun: ast.NewIdent("panic"), Args: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: "0"}}}
	return &ast.BlockStmt{Lbrace: b.Lbrace, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: b.Rbrace}
}

// qualifiers returns the identifiers used as X in X.Sel: package names among them.
func qualifiers(f *ast.File) map[string]bool {
	q := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				q[id.Name] = true
			}
		}
		return true
	})
	return q
}

// dropUnusedImports renames _ each import that the file used (its name among before) but
// no longer uses (not among after). It reports false when an import's name is unknown: a dot
// import, or a name the file never used as a qualifier (so not its last path element).
func dropUnusedImports(f *ast.File, before, after map[string]bool) bool {
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		name := importedName(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch {
		case err != nil || name == ".":
			return false
		case name == "_" || p == "C" || after[name]:
		case !before[name]:
			return false
		default:
			imp.Name = ast.NewIdent("_")
		}
	}
	return true
}

// versionElem matches the last element of a versioned path: math/rand/v2 is package rand.
var versionElem = regexp.MustCompile(`^v[0-9]`)

// importedName returns the name a package is imported under by default, as the standard
// library names its packages: the last element of its path that is not a version.
func importedName(p string) string {
	base := path.Base(p)
	if dir := path.Dir(p); versionElem.MatchString(base) && dir != "." {
		return path.Base(dir)
	}
	return base
}
