package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Package is one package whose tests the runner runs: built once, run many times.
type Package struct {
	ImportPath string     `json:"package"`         // the import path
	Dir        string     `json:"dir"`             // the package directory: every run starts here
	Binary     string     `json:"-"`               // the compiled test binary; empty after a build failure
	BuildError string     `json:"error,omitempty"` // the go command's message when the package does not build
	Stage      BuildStage `json:"stage,omitempty"` // where the build failed

	// Target and CdDir say how a user replays a run from the directory the runner was started
	// in: cd into CdDir when it is set, then go test Target (such as ./sizing).
	Target string `json:"target"`
	CdDir  string `json:"cd,omitempty"` // see Target
	// Flags are the go test flags that a replay repeats: the build flags (-race, -tags, -vet)
	// and, in a Record, the test flags of the run (-short, -parallel, -skip...).
	Flags []string `json:"flags,omitempty"`
	Args  []string `json:"args,omitempty"` // the test binary's arguments, after -args
}

// BuildStage says where a package's build failed.
type BuildStage string

// The stages at which a build fails.
const (
	Load    BuildStage = "load"    // the pattern names no package that can be loaded (a typo, no Go files, an import cycle)
	Compile BuildStage = "compile" // the package or its tests do not compile
	Vet     BuildStage = "vet"     // go vet's checks, which go test runs before the tests, failed
)

// buildVerb says what went wrong at a stage, for the report.
func buildVerb(s BuildStage) string {
	switch s {
	case Load:
		return "cannot be loaded (check the package pattern)"
	case Vet:
		return "fails go vet, which go test runs first (-vet=off skips it)"
	}
	return "build failed"
}

// BuildOptions says which packages to build and how.
type BuildOptions struct {
	Dir      string   // where to run the go command; "" means the current directory
	Patterns []string // package patterns, as for go test; none means "."
	// BuildFlags are go test's build flags, such as -race, -tags=x or -vet=off: vet runs as go
	// test runs it unless they say otherwise, and its failure is a build failure.
	BuildFlags []string
	OutDir     string // where to put the test binaries; must exist
	Parallel   int    // how many packages to build at once; < 1 means 1

	// CacheDir, when set, keeps each package's test binary between sessions. The go command
	// does not link a test binary again when the file it would write is already up to date,
	// and the link is most of the cost of building a package whose code is in the build cache.
	CacheDir string
}

// ErrNoPackages is returned by Build when the patterns match no package with tests.
var ErrNoPackages = errors.New("runner: no packages with tests match the patterns")

// Build expands the patterns with go list and compiles each package that has tests, once, with
// go test -c. Packages without test files are left out. A package that does not compile is
// returned with its BuildError set and no binary; the error result is only for failures of the
// go command itself.
func Build(ctx context.Context, opts BuildOptions) ([]Package, error) {
	pkgs, err := list(ctx, opts)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, ErrNoPackages
	}
	sem := make(chan struct{}, max(opts.Parallel, 1))
	var wg sync.WaitGroup
	for i := range pkgs {
		p := &pkgs[i]
		if p.BuildError != "" {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			bin := filepath.Join(opts.OutDir, fmt.Sprintf("%03d-%s.test", i, filepath.Base(p.ImportPath)))
			out, err := buildOne(ctx, opts, p, bin)
			switch {
			case ctx.Err() != nil:
				p.BuildError = ctx.Err().Error()
			case err != nil:
				p.BuildError, p.Stage = strings.TrimSpace(out), stageOf(out)
				if p.BuildError == "" {
					p.BuildError = err.Error()
				}
			default:
				p.Binary = bin
			}
		})
	}
	wg.Wait()
	return pkgs, ctx.Err()
}

