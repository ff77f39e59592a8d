package audit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

func TestSameCompiled(t *testing.T) {
	orig := map[string]string{"p": "a", "p [p.test]": "b", "p.test": "c", "unsafe": "", "q": "d"}
	for _, c := range []struct {
		name   string
		zeroed map[string]string
		want   bool
	}{
		{"every package the same", map[string]string{"p": "a", "p [p.test]": "b", "p.test": "c", "unsafe": ""}, true},
		{"a package compiles to other bytes", map[string]string{"p": "a", "p [p.test]": "x", "p.test": "c"}, false},
		{"a package the original lacks", map[string]string{"p": "a", "r": ""}, false},
		{"an ID where the original has none", map[string]string{"unsafe": "a"}, false},
		{"nothing compiled (the zeroed build failed)", nil, false},
	} {
		if got := sameCompiled(orig, c.zeroed); got != c.want {
			t.Errorf("%s: sameCompiled = %v, want %v", c.name, got, c.want)
		}
	}
	if sameCompiled(nil, map[string]string{"p": "a"}) {
		t.Errorf("sameCompiled with no original (its build failed) = true, want false")
	}
}

// TestCompiledImpliesIdenticalBinary checks, on the equiv fixture, what the identical-binary
// check rests on: where every package of the test binary compiles to the original's bytes with
// a draw's value replaced by 0 (Spaced, whose draw is overwritten), the linked test binaries
// are the same bytes too; where a package compiles otherwise (Live), the binaries differ. It
// links test binaries, which the check itself does not, so it is a long test.
func TestCompiledImpliesIdenticalBinary(t *testing.T) {
	longtest.Skip(t) // builds and links the fixture's test binary four times
	dir, err := filepath.Abs(filepath.Join("testdata", "equiv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "equiv.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eng := &runnerEngine{dir: dir, buildFlags: []string{"-vet=off"}}
	ctx := context.Background()
	orig, err := eng.compiled(ctx, []string{"example.com/equiv"}, "-trimpath")
	if err != nil {
		t.Fatal(err)
	}
	origBin := linkTrimmed(t, dir, "orig")
	for _, c := range []struct {
		line string // the line of the draw, whose rand.Float64() is replaced
		same bool
	}{
		{"j := rand.Float64()", true},
		{"return time.Duration(rand.Float64() * float64(d))\n}\n", false},
	} {
		at := bytes.Index(src, []byte(c.line))
		if at < 0 || bytes.Count(src, []byte(c.line)) != 1 {
			t.Fatalf("equiv.go has not exactly one %q", c.line)
		}
		start := at + bytes.Index([]byte(c.line), []byte("rand.Float64()"))
		s := &Site{ID: at, Path: path, whole: span{start, start + len("rand.Float64()")}}
		tmp := t.TempDir()
		ov, err := writeZeroed(tmp, s)
		if err != nil {
			t.Fatal(err)
		}
		zeroed, err := eng.compiled(ctx, []string{"example.com/equiv"}, "-trimpath", "-overlay="+ov)
		if err != nil {
			t.Fatal(err)
		}
		sameBin := bytes.Equal(origBin, linkTrimmed(t, dir, tmp, "-overlay="+ov))
		if got := sameCompiled(orig, zeroed); got != c.same || sameBin != c.same {
			t.Errorf("draw on %q zeroed: every package compiles the same = %v, linked binary the same = %v; want both %v", c.line, got, sameBin, c.same)
		}
	}
}

// linkTrimmed links the fixture's test binary into out (a folder) with -trimpath, without
// symbols or DWARF, and returns its bytes.
func linkTrimmed(t *testing.T, dir, out string, flags ...string) []byte {
	t.Helper()
	if !filepath.IsAbs(out) {
		out = filepath.Join(t.TempDir(), out)
	}
	bin := filepath.Join(out, "equiv.test")
	args := append([]string{"test", "-c", "-vet=off", "-trimpath", "-ldflags=-s -w", "-o", bin}, flags...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, msg)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
