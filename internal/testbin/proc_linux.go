package testbin

import "syscall"

// dieWithParent makes the kernel kill the test process when the runner dies, however it dies
// (SIGKILL included), instead of letting it run on until its own -test.timeout.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