// buildOne compiles one package's test binary to bin, through the binary cache when there is
// one, and returns the go command's output.
func buildOne(ctx context.Context, opts BuildOptions, p *Package, bin string) (string, error) {
	build := func(to string) (string, error) {
		args := append([]string{"test", "-c", "-o", to}, opts.BuildFlags...)
		return goCmd(ctx, opts.Dir, append(args, p.ImportPath)...)
	}
	if opts.CacheDir == "" {
		return build(bin)
	}
	key := sha256.Sum256([]byte(p.ImportPath + "\x00" + p.Dir + "\x00" + strings.Join(opts.BuildFlags, "\x00")))
	cached := filepath.Join(opts.CacheDir, hex.EncodeToString(key[:12])+"-"+filepath.Base(p.ImportPath)+".test")
	if err := os.MkdirAll(opts.CacheDir, 0o755); err != nil {
		return build(bin)
	}
	unlock, err := lockFile(cached+".lock", true)
	if err != nil {
		return build(bin) // no file locks here: do without the cache
	}
	defer unlock()
	if out, err := build(cached); err != nil {
		return out, err
	}
	now := time.Now()
	os.Chtimes(cached, now, now) // used: the trim keeps it another week
	// The runs use a private copy: another session may rebuild the cached binary meanwhile.
	return "", copyFile(bin, cached)
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// list runs go list and keeps the packages that have tests.
func list(ctx context.Context, opts BuildOptions) ([]Package, error) {
	out, err := goList(ctx, opts)
	if err != nil {
		return nil, err
	}
	// Replay commands are typed where the runner was started, whatever opts.Dir is.
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp listed
		if err := dec.Decode(&lp); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("runner: reading go list output: %v", err)
		}
		if p, ok := lp.pkg(wd, opts.BuildFlags); ok {
			pkgs = append(pkgs, p)
		}
	}
}

func goList(ctx context.Context, opts BuildOptions) ([]byte, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles,Error,Module"}, listFlags(opts.BuildFlags)...)
	cmd := exec.CommandContext(ctx, "go", append(append(args, "--"), patterns...)...)
	cmd.Dir = opts.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("runner: go list: %v\n%s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// listed is what go list says of a package.
type listed struct {
	ImportPath, Dir           string
	TestGoFiles, XTestGoFiles []string
	Error                     *struct{ Err string }
	Module                    *struct{ Dir string }
}

// pkg returns the package to build, and false for a package without tests. A package that
// cannot even be loaded (no Go files, a bad import) fails the build.
func (lp *listed) pkg(wd string, flags []string) (Package, bool) {
	p := Package{ImportPath: lp.ImportPath, Dir: lp.Dir, Flags: flags}
	if lp.Module != nil {
		p.Target, p.CdDir = replayTarget(wd, lp.Module.Dir, lp.ImportPath, lp.Dir)
	} else {
		p.Target = lp.ImportPath // a standard-library package
	}
	if lp.Error != nil {
		p.BuildError, p.Stage = lp.Error.Err, Load
		return p, true
	}
	return p, len(lp.TestGoFiles)+len(lp.XTestGoFiles) > 0
}

// stageOf tells a vet failure from a compile error by the header the go command prints
// above vet's findings: "# [example.com/p]".
func stageOf(out string) BuildStage {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "# [") && strings.HasSuffix(l, "]") {
			return Vet
		}
	}
	return Compile
}

// listFlags returns the build flags that go list takes: all but -vet, which only go test has.
func listFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if !strings.HasPrefix(f, "-vet") {
			out = append(out, f)
		}
	}
	return out
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// replayTarget returns how to name a package to go test from wd: ./rel when wd is inside the
// package's module and the package inside wd, its import path when wd is elsewhere in the
// module, and "." after a cd into the package when wd is outside its module (go test would
// not find the package from there).
func replayTarget(wd, modDir, importPath, dir string) (target, cd string) {
	if !within(wd, modDir) {
		rel, err := filepath.Rel(wd, dir)
		if err != nil {
			rel = dir
		}
		return ".", rel
	}
	if within(dir, wd) {
		rel, _ := filepath.Rel(wd, dir)
		if rel == "." {
			return ".", ""
		}
		return "./" + filepath.ToSlash(rel), ""
	}
	return importPath, ""
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
