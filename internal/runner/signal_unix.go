//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"
)

// quit asks a hung test binary for a goroutine dump: the Go runtime prints every goroutine's
// stack on SIGQUIT before it exits.
func quit(p *os.Process) error { return p.Signal(syscall.SIGQUIT) }

// detach starts the test binary in its own process group, so that a Ctrl-C in the terminal
// reaches only the runner, which then ends its runs itself and reports what finished.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
