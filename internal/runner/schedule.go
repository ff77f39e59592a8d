package runner

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// Batch sizing: a process makes enough runs that its start-up costs at most overhead of its
// work, but no more than maxBatch, a tenth of the timeout (which applies to the whole
// process), and a share of the job's remaining runs that keeps every worker busy to the end.
// When that work is short (shortWork), the share is an equal one of what is left to do, the
// runs still queued and those the job's running processes have yet to make (estimated from
// the pace), so that the workers end together without a tail of small processes, each paying
// a start-up for a few runs (three quarters of it until a batch has ended and measured the
// pace, so that a second round evens out the first; and no fewer runs, nor a rest of fewer,
// than take as long as the quickest process, a start-up). Otherwise it is half of an equal share
// of the queued runs, so that the batches shrink as the job ends and no worker waits long for
// the last.
const (
	overhead  = 0.05
	maxBatch  = 1000
	minRun    = 100 * time.Microsecond // below package testing's resolution of 10 ms, assume this
	shortWork = 2 * time.Second
)

// scheduler hands out processes to the workers: it splits each job into batches of runs,
// sized from the pace measured so far, and queues again what a crash or hang cut short.
type scheduler struct {
	ctx    context.Context
	cancel context.CancelFunc
	opts   *Options
	par    int

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []Job
	running  int
	flights  map[int]flight // the running processes, by Job.flight
	flown    int            // the last Job.flight given
	done     int
	total    int
	pace     map[string]*pace
	tally    map[string]map[string]*testreport.Counts // main-pass counts per package and test, for Precision
	deadline time.Time                                // from Until
	err      error
	now      func() time.Time  // the clock of the pace estimates; the tests set it
	phaseOf  resultsfile.Phase // the jobs' phase, for Progress
}

// flight is a running process: its runs and when it started.
type flight struct {
	key   string // its paceKey
	count int
	start time.Time
}

// pace sums what the processes of one package took: wall time, runs and the tests' own time;
// it counts those of several runs (batches) and keeps the quickest.
type pace struct {
	procs, runs, batches int
	wall, testing        float64
	quickest             float64 // the shortest wall time of a process: a start-up and a run
	batchWall            float64 // the wall time of the processes of several runs
	batchRuns            int     // and their runs
}

// perRunWall is a run's wall time, start-up shared, as the processes still to come will make
// it: those of several runs, once one has ended, since the first processes of one run each
// (made to measure the pace) pay a whole start-up per run.
func (pc *pace) perRunWall() float64 {
	if pc.batchRuns > 0 {
		return pc.batchWall / float64(pc.batchRuns)
	}
	return pc.wall / float64(pc.runs)
}

func newScheduler(ctx context.Context, jobs []Job, opts *Options, par int) *scheduler {
	ctx, cancel := context.WithCancel(ctx)
	s := &scheduler{ctx: ctx, cancel: cancel, opts: opts, par: par, pace: map[string]*pace{},
		tally: map[string]map[string]*testreport.Counts{}, flights: map[int]flight{}, now: time.Now}
	s.cond = sync.NewCond(&s.mu)
	if opts.Until > 0 {
		s.deadline = time.Now().Add(opts.Until)
	}
	for _, j := range jobs {
		j.Count, j.Stride = max(j.Count, 1), max(j.Stride, 1)
		s.queue = append(s.queue, j)
		s.total += j.Count
		s.phaseOf = j.Phase
	}
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.cond.Broadcast()
	})
	return s
}

func (s *scheduler) close() { s.cancel() }

func (s *scheduler) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// next returns the next process to run, waiting while none is queued but running processes
// may still queue some; false means there is nothing left.
func (s *scheduler) next() (Job, uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.ctx.Err() != nil || s.pastDeadline() {
			return Job{}, 0, false
		}
		if j, ok := s.take(); ok {
			s.running++
			s.flown++
			j.flight = s.flown
			s.flights[j.flight] = flight{key: paceKey(&j), count: j.Count, start: s.now()}
			return j, seedOf(&j, s.opts.Seed, j.Run), true
		}
		if s.running == 0 {
			return Job{}, 0, false
		}
		s.cond.Wait()
	}
}

