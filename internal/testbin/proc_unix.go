//go:build unix

package testbin

import (
	"errors"
	"os"
	"syscall"
)

// ProcAttr starts a test process in a process group of its own: a Ctrl-C in the terminal
// reaches only the runner, which ends its runs itself, and the runner can end everything the
// test started (a child such as sleep 1000) with one signal to the group.
func ProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(a)
	return a
}

// quit asks a hung test binary for a goroutine dump: the Go runtime prints every goroutine's
// stack on SIGQUIT before it exits.
func quit(p *os.Process) error { return p.Signal(syscall.SIGQUIT) }

// endGroup kills what is left of the process group that pid led: the test's own children,
// which would otherwise run on as orphans (and hold its output open).
func endGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// transient reports whether a failure to start a process is the machine's momentary
// overload (no process slot, memory or file descriptor free), worth trying again.
func transient(err error) bool {
	for _, e := range []syscall.Errno{syscall.EAGAIN, syscall.ENOMEM, syscall.EMFILE, syscall.ENFILE} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
