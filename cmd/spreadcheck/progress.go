package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// progress reports progress on stderr from the session's first second: what it is doing
// (listing and building the packages, then the runs of each phase) and the time since the
// session started. On a terminal one line is rewritten in place every second; in a CI log a
// plain line is written when the build starts, when the packages are known, and every tenth
// of the way through the runs. An ETA is given only from a measured pace (runner.Progress.Left).
type progress struct {
	w     io.Writer
	tty   bool
	clock fakeclock.Clock
	start time.Time

	mu         sync.Mutex
	packages   int              // the packages being built; 0 until go list has named them
	runs       *runner.Progress // the latest runs' progress; nil while building
	at         time.Time        // when runs was reported
	open       bool             // a terminal line has been written and not ended
	lastTenth  int
	lastDone   int
	phaseShown bool          // the log has a line of the current phase
	stop       chan struct{} // closed by end: the terminal's redrawing stops
	stopped    chan struct{} // closed when it has
}

func newProgress(w io.Writer, c fakeclock.Clock) *progress {
	return &progress{w: w, tty: isTerminal(w), clock: c}
}

// begin starts the report: the session, and its elapsed time, start now.
func (pr *progress) begin() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.start = pr.clock.Now()
	pr.show()
	if !pr.tty {
		return
	}
	pr.stop, pr.stopped = make(chan struct{}), make(chan struct{})
	tick := pr.clock.NewTicker(time.Second)
	go func() {
		defer close(pr.stopped)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				pr.mu.Lock()
				pr.show()
				pr.mu.Unlock()
			case <-pr.stop:
				return
			}
		}
	}()
}

// listed records the number of packages being built (testbin.BuildOptions.OnListed).
func (pr *progress) listed(n int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.packages = n
	pr.show()
}

// update records the runs' progress (runner.Options.OnProgress).
func (pr *progress) update(p runner.Progress) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.runs != nil && (p.Done < pr.lastDone || p.Phase != pr.runs.Phase) {
		pr.lastTenth, pr.phaseShown = 0, false // a new phase (the reruns, the replays) starts counting again
	}
	pr.lastDone = p.Done
	pr.runs, pr.at = &p, pr.clock.Now()
	pr.show()
}

// show writes the current line: on a terminal always, in a log when there is news.
func (pr *progress) show() {
	line := "spreadcheck: " + pr.doing() + ", " + pr.clock.Since(pr.start).Round(time.Second).String() + " elapsed"
	if pr.tty {
		fmt.Fprintf(pr.w, "\r\033[K%s", line)
		pr.open = true
		return
	}
	if pr.runs == nil {
		fmt.Fprintln(pr.w, line) // the build's start, and the packages it builds
		return
	}
	if tenth := 10 * pr.runs.Done / max(pr.runs.Total, 1); tenth > pr.lastTenth || !pr.phaseShown {
		pr.lastTenth, pr.phaseShown = max(tenth, pr.lastTenth), true
		fmt.Fprintln(pr.w, line)
	}
}

// doing says what the session is doing now.
func (pr *progress) doing() string {
	if pr.runs == nil {
		if pr.packages == 0 {
			return "listing and building the packages"
		}
		return fmt.Sprintf("building %d package%s", pr.packages, plural(pr.packages))
	}
	p := pr.runs
	what := fmt.Sprintf("%d/%d runs", p.Done, p.Total)
	switch p.Phase {
	case resultsfile.Rerun:
		what = "rerunning failed tests: " + what
	case resultsfile.Replay:
		what = "replaying failing seeds: " + what
	}
	noun := "processes"
	if p.Failed == 1 {
		noun = "process"
	}
	what += fmt.Sprintf(", %d %s with failures", p.Failed, noun)
	switch {
	case p.Done >= p.Total:
	case p.Left > 0:
		// The estimate was made when the runs were reported; the time since counts against it.
		what += fmt.Sprintf(", ETA %s", max(p.Left-pr.clock.Since(pr.at), 0).Round(time.Second))
	default:
		what += ", ETA once every package has run once"
	}
	return what
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// end finishes the report: the terminal's line stops being redrawn and is ended, so that what
// is printed next starts on a line of its own.
func (pr *progress) end() {
	if pr.stop != nil {
		close(pr.stop)
		<-pr.stopped
		pr.stop = nil
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.open {
		fmt.Fprintln(pr.w)
		pr.open = false
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
