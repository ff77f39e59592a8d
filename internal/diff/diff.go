package diff

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Lines holds the lines of the new version of each file that a change added or modified, by
// slash-separated path relative to the repository's root. A line only deleted from a file
// leaves no line of its new version changed.
type Lines map[string][]Range

// Range is the lines From to To of a file, both included, counted from 1.
type Range struct{ From, To int }

// Has reports whether the change added or modified the line of the file.
func (l Lines) Has(file string, line int) bool {
	rs := l[file]
	i, _ := slices.BinarySearchFunc(rs, line, func(r Range, line int) int {
		switch {
		case r.To < line:
			return -1
		case r.From > line:
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i].From <= line && line <= rs[i].To
}

// Overlaps reports whether the change added or modified any line from..to of the file.
func (l Lines) Overlaps(file string, from, to int) bool {
	for _, r := range l[file] {
		if r.From <= to && from <= r.To {
			return true
		}
	}
	return false
}

// Files returns the changed files, sorted.
func (l Lines) Files() []string {
	var fs []string
	for f := range l {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	return fs
}

// Under returns the changes to the files under dir (slash-separated, relative to the same
// root; "" or "." is the root), with paths relative to dir.
func (l Lines) Under(dir string) Lines {
	dir = strings.Trim(path.Clean("/"+dir), "/")
	if dir == "" {
		return l
	}
	out := Lines{}
	for f, rs := range l {
		if rel, ok := strings.CutPrefix(f, dir+"/"); ok {
			out[rel] = rs
		}
	}
	return out
}

// Below returns dir's path relative to root, slash-separated, as Under takes it: "" for root
// itself; an error when dir is not inside root. Both are resolved through symbolic links
// first, since git names its root by its real path.
func Below(root, dir string) (string, error) {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(real(root), real(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not inside %s", dir, root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// add records line n of file, merging it into the last range when it follows it.
func (l Lines) add(file string, n int) {
	rs := l[file]
	if k := len(rs) - 1; k >= 0 && rs[k].To >= n-1 {
		rs[k].To = max(rs[k].To, n)
		return
	}
	l[file] = append(rs, Range{n, n})
}

// Parse reads a unified diff and returns the lines it adds to each file's new version. It
// takes git's diffs (a/ and b/ prefixes, quoted names, renames, any context) and diff -u's. A
// hunk that does not match its header, or a header that does not parse, is an error naming
// the line.
func Parse(r io.Reader) (Lines, error) {
	lines := Lines{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var (
		file       string // the new version's path; "" for a deleted file
		oldPrefix  bool   // the --- line had git's a/ prefix (or was /dev/null)
		newN, left int    // the next new line's number, and the new lines the hunk has yet to give
		oldLeft    int
		n          int
	)
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if left > 0 || oldLeft > 0 {
			switch {
			case len(b) == 0 || b[0] == ' ':
				newN, left, oldLeft = newN+1, left-1, oldLeft-1
			case b[0] == '+':
				if file != "" {
					lines.add(file, newN)
				}
				newN, left = newN+1, left-1
			case b[0] == '-':
				oldLeft--
			case b[0] == '\\': // "\ No newline at end of file"
			default:
				return nil, fmt.Errorf("diff line %d: %q inside a hunk that wants %d more new and %d more old lines", n, b, left, oldLeft)
			}
			if left < 0 || oldLeft < 0 {
				return nil, fmt.Errorf("diff line %d: the hunk is longer than its header says", n)
			}
			continue
		}
		switch {
		case bytes.HasPrefix(b, []byte("--- ")):
			p := name(string(b[4:]))
			oldPrefix = p == "/dev/null" || strings.HasPrefix(p, "a/")
		case bytes.HasPrefix(b, []byte("+++ ")):
			p := name(string(b[4:]))
			switch {
			case p == "/dev/null":
				file = ""
			case oldPrefix && strings.HasPrefix(p, "b/"):
				file = path.Clean(p[2:])
			default:
				file = path.Clean(p)
			}
		case bytes.HasPrefix(b, []byte("@@ ")):
			var err error
			if newN, left, oldLeft, err = hunk(string(b)); err != nil {
				return nil, fmt.Errorf("diff line %d: %v", n, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if left > 0 || oldLeft > 0 {
		return nil, fmt.Errorf("diff ends inside a hunk: %d new and %d old lines missing", left, oldLeft)
	}
	return lines, nil
}

// name returns the path of a ---/+++ line: unquoted when git quoted it, without the
// timestamp diff -u puts after a tab.
func name(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}

// hunk parses "@@ -a,b +c,d @@ ...": the first new line, and the new and old lines that follow.
func hunk(h string) (newStart, newCount, oldCount int, err error) {
	f := strings.Fields(h)
	if len(f) < 4 || f[3] != "@@" && !strings.HasPrefix(f[3], "@@") || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, fmt.Errorf("hunk header %q: want @@ -a,b +c,d @@", h)
	}
	_, oldCount, err = span(f[1][1:])
	if err == nil {
		newStart, newCount, err = span(f[2][1:])
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("hunk header %q: %v", h, err)
	}
	return newStart, newCount, oldCount, nil
}

// span parses "c,d" or "c" (a count of 1).
func span(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	count = 1
	if start, err = strconv.Atoi(a); err == nil && ok {
		count, err = strconv.Atoi(b)
	}
	if err == nil && (start < 0 || count < 0 || count > 1<<30) {
		err = fmt.Errorf("%q out of range", s)
	}
	return start, count, err
}

// Git returns the lines changed since the merge base of ref and HEAD, in the working tree
// (committed or not) of the repository that holds dir, and the repository's root, whose
// paths they are. Files git does not track are not part of the change.
func Git(ctx context.Context, dir, ref string) (Lines, string, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	root, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, "", err
	}
	base, err := git("merge-base", ref, "HEAD")
	if err != nil {
		return nil, "", err
	}
	// From the root, whatever dir is: the paths are the root's, as in any diff file.
	out, err := git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "-U0", "--src-prefix=a/", "--dst-prefix=b/",
		strings.TrimSpace(string(base)), "--", ":/")
	if err != nil {
		return nil, "", err
	}
	lines, err := Parse(bytes.NewReader(out))
	return lines, strings.TrimSpace(string(root)), err
}