func (s *scheduler) pastDeadline() bool { return !s.deadline.IsZero() && time.Now().After(s.deadline) }

// take splits the next process off the head of the queue and puts the rest of the job at the
// back, so that the packages take turns. It drops the jobs whose tests are all precise enough.
func (s *scheduler) take() (Job, bool) {
	for len(s.queue) > 0 {
		j := s.queue[0]
		s.queue = s.queue[1:]
		if !s.narrow(&j) {
			s.done += j.Count
			continue
		}
		b := s.batch(&j)
		if b < j.Count {
			rest := j
			rest.Run, rest.Count = j.Run+b*j.Stride, j.Count-b
			s.queue = append(s.queue, rest)
			j.Count = b
		}
		return j, true
	}
	return Job{}, false
}

// narrow limits a main-pass job to the top-level tests whose intervals are still wider than
// Options.Precision, and reports whether any is.
func (s *scheduler) narrow(j *Job) bool {
	if s.opts.Precision <= 0 || j.Phase != resultsfile.Main {
		return true
	}
	tests := s.tally[j.Package.ImportPath]
	if len(tests) == 0 {
		return true
	}
	var wide []string
	for name, c := range tests {
		r := testreport.RateOf(*c)
		// A test that only skips has nothing to measure.
		if top := testout.TopName(name); name != testout.PackageTest && c.Runs > 0 && r.Upper-r.Lower >= s.opts.Precision && !slices.Contains(wide, top) {
			wide = append(wide, top)
		}
	}
	if len(wide) == 0 {
		return false
	}
	slices.Sort(wide)
	j.Filter = OnlyTests(s.filter(j), wide)
	return true
}

// batch returns how many of the job's runs its next process makes.
func (s *scheduler) batch(j *Job) int {
	switch {
	case j.Seed != 0 || j.Count == 1:
		return j.Count // one process: its seed is the job's
	case s.opts.Batch > 0:
		return min(s.opts.Batch, j.Count)
	}
	pc := s.pace[paceKey(j)]
	if pc == nil || pc.procs == 0 {
		return 1 // measure first
	}
	perRun := max(pc.testing/float64(pc.runs), minRun.Seconds())
	startup := max(pc.wall-pc.testing, 0) / float64(pc.procs)
	b := min(BatchFor(seconds(startup), seconds(perRun)), s.share(j, pc, perRun), maxBatch)
	b = min(b, int(j.timeout(s.opts).Seconds()/10/perRun))
	if !s.deadline.IsZero() {
		b = min(b, int(time.Until(s.deadline).Seconds()/perRun))
	}
	return max(b, 1)
}

// BatchFor returns how many runs one process makes when starting it takes startup and a run
// takes perRun: enough that the start-up costs at most 5% of the process's work, and no more
// than 1,000. It is where Options.Batch 0 starts from, before it shares a job's runs among the
// workers and keeps each process within a tenth of the timeout.
func BatchFor(startup, perRun time.Duration) int {
	b := max(startup.Seconds(), 0) / (overhead * max(perRun, minRun).Seconds())
	if b >= maxBatch {
		return maxBatch
	}
	return int(b) + 1
}

// share returns the most of the job's queued runs that a worker takes now, perRun being a
// run's estimated time (see Batch sizing).
func (s *scheduler) share(j *Job, pc *pace, perRun float64) int {
	if float64(j.Count)*perRun/float64(s.par) >= shortWork.Seconds() {
		return (j.Count + 2*s.par - 1) / (2 * s.par)
	}
	left := j.Count + s.inFlight(paceKey(j), pc)
	share := (left + s.par - 1) / s.par
	if pc.batches == 0 {
		// The pace of a run is a guess until a process of several runs has ended: keep a
		// quarter back for a second round, which then ends the workers together.
		share = (3*share + 3) / 4
	}
	// No process for fewer runs than a start-up takes, nor a rest of fewer: it would cost
	// more than the waiting it saves.
	least := 1
	if perRunWall := pc.wall / float64(pc.runs); perRunWall > 0 {
		least = int(min(math.Ceil(pc.quickest/perRunWall), maxBatch))
	}
	if share = max(share, least); j.Count-share < least {
		share = j.Count
	}
	return share
}

