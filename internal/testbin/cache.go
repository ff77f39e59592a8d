package testbin

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Cache is the runner's folder in the user cache directory (os.UserCacheDir: $XDG_CACHE_HOME
// or ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows), spreadcheck/:
//
//	testbin/   test binaries kept between sessions (BuildOptions.CacheDir), so that the go
//	           command does not link an unchanged package again: a folder for the packages
//	           built from one directory with one set of flags; those unused for a week go
//	sessions/  one folder per running session, holding its private copies of the binaries
//	           (and, for the command, the go commands' work folders: its GOTMPDIR);
//	           removed when the session ends, and at the next start when it died
//	results/   the results files of sessions not given one, the newest 20 kept
//
// Nothing is left in the temporary directory; the spreadcheck-bin-* folders that earlier
// versions left there are removed when a day old.
type Cache struct{ Dir string }

// Cache limits.
const (
	keepBinaries = 7 * 24 * time.Hour
	KeepResults  = 20
)

// UserCache returns the Cache in the user cache directory.
func UserCache() (Cache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return Cache{}, err
	}
	return Cache{filepath.Join(dir, "spreadcheck")}, nil
}

// Binaries returns the folder of the binary cache.
func (c Cache) Binaries() string { return filepath.Join(c.Dir, "testbin") }

// Session creates a folder for one session and returns it with the function that removes it.
// The session holds a lock on the folder while it runs, so that a later session can tell it
// from one that died (killed, or its machine restarted) and remove that one.
func (c Cache) Session() (dir string, done func(), err error) {
	parent := filepath.Join(c.Dir, "sessions")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", nil, err
	}
	if dir, err = os.MkdirTemp(parent, "s-"); err != nil {
		return "", nil, err
	}
	unlock, err := lockFile(filepath.Join(dir, "lock"), false)
	if err != nil {
		unlock = func() {}
	}
	return dir, func() { os.RemoveAll(dir); unlock() }, nil
}

// ResultsPath returns where a session started at the given time keeps its results when it was
// given no file.
func (c Cache) ResultsPath(started time.Time, seed uint64) (string, error) {
	dir := filepath.Join(c.Dir, "results")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, fmt.Sprintf("%s-seed%d.jsonl", started.UTC().Format("20060102T150405.000"), seed)), nil
}

// Trim removes what the cache no longer needs: the folders of sessions that died, binaries
// unused for a week and all but the newest results files. What another session is using is
// left alone.
func (c Cache) Trim(now time.Time) {
	c.trimSessions()
	c.trimBinaries(now)
	c.trimResults()
	trimOldTemp(now)
}

// trimOldTemp removes the spreadcheck-bin-* folders that sessions of earlier versions, killed
// before they could, left in the temporary directory (a day old: none is running still).
func trimOldTemp(now time.Time) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "spreadcheck-bin-*"))
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() && now.Sub(st.ModTime()) > 24*time.Hour {
			os.RemoveAll(d)
		}
	}
}

func (c Cache) trimSessions() {
	dirs, _ := filepath.Glob(filepath.Join(c.Dir, "sessions", "s-*"))
	for _, d := range dirs {
		if unlock, err := lockFile(filepath.Join(d, "lock"), false); err == nil {
			os.RemoveAll(d) // its session is gone: nobody holds its lock
			unlock()
		}
	}
}

// trimBinaries removes the binaries unused for a week, and a folder of them once it is empty,
// each under its lock, leaving alone what a running session holds. (A cached binary of an
// earlier version is a file of its own, not a folder.)
func (c Cache) trimBinaries(now time.Time) {
	entries, _ := filepath.Glob(filepath.Join(c.Binaries(), "*"))
	for _, e := range entries {
		if strings.HasSuffix(e, ".lock") {
			continue
		}
		unlock, err := lockFile(e+".lock", false)
		if err != nil {
			continue
		}
		bins := []string{e}
		if st, err := os.Stat(e); err == nil && st.IsDir() {
			bins, _ = filepath.Glob(filepath.Join(e, "*"))
		}
		left := len(bins)
		for _, b := range bins {
			if st, err := os.Stat(b); err == nil && now.Sub(st.ModTime()) >= keepBinaries && os.Remove(b) == nil {
				left--
			}
		}
		if left == 0 {
			os.Remove(e)
			os.Remove(e + ".lock")
		}
		unlock()
	}
}

func (c Cache) trimResults() {
	files, _ := filepath.Glob(filepath.Join(c.Dir, "results", "*.jsonl"))
	slices.SortFunc(files, func(a, b string) int { return -strings.Compare(filepath.Base(a), filepath.Base(b)) })
	for _, f := range files[min(KeepResults, len(files)):] {
		os.Remove(f)
	}
}
