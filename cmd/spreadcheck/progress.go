package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// progress reports progress on stderr: one line rewritten in place on a terminal, and a plain
// line every tenth of the way in a CI log.
type progress struct {
	w         io.Writer
	tty       bool
	open      bool // a terminal line has been written and not ended
	lastTenth int
	lastDone  int
}

func newProgress(w io.Writer) *progress { return &progress{w: w, tty: isTerminal(w)} }

func (pr *progress) update(p runner.Progress) {
	if p.Done < pr.lastDone {
		pr.lastTenth = 0 // a new phase (the reruns) starts counting again
	}
	pr.lastDone = p.Done
	noun := "processes"
	if p.Failed == 1 {
		noun = "process"
	}
	line := fmt.Sprintf("spreadcheck: %d/%d runs, %d %s with failures, %s elapsed",
		p.Done, p.Total, p.Failed, noun, p.Elapsed.Round(time.Second))
	if p.Done < p.Total {
		line += fmt.Sprintf(", ETA %s", p.ETA().Round(time.Second))
	}
	if pr.tty {
		fmt.Fprintf(pr.w, "\r\033[K%s", line)
		pr.open = true
		return
	}
	if tenth := 10 * p.Done / max(p.Total, 1); tenth > pr.lastTenth {
		pr.lastTenth = tenth
		fmt.Fprintln(pr.w, line)
	}
}

// end finishes the terminal line, so that what is printed next starts on a line of its own.
func (pr *progress) end() {
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
