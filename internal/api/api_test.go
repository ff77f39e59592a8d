package api

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

const module = "github.com/spreadcheck/spreadcheck/"

// load type-checks the public packages.
func load(t *testing.T) map[string]*packages.Package {
	t.Helper()
	var paths []string
	for _, p := range Public {
		paths = append(paths, module+p)
	}
	// go test caches a passing result until a file the test opened changes: open every
	// source file of the packages, so that a change of surface reruns the test (go list,
	// which packages.Load runs, is another process, whose reads the cache does not see).
	for _, p := range Public {
		files, _ := filepath.Glob(filepath.Join("..", "..", p, "*.go"))
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: "../.."}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		byPath[strings.TrimPrefix(p.PkgPath, module)] = p
	}
	return byPath
}

// TestAPIFiles pins the exported API of each public package in api/<package>.txt: a change
// of surface is a change of that file, which review sees. go test -update rewrites them.
func TestAPIFiles(t *testing.T) {
	pkgs := load(t)
	for _, p := range Public {
		var b strings.Builder
		for _, l := range Lines(pkgs[p].Types) {
			fmt.Fprintf(&b, "pkg %s, %s\n", p, l)
		}
		golden.Check(t, filepath.Join("..", "..", "api", p+".txt"), b.String())
	}
}

// TestAPILimit fails when the public packages export more than Limit names together.
func TestAPILimit(t *testing.T) {
	pkgs := load(t)
	total := 0
	for _, p := range Public {
		n := Count(pkgs[p].Types)
		t.Logf("%s: %d exported names", p, n)
		total += n
	}
	t.Logf("total: %d (limit %d)", total, Limit)
	if total > Limit {
		t.Errorf("the public packages export %d names, more than the limit of %d", total, Limit)
	}
}
