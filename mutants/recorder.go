package mutants

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recorder is the testing.TB a suite runs on inside Verify: it records failures, logs and
// skips instead of passing them to the real test, and ends the suite's goroutine on FailNow
// and SkipNow as testing.T does. The embedded TB (the real test) serves the methods whose
// effect is harmless to share: Name, TempDir, Setenv, Chdir, Context, ArtifactDir.
type recorder struct {
	testing.TB
	name string

	mu       sync.Mutex
	closed   bool // the run is over: late calls from stray goroutines are dropped
	failed   bool
	skipped  bool
	first    string // the first failure message
	skip     string // the skip message
	log      bytes.Buffer
	cleanups []func()
	err      error // a broken Source that could not break a read (unreadableModulus)
}

func newRecorder(parent testing.TB, name string) *recorder {
	return &recorder{TB: parent, name: name}
}

// record appends a line to the log and, if fail is set, marks the run failed, keeping the
// first failure message.
func (r *recorder) record(fail bool, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if msg != "" {
		r.log.WriteString(msg)
		r.log.WriteByte('\n')
	}
	if fail {
		if !r.failed {
			r.first = msg
		}
		r.failed = true
	}
}

func (r *recorder) Name() string {
	if r.TB == nil {
		return r.name
	}
	return r.TB.Name() + "/" + r.name
}

// Without a parent test (Run with a nil t), the methods it would serve fail the run clearly.

func (r *recorder) parent(method string) testing.TB {
	if r.TB == nil {
		panic("mutants: the suite called " + method + ", which needs Run to be given a testing.TB")
	}
	return r.TB
}

func (r *recorder) TempDir() string          { return r.parent("TempDir").TempDir() }
func (r *recorder) ArtifactDir() string      { return r.parent("ArtifactDir").ArtifactDir() }
func (r *recorder) Setenv(key, value string) { r.parent("Setenv").Setenv(key, value) }
func (r *recorder) Chdir(dir string)         { r.parent("Chdir").Chdir(dir) }
func (r *recorder) Context() context.Context {
	if r.TB == nil {
		return context.Background()
	}
	return r.TB.Context()
}
func (r *recorder) Helper() {}

func (r *recorder) Log(args ...any)                 { r.record(false, sprint(args)) }
func (r *recorder) Logf(format string, args ...any) { r.record(false, fmt.Sprintf(format, args...)) }
func (r *recorder) Error(args ...any)               { r.record(true, sprint(args)) }
func (r *recorder) Errorf(format string, args ...any) {
	r.record(true, fmt.Sprintf(format, args...))
}
func (r *recorder) Fail() { r.record(true, "") }

// FailNow marks the run failed and ends the suite's goroutine, as testing.T does.
func (r *recorder) FailNow() {
	r.record(true, "")
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.record(true, sprint(args)); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.record(true, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recorder) Skip(args ...any)                 { r.skipNow(sprint(args)) }
func (r *recorder) Skipf(format string, args ...any) { r.skipNow(fmt.Sprintf(format, args...)) }
func (r *recorder) SkipNow()                         { r.skipNow("") }

func (r *recorder) skipNow(msg string) {
	r.mu.Lock()
	if !r.closed && !r.skipped {
		r.skipped, r.skip = true, msg
	}
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recorder) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skipped
}

// Attr records the attribute in the run's log rather than on the real test, which would
// otherwise carry one copy per mutant.
func (r *recorder) Attr(key, value string) { r.record(false, "attr "+key+"="+value) }

// Output returns a writer into the run's log.
func (r *recorder) Output() io.Writer { return recorderWriter{r} }

type recorderWriter struct{ r *recorder }

func (w recorderWriter) Write(p []byte) (int, error) {
	w.r.record(false, strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// sprint formats like fmt.Sprintln without the newline, as testing.T.Log does.
func sprint(args []any) string {
	return strings.TrimSuffix(fmt.Sprintln(args...), "\n")
}