// inFlight estimates how many runs the running processes of a job have yet to make: each
// has made one run per average wall time of a run of the job so far (start-up included, so
// that the estimate errs towards more runs left).
func (s *scheduler) inFlight(key string, pc *pace) int {
	perRun := pc.wall / float64(max(pc.runs, 1))
	left := 0
	for _, f := range s.flights {
		if f.key != key {
			continue
		}
		made := f.count // a pace of zero: all made
		if perRun > 0 {
			made = int(min(s.now().Sub(f.start).Seconds()/perRun, float64(f.count)))
		}
		left += f.count - max(made, 0)
	}
	return left
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func paceKey(j *Job) string { return j.Package.ImportPath + "\x00" + j.CPU }

// finished books a process's end: its runs are done, except those queued again (requeued).
func (s *scheduler) finished(j *Job, r *resultsfile.Record, requeued []Job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	delete(s.flights, j.flight)
	n := 0
	for _, q := range requeued {
		n += q.Count
	}
	s.queue = append(requeued, s.queue...) // finish what was cut before starting more
	s.done += j.Count - n
	if len(requeued) == 0 && !r.Interrupted && r.Error == "" {
		s.learn(j, r)
	}
	if r.Phase == resultsfile.Main {
		s.count(r)
		if s.opts.FailFast && r.Failed() {
			s.cancel()
		}
	}
	s.cond.Broadcast()
}

// count adds a main-pass record to the tallies that Precision reads.
func (s *scheduler) count(r *resultsfile.Record) {
	if s.opts.Precision <= 0 {
		return
	}
	tests := s.tally[r.ImportPath]
	if tests == nil {
		tests = map[string]*testreport.Counts{}
		s.tally[r.ImportPath] = tests
	}
	for _, t := range r.Tests {
		if tests[t.Name] == nil {
			tests[t.Name] = &testreport.Counts{}
		}
		tests[t.Name].Add(t.Outcome)
	}
}

// learn adds a complete process to its package's pace.
func (s *scheduler) learn(j *Job, r *resultsfile.Record) {
	pc := s.pace[paceKey(j)]
	if pc == nil {
		pc = &pace{}
		s.pace[paceKey(j)] = pc
	}
	if pc.procs == 0 || r.Seconds < pc.quickest {
		pc.quickest = r.Seconds
	}
	pc.procs++
	pc.runs += j.Count
	if j.Count > 1 {
		pc.batches++
		pc.batchWall += r.Seconds
		pc.batchRuns += j.Count
	}
	pc.wall += r.Seconds
	for _, t := range r.Tests {
		if !strings.Contains(t.Name, "/") && t.Name != testout.PackageTest {
			pc.testing += t.Seconds
		}
	}
}

func (s *scheduler) progress() (done, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done, s.total
}

// phase returns the phase of the scheduler's jobs (Main when it had none).
func (s *scheduler) phase() resultsfile.Phase {
	if s.phaseOf == "" {
		return resultsfile.Main
	}
	return s.phaseOf
}

// left estimates the time the runs not yet made will take (see Progress.Left): for each
// package, its queued runs and those its running processes have yet to make, at the wall
// time per run its finished processes took (perRunWall), over the workers. It is 0 when a package with
// runs left has no measured pace.
func (s *scheduler) left() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	runs := map[string]int{}
	for _, j := range s.queue {
		runs[paceKey(&j)] += j.Count
	}
	for _, f := range s.flights {
		if _, ok := runs[f.key]; !ok {
			runs[f.key] = 0 // its running processes' runs are counted below
		}
	}
	var work float64
	for key, n := range runs {
		pc := s.pace[key]
		if pc == nil || pc.runs == 0 {
			return 0
		}
		work += float64(n+s.inFlight(key, pc)) * pc.perRunWall()
	}
	return seconds(work / float64(s.par))
}

