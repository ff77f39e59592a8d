package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing the test.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, format
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.md")
	if err := os.WriteFile(path, []byte("| a | 1 |\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, got string
		fail      bool
	}{
		{path, "| a | 1 |\n", false},
		{path, "| a | 2 |\n", true},
		{path, "", true},
		{path + ".missing", "| a | 1 |\n", true},
	} {
		r := &recorder{TB: t}
		Check(r, c.path, c.got)
		if r.failed != c.fail {
			t.Errorf("Check(%s, %q): failed %v, want %v", filepath.Base(c.path), c.got, r.failed, c.fail)
		}
	}
}

func TestUpdateWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.md")
	*update = true
	defer func() { *update = false }()
	r := &recorder{TB: t}
	Check(r, path, "written\n")
	if b, err := os.ReadFile(path); err != nil || string(b) != "written\n" || r.failed {
		t.Errorf("under -update: file %q, error %v, failed %v; want the output written and no failure", b, err, r.failed)
	}
}
