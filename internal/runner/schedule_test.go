package runner

import (
	"context"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// TestBatchFor: the start-up costs at most 5% of a process's work, from one run when
// starting costs nothing to 1,000 when a run costs nothing; a run too short for package
// testing to time (under 10 ms) is taken as 100µs.
func TestBatchFor(t *testing.T) {
	for _, c := range []struct {
		startup, perRun time.Duration
		want            int
	}{
		{0, time.Millisecond, 1},
		{-time.Second, time.Millisecond, 1},
		{10 * time.Millisecond, time.Millisecond, 201},
		{15 * time.Millisecond, 200 * time.Millisecond, 2},
		{time.Second, 0, 1000},
		{time.Millisecond, 0, 201},
		{1 << 62, time.Nanosecond, 1000},
	} {
		if got := BatchFor(c.startup, c.perRun); got != c.want {
			t.Errorf("BatchFor(%v, %v) = %d, want %d", c.startup, c.perRun, got, c.want)
		}
	}
}

// TestBatchSharesWhatIsLeft: when a job's work is short, a worker takes an equal share of
// what is left to do, counting the runs the job's running processes have yet to make, so
// that the workers end together without a tail of small processes; three quarters of it
// until a batch of several runs has ended, so that a second round, sized from that batch's
// pace, evens out the first; no process, nor rest, of fewer runs than a start-up takes.
// Measured here: processes of one run taking 5 ms, runs too short to time; then a batch of
// 187 runs that took 200 ms.
func TestBatchSharesWhatIsLeft(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	measured := pace{procs: 2, runs: 2, wall: 0.010, quickest: 0.005}
	batched := pace{procs: 3, runs: 189, batches: 1, wall: 0.210, quickest: 0.004}
	for _, c := range []struct {
		name    string
		pace    pace
		queued  int
		flights []int         // the runs of the job's running processes
		elapsed time.Duration // since they started
		want    int
	}{
		// The first worker to end its measuring run, the other still at its own: three
		// quarters of an equal share of the 499 runs left.
		{"first", measured, 498, []int{1}, 0, 188},
		// The second, the first having just started its 188: three quarters of half the 498
		// runs left (it took half of the 310 queued, and the tail went on halving down to
		// single runs).
		{"second", measured, 310, []int{188}, 0, 187},
		// After the first round: the first worker's batch has ended, the second's has 25
		// runs to go by the pace so far (1.1 ms a run); the 123 queued and those 25 are
		// shared equally.
		{"second round", batched, 123, []int{187}, 180 * time.Millisecond, 74},
		// The second worker then takes the rest, the first having just started its 74.
		{"last", batched, 49, []int{74}, 0, 49},
		// Another package's processes do not count.
		{"alone", batched, 100, nil, 0, 50},
		// No process for fewer runs than a start-up takes (4 ms, 1.1 ms a run), nor a rest
		// of fewer: of 10 runs, half; of 7, all rather than 4 and then 3; of 6, all rather
		// than 3 and 3.
		{"halves", batched, 10, nil, 0, 5},
		{"no small rest", batched, 7, nil, 0, 7},
		{"no small batch", batched, 6, nil, 0, 6},
	} {
		s := newScheduler(context.Background(), nil, &Options{Runs: 500}, 2)
		s.now = func() time.Time { return t0 }
		j := Job{Package: testbin.Package{ImportPath: "p"}, Count: c.queued}
		pc := c.pace
		s.pace[paceKey(&j)] = &pc
		for i, n := range c.flights {
			s.flights[i+1] = flight{key: paceKey(&j), count: n, start: t0.Add(-c.elapsed)}
		}
		s.flights[99] = flight{key: "q\x00", count: 400, start: t0}
		if got := min(s.batch(&j), j.Count); got != c.want {
			t.Errorf("%s: %d queued, running %v for %v: batch %d, want %d", c.name, c.queued, c.flights, c.elapsed, got, c.want)
		}
		s.close()
	}
	// Processes of a pace measured at no time at all have made their runs.
	s := newScheduler(context.Background(), nil, &Options{Runs: 500}, 2)
	defer s.close()
	s.flights[1] = flight{key: "p\x00", count: 250, start: time.Now()}
	if left := s.inFlight("p\x00", &pace{procs: 2, runs: 2}); left != 0 {
		t.Errorf("at a pace of no time, %d runs left in flight, want 0", left)
	}
}

// TestBatchLongWorkHalves: when a job's work is long, a worker takes half of an equal share
// of the queued runs, so that the batches shrink as the job ends.
func TestBatchLongWorkHalves(t *testing.T) {
	s := newScheduler(context.Background(), nil, &Options{Runs: 1000}, 2)
	defer s.close()
	j := Job{Package: testbin.Package{ImportPath: "p"}, Count: 1000}
	// A second of start-up, 10 ms a run: 5 s of work for each worker.
	s.pace[paceKey(&j)] = &pace{procs: 1, runs: 1, wall: 1.01, testing: 0.01}
	s.flights[1] = flight{key: paceKey(&j), count: 1000, start: time.Now()}
	if got := s.batch(&j); got != 250 {
		t.Errorf("batch %d, want 250", got)
	}
}
