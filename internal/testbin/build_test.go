package testbin

import "testing"

// TestCacheFolderIgnoresOverlayFile: builds whose flags differ only in the -overlay file (an
// audit writes its overlay into a new temporary folder each time) share the binary cache's
// folder, where the go command finds an unchanged binary up to date; any other flag, or
// another directory, gets a folder of its own.
func TestCacheFolderIgnoresOverlayFile(t *testing.T) {
	cache := t.TempDir()
	folder := func(dir string, flags ...string) string {
		t.Helper()
		d, release, err := setDir(BuildOptions{Dir: dir, BuildFlags: flags, CacheDir: cache, OutDir: t.TempDir()}, 0)
		if err != nil {
			t.Fatal(err)
		}
		release()
		return d
	}
	first := folder("a", "-vet=off", "-overlay=/tmp/audit-1/overlay.json")
	if got := folder("a", "-vet=off", "-overlay=/tmp/audit-2/overlay.json"); got != first {
		t.Errorf("another overlay file: folder %s, want %s", got, first)
	}
	for _, other := range [][]string{
		{"a", "-vet=off"},
		{"a", "-race", "-overlay=/tmp/audit-1/overlay.json"},
		{"b", "-vet=off", "-overlay=/tmp/audit-1/overlay.json"},
	} {
		if got := folder(other[0], other[1:]...); got == first {
			t.Errorf("dir %s, flags %q: folder %s, that of -vet=off -overlay in a", other[0], other[1:], got)
		}
	}
}
