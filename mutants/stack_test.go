package mutants

import (
	"errors"
	randv1 "math/rand"
	"strings"
	"testing"
	"time"
)

// TestStackTraceShowsModulus: on the Go that runs the tests, stack traces show the n of
// math/rand's Int63n and Int31n as the probe expects. A Go that prints them otherwise fails
// here, not in a user's suite.
func TestStackTraceShowsModulus(t *testing.T) {
	if !probeModulus() {
		t.Fatal("runtime.Stack does not show the n of math/rand's Int63n and Int31n as the probe reads it: " +
			"the broken Sources cannot break those reads on this Go")
	}
}

// TestUnreadableModulusIsLoud: where the trace does not show n (as on a Go that prints its
// traces otherwise), a broken Source read by Int63n, Int31n or Intn panics with an error
// saying so, and Try returns that error, instead of a healthy value that a suite would pass.
// Before, the read fell back to an unbroken-looking value in silence.
func TestUnreadableModulusIsLoud(t *testing.T) {
	readArg = func(string) (uint64, bool) { return 0, false }
	defer func() { readArg = stackArg }()
	for name, read := range map[string]func(r *randv1.Rand){
		"Int63n": func(r *randv1.Rand) { r.Int63n(1e9 + 7) },
		"Int31n": func(r *randv1.Rand) { r.Int31n(77) },
		"Intn":   func(r *randv1.Rand) { r.Intn(12345) },
	} {
		r := randv1.New(new(Source))
		func() {
			defer func() {
				e, ok := recover().(*unreadableModulus)
				if !ok || !strings.Contains(e.Error(), "needs n") {
					t.Errorf("%s: recovered %v, want an *unreadableModulus", name, e)
				}
			}()
			read(r)
			t.Errorf("%s returned", name)
		}()
	}
	src := new(Source)
	jitter := func(base time.Duration) time.Duration { return time.Duration(randv1.New(src).Int63n(int64(base))) }
	_, err := Try(nil, jitter, func(t testing.TB, j Jitter) { j(time.Second) })
	var e *unreadableModulus
	if !errors.As(err, &e) {
		t.Errorf("Try: error %v, want the unreadable modulus", err)
	}
}
