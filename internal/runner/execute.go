package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// Execute runs the jobs, opts.Parallel processes at a time, and returns the records of the
// processes, in the order they finished. A process that crashes or hangs ends only its run:
// the tests it cut short and its remaining runs are made in new processes.
//
// When ctx is cancelled, Execute starts no more processes and kills the running ones; every
// test that had ended by then is kept (an interrupt loses no finished run), and it returns
// ctx's error. Its other error is a worker's failure to make a file for the output.
func Execute(ctx context.Context, jobs []Job, opts Options) ([]resultsfile.Record, error) {
	par := opts.Processes()
	s := newScheduler(ctx, jobs, &opts, par)
	defer s.close()
	recs := make(chan resultsfile.Record)
	var wg sync.WaitGroup
	for range par {
		wg.Go(func() { s.work(recs) })
	}
	go func() { wg.Wait(); close(recs) }()
	out := s.collect(recs)
	if s.err != nil {
		return out, s.err
	}
	return out, ctx.Err()
}

// work is one worker: it runs processes, one at a time, until the scheduler has none left.
func (s *scheduler) work(recs chan<- resultsfile.Record) {
	out, err := outputFile()
	if err != nil {
		s.fail(err)
		return
	}
	defer func() { out.Close(); os.Remove(out.Name()) }()
	for {
		j, seed, ok := s.next()
		if !ok {
			return
		}
		r, more := s.runOne(&j, seed, out)
		s.finished(&j, &r, more)
		recs <- r
	}
}

// collect hands the records to the callbacks, one at a time, and returns them.
func (s *scheduler) collect(in <-chan resultsfile.Record) []resultsfile.Record {
	start := time.Now()
	var recs []resultsfile.Record
	failed := 0
	report := func() {
		done, total := s.progress()
		s.opts.OnProgress(Progress{Phase: s.phase(), Done: done, Total: total, Failed: failed, Elapsed: time.Since(start), Left: s.left()})
	}
	if s.opts.OnProgress != nil {
		report() // the runs have started: say so before the first process ends
	}
	for r := range in {
		recs = append(recs, r)
		if r.Failed() {
			failed++
		}
		if s.opts.OnRecord != nil {
			s.opts.OnRecord(r)
		}
		if s.opts.OnProgress != nil {
			report()
		}
	}
	return recs
}

// runOne runs one process of a job and reads its output into a record. It returns the jobs
// that make again what a crash or hang in the process cut short.
func (s *scheduler) runOne(j *Job, seed uint64, out *os.File) (r resultsfile.Record, more []Job) {
	r = resultsfile.Record{Package: j.Package, Run: j.Run, Count: j.Count, Stride: j.Stride, Seed: seed, Phase: j.Phase,
		Filter: j.Filter, CPU: j.CPU, Env: j.Env}
	r.Flags, r.Args = s.replayFlags(j), s.opts.Args
	if err := rewind(out); err != nil {
		r.Error = err.Error()
		return r, nil
	}
	e := testbin.RunProcess(s.ctx, testbin.Proc{Bin: j.Package.Binary, Dir: j.Package.Dir, Args: binaryArgs(j, s.opts),
		Env: runEnv(j, seed), Out: out, Timeout: j.timeout(s.opts) + testbin.WatchdogGrace})
	r.Exit, r.Killed, r.Interrupted, r.Seconds, r.CPUSeconds = e.Code, e.Hung, e.Interrupted, e.Seconds, e.CPUSeconds
	if e.Err != nil {
		r.Error = e.Err.Error()
		return r, nil
	}
	p := testout.NewParser()
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		r.Error = err.Error()
		return r, nil
	}
	if err := p.Parse(out); err != nil {
		r.Error = "reading the output: " + err.Error()
	}
	r.Tests, r.Shuffle = p.Finish(e), p.Shuffle
	r.FillRuns()
	if p.Early {
		more = s.restart(j, &r, p)
	}
	if r.Failed() && s.opts.LogDir != "" {
		r.Log = writeLog(s.opts.LogDir, &r, out)
	}
	return r, more
}

// replayFlags returns the go test flags that replay a process of j: the package's build flags
// and the session's test flags.
func (s *scheduler) replayFlags(j *Job) []string {
	flags := append(slices.Clip(j.Package.Flags), s.opts.TestFlags...)
	if s.opts.Skip != "" {
		flags = append(flags, "-skip="+s.opts.Skip)
	}
	return flags
}

// outputFile returns a file for a worker's processes to write to. On Unix its name is removed
// at once, so that nothing is left behind, whatever ends the runner.
func outputFile() (*os.File, error) {
	f, err := os.CreateTemp("", "spreadcheck-out-*")
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" {
		os.Remove(f.Name())
	}
	return f, nil
}

func rewind(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// writeLog saves a failing process's whole output and returns the file name, or "" if it could
// not.
func writeLog(dir string, r *resultsfile.Record, out *os.File) string {
	path := filepath.Join(dir, logName(r))
	f, err := os.Create(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := fmt.Sprintf("# %s, runs from %d (%s), %s=%d\n", r.ImportPath, r.Run, r.Phase, SeedEnv, r.Seed)
	if _, err := io.WriteString(f, head); err != nil {
		return ""
	}
	if _, err := io.Copy(f, io.NewSectionReader(out, 0, 1<<62)); err != nil {
		return ""
	}
	return path
}
