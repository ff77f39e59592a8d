package resultsfile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// Header opens a results file: what the session was asked to do. The shards of one session
// agree on everything but Shard and Started.
type Header struct {
	Seed     uint64    `json:"seed,string"`        // the base seed
	Runs     int       `json:"runs"`               // runs asked for per package
	Shard    string    `json:"shard,omitempty"`    // this file's shard ("2/4"), if any
	Patterns []string  `json:"patterns,omitempty"` // the package patterns
	Flags    []string  `json:"flags,omitempty"`    // the build and test flags, -run and -skip
	Started  time.Time `json:"started"`            // when the session started
}

// session returns what the shards of one session share, to compare.
func (h Header) session() string {
	h.Shard, h.Started = "", time.Time{}
	b, _ := json.Marshal(h)
	return string(b)
}

// End closes a results file; a file without one belongs to a session that was killed.
type End struct {
	Seconds     float64 `json:"seconds"`               // the session's wall time
	Interrupted bool    `json:"interrupted,omitempty"` // the session was stopped before it made every run
}

// Line is one line of a results file: exactly one field is set.
type Line struct {
	Header *Header `json:"header,omitempty"` // the first line
	Record *Record `json:"record,omitempty"` // one test process, written as it finished
	End    *End    `json:"end,omitempty"`    // the last line; missing when the session was killed
}

// ResultsFile appends a session's records to a file of JSON lines as they arrive, so that
// nothing already run is lost if the session dies, and so that the files of several shards
// can be merged into one report. Its methods are safe for concurrent use.
type ResultsFile struct {
	mu  sync.Mutex
	f   *os.File
	err error
}

// CreateResults creates (or truncates) the file at path and writes the header.
func CreateResults(path string, h Header) (*ResultsFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := &ResultsFile{f: f}
	w.write(Line{Header: &h})
	return w, w.err
}

func (w *ResultsFile) write(l Line) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	b, err := json.Marshal(l)
	if err == nil {
		// One write per line: the file is unbuffered, so every finished run is on disk.
		_, err = w.f.Write(append(b, '\n'))
	}
	w.err = err
}

// Add appends one record.
func (w *ResultsFile) Add(r Record) { w.write(Line{Record: &r}) }

// Close writes the end line and closes the file. It returns the first error of any write.
func (w *ResultsFile) Close(e End) error {
	w.write(Line{End: &e})
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(w.err, w.f.Close())
}

// Name returns the file's path.
func (w *ResultsFile) Name() string { return w.f.Name() }

// Merged is what MergeResults read from several results files.
type Merged struct {
	Headers []Header
	Records []Record
	Seconds float64 // the longest session: shards run side by side
	// Incomplete says that a session was interrupted or never wrote its end line.
	Incomplete bool
	// Missing lists the shards ("2/4") of the session that no file holds.
	Missing []string
}

// MergeResults reads results files, typically one per shard. The files must come from one
// session: the same base seed, runs, packages and flags; no run of a test may appear twice
// (shards that overlap would count it twice); and the shards that no file holds are listed
// in Missing.
func MergeResults(paths ...string) (*Merged, error) {
	if len(paths) == 0 {
		return nil, errors.New("runner: merge: no results files given")
	}
	m := &Merged{}
	seen := map[runKey]string{}
	for _, path := range paths {
		check := func(r *Record) error { return noOverlap(seen, r, path) }
		if err := m.read(path, check); err != nil {
			return nil, err
		}
	}
	if err := m.oneSession(paths); err != nil {
		return nil, err
	}
	return m, nil
}

// runKey names one run of one test.
type runKey struct {
	pkg, cpu, test string
	phase          Phase
	run            int
}

func noOverlap(seen map[runKey]string, r *Record, path string) error {
	if r.BuildError != "" || r.Phase == Replay {
		return nil
	}
	for _, t := range r.Tests {
		if t.Name == testout.PackageTest {
			continue
		}
		k := runKey{r.ImportPath, r.CPU, t.Name, r.Phase, t.Run}
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("runner: merge: run %d of %s.%s is in both %s and %s: the shards overlap", t.Run, r.ImportPath, t.Name, prev, path)
		}
		seen[k] = path
	}
	return nil
}

// oneSession checks that the headers describe shards of one session, and lists the missing.
func (m *Merged) oneSession(paths []string) error {
	first := m.Headers[0]
	shards := map[int]bool{}
	total := 0
	for i, h := range m.Headers {
		if h.session() != first.session() {
			return fmt.Errorf("runner: merge: %s and %s come from different sessions (%s vs %s)", paths[0], paths[i], first.describe(), h.describe())
		}
		s, err := ParseShard(h.Shard)
		if h.Shard == "" {
			s, err = Shard{1, 1}, nil
		}
		if err != nil || (total != 0 && s.N != total) || shards[s.K] {
			return fmt.Errorf("runner: merge: %s is shard %q, which does not fit with the others' shards", paths[i], h.Shard)
		}
		total, shards[s.K] = s.N, true
	}
	for k := 1; k <= total; k++ {
		if !shards[k] {
			m.Missing = append(m.Missing, fmt.Sprintf("%d/%d", k, total))
		}
	}
	return nil
}

// describe says what a session was asked to do, to tell sessions apart in an error.
func (h Header) describe() string {
	return fmt.Sprintf("seed %d, %d runs of %s with flags %q", h.Seed, h.Runs, strings.Join(h.Patterns, " "), h.Flags)
}

func (m *Merged) read(path string, check func(*Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	headers, ended := len(m.Headers), false
	var bad error // a line that did not parse: forgiven only if it is the last one
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n') // no limit on a line's length
		if err != nil && err != io.EOF {
			return fmt.Errorf("runner: %s: %v", path, err)
		}
		if len(line) == 0 {
			break
		}
		if bad != nil {
			return bad
		}
		var l Line
		if err := json.Unmarshal(line, &l); err != nil {
			// The last line of a session that was killed may be cut short.
			bad = fmt.Errorf("runner: %s:%d: %v", path, n, err)
		} else if err := m.add(&l, check); err != nil {
			return err
		}
		ended = ended || l.End != nil
	}
	if len(m.Headers) == headers {
		return fmt.Errorf("runner: %s is not a spreadcheck results file (no header)", path)
	}
	m.Incomplete = m.Incomplete || !ended
	return nil
}

// add takes in one line of a results file.
func (m *Merged) add(l *Line, check func(*Record) error) error {
	switch {
	case l.Header != nil:
		m.Headers = append(m.Headers, *l.Header)
	case l.Record != nil:
		if err := check(l.Record); err != nil {
			return err
		}
		m.Records = append(m.Records, *l.Record)
	case l.End != nil:
		m.Seconds = max(m.Seconds, l.End.Seconds)
		m.Incomplete = m.Incomplete || l.End.Interrupted
	}
	return nil
}
