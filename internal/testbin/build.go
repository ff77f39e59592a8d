package testbin

import (
	"bytes"
	"cmp"
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
	"regexp"
	"runtime"
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

// BuildVerb says what went wrong at a stage, for the report.
func BuildVerb(s BuildStage) string {
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
	// Parallel is how many go commands build at once when the packages are built one by one,
	// to tell which of them failed and why; < 1 means 1.
	Parallel int

	// CacheDir, when set, keeps the test binaries between sessions. The go command does not
	// link a test binary again when the file it would write is already up to date, and the
	// link is most of the cost of building a package whose code is in the build cache.
	CacheDir string

	// OnListed, when set, is called once go list has named the packages with tests, with
	// their number, while they build: a progress line can say what the session waits for.
	OnListed func(packages int)
}

// ErrNoPackages is returned by Build, and by an audit, when the patterns match no package
// with tests: the one definition of this error.
var ErrNoPackages = errors.New("no packages with tests match the patterns")

// Build expands the patterns with go list and compiles each package that has tests, once.
// One go test -c builds them all (one per set of packages whose binaries share a name), so
// that the go command loads the code once and links in parallel; when it fails, each package
// of the set is built alone, to tell which failed and why. Packages without test files are
// left out. A package that does not compile is returned with its BuildError set and no
// binary; the error result is only for failures of the go command itself.
func Build(ctx context.Context, opts BuildOptions) ([]Package, error) {
	early := startEarly(ctx, opts)
	pkgs, err := List(ctx, opts)
	if err == nil && opts.OnListed != nil {
		opts.OnListed(len(pkgs))
	}
	sets := binarySets(pkgs)
	if early != nil && !early.finish(ctx, opts, pkgs, sets, err) {
		early = nil // built again below, from the list
	}
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, ErrNoPackages
	}
	for i, set := range sets {
		if i == 0 && early != nil {
			continue
		}
		if err := buildSet(ctx, opts, pkgs, set, i); err != nil {
			return nil, err
		}
	}
	return pkgs, ctx.Err()
}

// earlyBuild is a go test -c of the patterns themselves, into the first set's folder, started
// beside go list, so that the session does not wait for the list before it builds: when the
// List shows that the patterns name one set of packages that all load, as they mostly do,
// it is that set's build. Otherwise (two packages whose binaries share a name, which the go
// command refuses at once, or a package that does not build) the set is built again from
// the list, as without it.
type earlyBuild struct {
	dir     string
	release func()
	done    chan struct{}
	err     error
}

// startEarly starts the early build, or returns nil when a pattern could be taken for a flag.
func startEarly(ctx context.Context, opts BuildOptions) *earlyBuild {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return nil
		}
	}
	dir, release, err := setDir(opts, 0)
	if err != nil {
		return nil
	}
	e := &earlyBuild{dir: dir, release: release, done: make(chan struct{})}
	// Without -json, which costs the go command a third more CPU time (250 ms against 330
	// on the fast suite) and which only a failure needs: that is built again from the list.
	args := append(append([]string{"test", "-c", "-o", dir + string(filepath.Separator)}, opts.BuildFlags...), patterns...)
	go func() {
		defer close(e.done)
		_, e.err = GoCmd(ctx, opts.Dir, args...)
	}()
	return e
}

// finish waits for the early build (a go command is never left running) and, when it is the
// build of the listed packages' only set, completes it as buildSet does; it reports whether
// it did. listErr is go list's failure, if it failed.
func (e *earlyBuild) finish(ctx context.Context, opts BuildOptions, pkgs []Package, sets [][]int, listErr error) bool {
	<-e.done
	defer e.release()
	if listErr != nil || e.err != nil || len(sets) != 1 || ctx.Err() != nil {
		return false
	}
	for _, p := range pkgs {
		if p.BuildError != "" {
			return false
		}
	}
	if len(missing(e.dir, pkgs, sets[0])) > 0 {
		return false
	}
	completeSet(ctx, opts, pkgs, sets[0], e.dir)
	return true
}

// binarySets splits the packages that can be built into sets whose test binaries have
// distinct names (go test -c -o dir/ names each after its package), in order: one set unless
// two packages share a last path element.
func binarySets(pkgs []Package) [][]int {
	var sets [][]int
	taken := []map[string]bool{}
	for i, p := range pkgs {
		if p.BuildError != "" {
			continue
		}
		k := 0
		for k < len(sets) && taken[k][binaryName(p.ImportPath)] {
			k++
		}
		if k == len(sets) {
			sets, taken = append(sets, nil), append(taken, map[string]bool{})
		}
		sets[k], taken[k][binaryName(p.ImportPath)] = append(sets[k], i), true
	}
	return sets
}