// restart returns the jobs that make again what a crash or hang cut short: the top-level
// tests of the run under way that did not end (in a process of their own, filtered to them),
// and the runs the process did not reach. It sets r.Cut and r.Restarted.
func (s *scheduler) restart(j *Job, r *resultsfile.Record, p *testout.Parser) []Job {
	if j.Phase == resultsfile.Replay {
		return nil
	}
	iter, done := p.Stopped()
	var more []Job
	// Without one test done in that run, the same start would end the same way (a crash in
	// init or TestMain): the run is the package's failure, and not made again.
	if names := s.unfinished(j, p, iter, done); len(names) > 0 {
		r.Cut = len(names)
		cut := *j
		cut.Run, cut.Count = j.Run+iter*j.Stride, 1
		cut.Filter = OnlyTests(s.filter(j), names)
		more = append(more, cut)
		r.Restarted = true
	}
	if rest := j.Count - iter - 1; rest > 0 {
		later := *j
		later.Run, later.Count, later.Seed = j.Run+(iter+1)*j.Stride, rest, 0
		more = append(more, later)
	}
	return more
}

func (s *scheduler) filter(j *Job) string {
	if j.Filter != "" {
		return j.Filter
	}
	return s.opts.Run
}

// unfinished returns the top-level tests of run iter that did not end: those the filter
// selects (as run 0 showed, or the binary's -test.list says when the process stopped in its
// first run) minus those done.
func (s *scheduler) unfinished(j *Job, p *testout.Parser, iter int, done map[string]bool) []string {
	if len(done) == 0 {
		return nil
	}
	var all []string
	if iter > 0 {
		for _, t := range p.Order {
			if t.Iter == 0 && !strings.Contains(t.Name, "/") {
				all = append(all, t.Name)
			}
		}
	} else {
		all = selected(listTests(s.ctx, &j.Package, j.timeout(s.opts)), s.filter(j), s.opts.Skip)
	}
	var names []string
	for _, n := range all {
		if !done[n] {
			names = append(names, n)
		}
	}
	return names
}

// listTests returns the top-level tests, fuzz targets and examples of a test binary.
func listTests(ctx context.Context, p *testbin.Package, timeout time.Duration) []string {
	ctx, cancel := context.WithTimeout(ctx, min(timeout, time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Binary, "-test.list=.")
	cmd.Dir, cmd.SysProcAttr = p.Dir, testbin.ProcAttr()
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if n := sc.Text(); !strings.HasPrefix(n, "Benchmark") && n != "" && !strings.ContainsAny(n, " \t") {
			names = append(names, n)
		}
	}
	return names
}

// selected returns the names that the -run pattern run selects at the top level and the -skip
// pattern skip does not skip there, as package testing decides.
func selected(names []string, run, skip string) []string {
	var out []string
	for _, n := range names {
		if MatchesTop(run, n, true) && !skipsTop(skip, n) {
			out = append(out, n)
		}
	}
	return out
}

// MatchesTop reports whether an alternative of the -run or -skip pattern picks the top-level
// test name by its first element; an empty pattern picks every test when empty is true.
func MatchesTop(pattern, name string, empty bool) bool {
	if pattern == "" {
		return empty
	}
	for _, alt := range splitPattern(pattern) {
		if re, err := regexp.Compile(alt[0]); err == nil && re.MatchString(name) {
			return true
		}
	}
	return false
}

// skipsTop reports whether -skip skips the whole top-level test: an alternative of one
// element that matches it.
func skipsTop(skip, name string) bool {
	for _, alt := range splitPattern(skip) {
		if len(alt) == 1 && MatchesTop(alt[0], name, false) {
			return true
		}
	}
	return false
}

// OnlyTests narrows a -run pattern to the named top-level tests, keeping what each of its
// alternatives asks of subtests: the -test.run of a process that runs those tests, as the
// pattern picks their subtests.
func OnlyTests(pattern string, names []string) string {
	if pattern == "" {
		return "^(" + quoteAll(names) + ")$"
	}
	var alts []string
	for _, alt := range splitPattern(pattern) {
		var mine []string
		for _, n := range names {
			if MatchesTop(alt[0], n, true) {
				mine = append(mine, n)
			}
		}
		if len(mine) > 0 {
			alts = append(alts, strings.Join(append([]string{"^(" + quoteAll(mine) + ")$"}, alt[1:]...), "/"))
		}
	}
	return strings.Join(alts, "|")
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return strings.Join(q, "|")
}
