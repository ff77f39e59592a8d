package audit

import "time"

// Test processes at once. An audit runs the tests that reach a site dozens of times, and
// some suites spend most of a run asleep: a retry library's tests wait through real backoffs
// (go-resiliency's retrier takes 0.12 s a run, nearly all of it in time.Sleep), so that two
// processes at once on two cores leave the machine mostly idle. Where the processes measured
// so far used a small share of their wall time in CPU (user and system, os.ProcessState),
// more of them run at once than there are cores (Config.Parallel): as many as keep their CPU
// demand within the cores, processes × share ≤ cores, and at most oversubscribe times the
// cores. Builds keep Config.Parallel.
//
// Only a low share allows it (at most maxCPUShare): a process that is busy even a third of
// its time would, with more of them running, wait for a core, and its tests would take
// longer than when the baseline measured them. With a low share the added processes are
// mostly asleep and the CPU stays below the cores, so that the waits a test measures (a
// backoff's sleep, a deadline) are those of an audit that did not oversubscribe. The limit
// of each process (a hang's) is stretched by the same factor as the processes (see
// stretched), so that contention from the added processes alone never makes a slow process
// a hang.
const (
	maxCPUShare   = 0.25
	oversubscribe = 8
)

// cost is what measured test processes took: their wall time and their CPU time.
type cost struct{ cpu, wall time.Duration }

// add counts one finished process.
func (l *cost) add(r result) { l.cpu += r.cpu; l.wall += r.elapsed }

func (l cost) plus(o cost) cost { return cost{l.cpu + o.cpu, l.wall + o.wall} }

// heavier returns whichever of two costs used the larger share of its wall time in CPU; an
// unmeasured one (no wall time) gives way to a measured one.
func heavier(a, b cost) cost {
	switch {
	case b.wall <= 0:
		return a
	case a.wall <= 0:
		return b
	case float64(b.cpu)*float64(a.wall) > float64(a.cpu)*float64(b.wall):
		return b
	}
	return a
}

// processesFor returns how many test processes run at once on cores when the processes
// measured so far took cpu of CPU time in wall of wall time: cores, unless the CPU share
// cpu/wall is at most maxCPUShare; then the most processes whose share sums to at most the
// cores, and at most oversubscribe × cores. Without a measurement (no wall time, or no CPU
// time, which a platform that does not report it gives) it is cores.
func processesFor(cores int, cpu, wall time.Duration) int {
	cores = max(cores, 1)
	if wall <= 0 || cpu <= 0 {
		return cores
	}
	share := cpu.Seconds() / wall.Seconds()
	if share > maxCPUShare {
		return cores
	}
	// In whole nanoseconds, so that a share that divides the cores exactly gives their
	// quotient (7 / 0.14 is 49.99... in floating point).
	n := min(int64(cores)*int64(wall)/int64(cpu), int64(oversubscribe*cores))
	return max(int(n), cores)
}

// processesOf returns how many of the jobs' processes run at once on cores: processesFor of
// the job whose measured cost has the largest CPU share, and cores when a job has none
// measured (its tests' share is not known).
func processesOf(cores int, jobs []job) int {
	if len(jobs) == 0 {
		return max(cores, 1)
	}
	var worst cost
	for _, j := range jobs {
		if j.cost.wall <= 0 || j.cost.cpu <= 0 {
			return max(cores, 1)
		}
		worst = heavier(worst, j.cost)
	}
	return processesFor(cores, worst.cpu, worst.wall)
}

// stretched returns a process's limit when procs processes run at once on cores: the limit
// times the ceiling of procs/cores, the most by which sharing the cores with the added
// processes can slow it. A limit of 0 (the runner's default) stays 0.
func stretched(limit time.Duration, procs, cores int) time.Duration {
	cores = max(cores, 1)
	return limit * time.Duration((procs+cores-1)/cores)
}

// shareOf returns the largest CPU share of the jobs' measured costs, for the log.
func shareOf(jobs []job) float64 {
	var worst cost
	for _, j := range jobs {
		worst = heavier(worst, j.cost)
	}
	if worst.wall <= 0 {
		return 0
	}
	return worst.cpu.Seconds() / worst.wall.Seconds()
}