// binaryName returns the name go test -c gives a package's binary in a folder: its last path
// element, or the one before a major version suffix (example.com/p/v2 is p.test).
func binaryName(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && majorVersion.MatchString(name) {
		name = elems[len(elems)-2]
	}
	if runtime.GOOS == "windows" {
		return name + ".test.exe"
	}
	return name + ".test"
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// buildSet builds the packages of one set into a folder: the binary cache's folder for the
// set, or the output folder. It returns an error only when it cannot make the folder.
func buildSet(ctx context.Context, opts BuildOptions, pkgs []Package, set []int, k int) error {
	dir, release, err := setDir(opts, k)
	if err != nil {
		return err
	}
	defer release()
	args := append([]string{"test", "-c", "-json", "-o", dir + string(filepath.Separator)}, opts.BuildFlags...)
	for _, i := range set {
		args = append(args, pkgs[i].ImportPath)
	}
	out, err := GoCmd(ctx, opts.Dir, args...)
	each := set // the packages to build one by one
	if err == nil || blame(pkgs, set, out) {
		each = missing(dir, pkgs, set)
	}
	if len(each) > 0 {
		buildEach(ctx, opts, pkgs, each, dir)
	}
	completeSet(ctx, opts, pkgs, set, dir)
	return nil
}

// completeSet gives each package of a set that built its binary: the one in dir, or a private
// copy of it when dir is in the binary cache.
func completeSet(ctx context.Context, opts BuildOptions, pkgs []Package, set []int, dir string) {
	for _, i := range set {
		p := &pkgs[i]
		switch {
		case ctx.Err() != nil:
			p.BuildError = ctx.Err().Error()
		case p.BuildError == "":
			p.Binary = filepath.Join(dir, binaryName(p.ImportPath))
			if opts.CacheDir != "" {
				p.Binary, p.BuildError = privateCopy(opts.OutDir, p.Binary, i)
			}
		}
	}
}

// setDir returns the folder that a set's binaries are built into, with the function that
// releases it. In the binary cache, the folder of the k-th set of the packages built from one
// directory with one set of flags: another session building the same packages finds their
// binaries up to date. It holds a lock on the folder, so that no session copies a binary that
// another is writing. Without a cache (or file locks), a folder of OutDir's.
func setDir(opts BuildOptions, k int) (string, func(), error) {
	if opts.CacheDir != "" && os.MkdirAll(opts.CacheDir, 0o755) == nil {
		dir := filepath.Join(opts.CacheDir, fmt.Sprintf("%s-%d", cacheKey(opts), k))
		if unlock, err := lockFile(dir+".lock", true); err == nil {
			if err := os.MkdirAll(dir, 0o755); err == nil {
				return dir, unlock, nil
			}
			unlock()
		}
	}
	dir := filepath.Join(opts.OutDir, fmt.Sprintf("set%d", k))
	return dir, func() {}, os.MkdirAll(dir, 0o755)
}

// cacheKey names the binary cache's folders for the packages built from one directory with
// one set of flags. An -overlay flag counts without its file: the file is a new temporary one
// each time (an audit writes its mutant schema's overlay into its own folder), and what it
// replaces is for the go command to compare, as it compares the code: it links again only when
// what it would link differs from the binary in the folder.
func cacheKey(opts BuildOptions) string {
	wd, _ := filepath.Abs(opts.Dir)
	flags := make([]string, len(opts.BuildFlags))
	for i, f := range opts.BuildFlags {
		if strings.HasPrefix(f, "-overlay=") || strings.HasPrefix(f, "--overlay=") {
			f = "-overlay"
		}
		flags[i] = f
	}
	key := sha256.Sum256([]byte(wd + "\x00" + strings.Join(flags, "\x00")))
	return hex.EncodeToString(key[:12])
}

// blame gives each package of the set that go test -c -json named in a build failure its
// message, and reports whether the failures stop there: whether every one was of a package's
// own test build (such as a vet failure), which no other package imports. When they may not
// (a package that others import failed, or the go command failed before it built anything),
// it names none, and every package is to be built one by one.
func blame(pkgs []Package, set []int, out string) (contained bool) {
	fails, outputs := map[string]bool{}, map[string]*strings.Builder{}
	for _, l := range strings.Split(out, "\n") {
		var e struct{ ImportPath, Action, Output string }
		if json.Unmarshal([]byte(l), &e) != nil || e.ImportPath == "" {
			continue
		}
		if outputs[e.ImportPath] == nil {
			outputs[e.ImportPath] = &strings.Builder{}
		}
		outputs[e.ImportPath].WriteString(e.Output)
		fails[e.ImportPath] = fails[e.ImportPath] || e.Action == "build-fail"
	}
	own := map[string]int{} // the test binaries, by their names in the events
	for _, i := range set {
		own[pkgs[i].ImportPath+".test"] = i
	}
	contained = len(fails) > 0
	for id, failed := range fails {
		// "p [p.test]" and "p_test [p.test]" are compiled for p's test binary alone, "p.test" is
		// that binary: their failures are p's.
		_, bin, _ := strings.Cut(strings.TrimSuffix(id, "]"), " [")
		i, ok := own[cmp.Or(bin, id)]
		switch {
		case !failed:
		case ok:
			msg := strings.TrimSpace(outputs[id].String())
			pkgs[i].BuildError = strings.TrimSpace(pkgs[i].BuildError + "\n" + msg)
			pkgs[i].Stage = stageOf(pkgs[i].BuildError)
		default:
			contained = false
		}
	}
	if !contained {
		for _, i := range set {
			pkgs[i].BuildError, pkgs[i].Stage = "", ""
		}
	}
	return contained
}

// missing returns the packages of the set that did not fail and whose binary is not in dir.
func missing(dir string, pkgs []Package, set []int) []int {
	var out []int
	for _, i := range set {
		if _, err := os.Stat(filepath.Join(dir, binaryName(pkgs[i].ImportPath))); err != nil && pkgs[i].BuildError == "" {
			out = append(out, i)
		}
	}
	return out
}

// buildEach builds the packages of a set one by one, opts.Parallel at a time, and records
// each failure with the go command's message and its stage. The binaries that the set's build
// made are up to date: the go command does not link them again.
func buildEach(ctx context.Context, opts BuildOptions, pkgs []Package, set []int, dir string) {
	sem := make(chan struct{}, max(opts.Parallel, 1))
	var wg sync.WaitGroup
	for _, i := range set {
		p := &pkgs[i]
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			args := append([]string{"test", "-c", "-o", filepath.Join(dir, binaryName(p.ImportPath))}, opts.BuildFlags...)
			out, err := GoCmd(ctx, opts.Dir, append(args, p.ImportPath)...)
			if err != nil && ctx.Err() == nil {
				p.BuildError, p.Stage = strings.TrimSpace(out), stageOf(out)
				if p.BuildError == "" {
					p.BuildError = err.Error()
				}
			}
		})
	}
	wg.Wait()
}

