package runner

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// exited is how one test process ended.
type exited struct {
	code        int  // the exit status; -1 when a signal ended it
	hung        bool // the watchdog stopped it
	quitIgnored bool // it outlived the watchdog's SIGQUIT and was killed
	interrupted bool // the session was stopped while it ran, and it was killed
	err         error
	seconds     float64
}

// proc describes one start of a test binary.
type proc struct {
	bin, dir  string
	args, env []string
	out       *os.File // receives stdout and stderr, from offset 0
	timeout   time.Duration
}

// watchdogGrace is how long after -test.timeout the runner waits for the binary's own timeout
// panic before it sends SIGQUIT itself (a goroutine dump) and, killGrace later, SIGKILL to the
// process group. They are variables so that the tests can shorten them.
var (
	watchdogGrace = 5 * time.Second
	killGrace     = 10 * time.Second
)

// Hooks for the tests, which call them at chosen points to make faults deterministic.
var (
	startCmd   = (*exec.Cmd).Start
	afterStart = func() {} // called once the process has started
	afterExit  = func() {} // called once the process has exited and its group is ended
)

// startRetries bounds the attempts to start a process while the machine is out of process
// slots, memory or file descriptors (-p 1000 on a small machine); the waits double from 10 ms.
const startRetries = 10

// runProcess runs one test process to its end and kills what it left behind. The output goes
// straight to a file, with no pipe: a child that inherits it cannot hold up the run, a copy
// cannot be cut short under load, and a long session's output never sits in memory.
func runProcess(ctx context.Context, p proc) exited {
	t0 := time.Now()
	cmd, err := startWithRetry(ctx, p)
	if err != nil {
		return exited{code: -1, err: err, interrupted: ctx.Err() != nil}
	}
	afterStart()
	e := watch(ctx, cmd, p.timeout)
	endGroup(cmd.Process.Pid) // its children: a sleep 1000 must not outlive the run
	e.seconds = time.Since(t0).Seconds()
	afterExit()
	return e
}

func startWithRetry(ctx context.Context, p proc) (*exec.Cmd, error) {
	wait := 10 * time.Millisecond
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cmd := exec.Command(p.bin, p.args...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = p.dir, p.env, p.out, p.out
		cmd.SysProcAttr = procAttr()
		err := startCmd(cmd)
		if err == nil || !transient(err) || i == startRetries {
			return cmd, err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		wait = min(2*wait, time.Second)
	}
}

// watch waits for the process, stopping it when the session is stopped or the watchdog fires.
func watch(ctx context.Context, cmd *exec.Cmd, timeout time.Duration) exited {
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	dog := time.NewTimer(timeout)
	defer dog.Stop()
	var e exited
	select {
	case <-done:
	case <-ctx.Done():
		endGroup(cmd.Process.Pid)
		<-done
		// A process that exited by itself just before keeps its status: it finished.
		e.interrupted = cmd.ProcessState.ExitCode() == -1
	case <-dog.C:
		e.hung = true
		quit(cmd.Process)
		e.quitIgnored = !waitFor(done, killGrace, ctx) && ctx.Err() == nil
		endGroup(cmd.Process.Pid)
		<-done
	}
	e.code = cmd.ProcessState.ExitCode()
	return e
}

// waitFor reports whether done closes within d (or until ctx ends).
func waitFor(done <-chan struct{}, d time.Duration, ctx context.Context) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}
