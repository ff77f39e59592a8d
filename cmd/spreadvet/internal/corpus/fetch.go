package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// fetch downloads module m (module@version) through the module proxy and copies it into a
// new folder under tmp, writable, so that go can resolve its dependencies there.
func fetch(m, tmp string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", m).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v%s", m, err, stderrOf(err))
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %v", m, err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %s", m, info.Error)
	}
	dir, err := os.MkdirTemp(tmp, "mod")
	if err != nil {
		return "", err
	}
	if err := os.CopyFS(dir, os.DirFS(info.Dir)); err != nil {
		return "", err
	}
	path, _, _ := strings.Cut(m, "@")
	if err := ensureGoMod(dir, path); err != nil {
		return "", err
	}
	return dir, dropLocalReplaces(dir)
}

// dropLocalReplaces removes the replace directives of the copy's go.mod that name a folder
// (go.opentelemetry.io/otel/sdk replaces go.opentelemetry.io/otel by ../, a folder of its
// repository that the module's zip does not hold), then has go mod tidy write the go.sum
// lines of the versions the requirements name. Without it no package of such a module loads.
func dropLocalReplaces(dir string) error {
	name := filepath.Join(dir, "go.mod")
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, dropped, err := withoutLocalReplaces(name, src)
	if err != nil || !dropped {
		return err
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		return err
	}
	return tidy(dir, dir)
}

// withoutLocalReplaces returns the go.mod src without its replace directives that name a
// folder, and whether it had any.
func withoutLocalReplaces(name string, src []byte) ([]byte, bool, error) {
	f, err := modfile.Parse(name, src, nil)
	if err != nil {
		return nil, false, err
	}
	dropped := false
	for _, r := range slices.Clone(f.Replace) {
		if r.New.Version == "" {
			if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
				return nil, false, err
			}
			dropped = true
		}
	}
	if !dropped {
		return src, false, nil
	}
	f.Cleanup()
	out, err := f.Format()
	return out, true, err
}

// ensureGoMod gives a module served without go.mod (github.com/Pallinder/go-randomdata) one
// naming its path and the go line the go command assumes for it, 1.16, then has go mod tidy
// add the requirements its imports need. Without a go.mod the copy is in no module and no
// package loads. Left to -mod=mod, the requirements were written while spreadvet loaded the
// packages, by the several go commands go/packages starts at once, and what each of them read
// of go.mod decided what was found (go-randomdata's TestPostalCode was flagged in one run of
// three): a go.mod complete before the analysis makes the score the same every time.
func ensureGoMod(dir, path string) error {
	name := filepath.Join(dir, "go.mod")
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	if err := os.WriteFile(name, []byte("module "+path+"\n\ngo 1.16\n"), 0o644); err != nil {
		return err
	}
	return tidy(dir, path)
}

// tidy runs go mod tidy in dir, the copy of the module named what, outside any workspace.
func tidy(dir, what string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v\n%s", what, err, out)
	}
	return nil
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

// goflags is the GOFLAGS of the corpus's go commands: -mod=mod, and the build tags given.
func goflags(tags string) string {
	if tags == "" {
		return "-mod=mod"
	}
	return "-mod=mod -tags=" + tags
}

// findingLine is one diagnostic of spreadvet's text output: file:line:col: kind: message.
var findingLine = regexp.MustCompile(`^(.+\.go):(\d+):\d+: ([a-z][a-z -]*): (.*)$`)

// analyze runs the spreadvet binary tool on m's packages in dir and returns its findings,
// with paths relative to dir. Output that is not a finding is an error: a package that does
// not load must not pass for one without findings.
func analyze(tool, dir string, m Module) ([]Finding, error) {
	cmd := exec.Command(tool, m.Packages...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS="+goflags(m.Tags), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 3) {
		return nil, fmt.Errorf("spreadvet %s on %s: %v\n%s", strings.Join(m.Packages, " "), m.Path, err, stderr.String())
	}
	var fs []Finding
	seen := map[string]bool{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.TrimSpace(line) == "" || seen[line] {
			continue
		}
		seen[line] = true
		f, err := parseFinding(line, dir, m.Path)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// parseFinding reads one line of spreadvet's output on the module copied to dir.
func parseFinding(line, dir, module string) (Finding, error) {
	sub := findingLine.FindStringSubmatch(line)
	if sub == nil {
		return Finding{}, fmt.Errorf("%s: unexpected spreadvet output %q", module, line)
	}
	rel, err := filepath.Rel(dir, sub[1])
	if err != nil || strings.HasPrefix(rel, "..") {
		return Finding{}, fmt.Errorf("%s: finding outside the module: %q", module, line)
	}
	n, _ := strconv.Atoi(sub[2])
	return Finding{Module: module, File: filepath.ToSlash(rel), Line: n, Kind: Kind(sub[3]), Message: sub[4]}, nil
}

// functions maps each module's files, as they are parsed, to the line spans of their
// function declarations.
type functions struct {
	dirs  map[string]string // module -> its copy
	spans map[string][][2]int
}

// enclosing is an Enclosing over the copies in f.dirs; a file that does not parse has no
// functions, so only nearby lines match there.
func (f *functions) enclosing(module, file string, line int) int {
	key := module + " " + file
	spans, ok := f.spans[key]
	if !ok {
		spans = funcSpans(filepath.Join(f.dirs[module], filepath.FromSlash(file)))
		f.spans[key] = spans
	}
	for _, s := range spans {
		if s[0] <= line && line <= s[1] {
			return s[0]
		}
	}
	return 0
}

// funcSpans returns the first and last lines of each function declaration in the file.
func funcSpans(path string) [][2]int {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var spans [][2]int
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			spans = append(spans, [2]int{fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line})
		}
	}
	return spans
}