// privateCopy gives the session its own copy of the i-th package's cached binary, in the
// session's folder, and marks the cached one used (the trim keeps it another week): another
// session may rebuild the cached binary meanwhile. The copy is a hard link where the file
// system allows, which costs nothing: the go command replaces the binaries it writes (it
// removes the old file first), and the trim removes them, so neither ever writes into the
// file the link holds. It returns the copy, or the error to report for the package.
func privateCopy(outDir, cached string, i int) (bin, buildError string) {
	now := time.Now()
	os.Chtimes(cached, now, now)
	bin = filepath.Join(outDir, fmt.Sprintf("%03d-%s", i, filepath.Base(cached)))
	if os.Link(cached, bin) == nil {
		return bin, ""
	}
	if err := copyFile(bin, cached); err != nil {
		return "", "copying the test binary out of the cache: " + err.Error()
	}
	return bin, ""
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

// List runs go list and keeps the packages that have tests.
func List(ctx context.Context, opts BuildOptions) ([]Package, error) {
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
	cmd.Dir, cmd.Env = opts.Dir, GoEnv()
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

// goGC is the GOGC of the go commands that GoEnv gives. The go command starts with the
// runtime's 4 MB heap goal and grows to some 35 MB loading a test binary's packages: at the
// default GOGC=100 it collects four or five times on the way, and those collections are an
// eighth of its CPU time when the build is cached, as in an audit of code whose dependencies
// are built (0.148 s of CPU against 0.175 s for go test -c of go-grpc-middleware's
// util/backoffutils, its binary up to date; 0.468 s against 0.513 s linking it, median of
// 12 each). 400 puts the first collection at 16 MB.
const goGC = "400"

// GoEnv returns the environment of the go commands that spreadcheck runs: its own, with
// GOGC=goGC unless GOGC or GOMEMLIMIT is set (the user's choice stands). The go command
// passes GOGC on to the compiler and the linker: a compiler that finds GOGC set keeps it
// instead of starting with a 128 MB heap goal, which costs a cold build no CPU time but
// raises its peak memory (a cold go test -c of util/backoffutils: 46 s of CPU both ways,
// 435 MB at most against 280). The test binaries that spreadcheck runs do not get it: their
// environment is the session's own.
func GoEnv() []string {
	env := os.Environ()
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		env = append(env, "GOGC="+goGC)
	}
	return env
}

// GoCmd runs the go command in dir and returns its combined output. It is a variable so that
// the tests can count the builds.
var GoCmd = runGo

func runGo(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, GoEnv()
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
