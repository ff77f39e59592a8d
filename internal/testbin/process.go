package testbin

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// Exit is how one test process ended.
type Exit struct {
	Code        int  // the exit status; -1 when a signal ended it
	Hung        bool // the watchdog stopped it
	QuitIgnored bool // it outlived the watchdog's SIGQUIT and was killed
	Interrupted bool // the session was stopped while it ran, and it was killed
	Err         error
	Seconds     float64
	// CPUSeconds is the user and system CPU time of the process (os.ProcessState), which
	// beside Seconds tells whether it was busy or mostly waited (slept, read the network).
	CPUSeconds float64
}

// Proc describes one start of a test binary.
type Proc struct {
	Bin, Dir  string
	Args, Env []string
	Out       *os.File // receives stdout and stderr, from offset 0
	Timeout   time.Duration
}

// WatchdogGrace is how long after -test.timeout the runner waits for the binary's own timeout
// panic before it sends SIGQUIT itself (a goroutine dump) and, KillGrace later, SIGKILL to the
// process group. They are variables so that the tests can shorten them.
var (
	WatchdogGrace = 5 * time.Second
	KillGrace     = 10 * time.Second
)

// Hooks for the tests, which call them at chosen points to make faults deterministic.
var (
	StartCmd   = (*exec.Cmd).Start
	AfterStart = func() {} // called once the process has started
	AfterExit  = func() {} // called once the process has exited and its group is ended
)

// startRetries bounds the attempts to start a process while the machine is out of process
// slots, memory or file descriptors (-p 1000 on a small machine); the waits double from 10 ms.
const startRetries = 10

// RunProcess runs one test process to its end and kills what it left behind. The output goes
// straight to a file, with no pipe: a child that inherits it cannot hold up the run, a copy
// cannot be cut short under load, and a long session's output never sits in memory.
func RunProcess(ctx context.Context, p Proc) Exit {
	t0 := time.Now()
	cmd, err := startWithRetry(ctx, p)
	if err != nil {
		return Exit{Code: -1, Err: err, Interrupted: ctx.Err() != nil}
	}
	AfterStart()
	e := watch(ctx, cmd, p.Timeout)
	endGroup(cmd.Process.Pid) // its children: a sleep 1000 must not outlive the run
	e.Seconds = time.Since(t0).Seconds()
	AfterExit()
	return e
}

func startWithRetry(ctx context.Context, p Proc) (*exec.Cmd, error) {
	wait := 10 * time.Millisecond
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cmd := exec.Command(p.Bin, p.Args...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = p.Dir, p.Env, p.Out, p.Out
		cmd.SysProcAttr = ProcAttr()
		err := StartCmd(cmd)
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
func watch(ctx context.Context, cmd *exec.Cmd, timeout time.Duration) Exit {
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	dog := time.NewTimer(timeout)
	defer dog.Stop()
	var e Exit
	select {
	case <-done:
	case <-ctx.Done():
		endGroup(cmd.Process.Pid)
		<-done
		// A process that exited by itself just before keeps its status: it finished.
		e.Interrupted = cmd.ProcessState.ExitCode() == -1
	case <-dog.C:
		e.Hung = true
		quit(cmd.Process)
		e.QuitIgnored = !waitFor(done, KillGrace, ctx) && ctx.Err() == nil
		endGroup(cmd.Process.Pid)
		<-done
	}
	e.Code = cmd.ProcessState.ExitCode()
	e.CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
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
