package runner

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Header opens a results file: what the session was asked to do.
type Header struct {
	Seed     uint64    `json:"seed,string"`
	Runs     int       `json:"runs"`
	Shard    string    `json:"shard,omitempty"`
	Patterns []string  `json:"patterns,omitempty"`
	Started  time.Time `json:"started"`
}

// End closes a results file; a file without one belongs to a session that was killed.
type End struct {
	Seconds     float64 `json:"seconds"`
	Interrupted bool    `json:"interrupted,omitempty"`
}

// resultLine is one line of a results file: exactly one field is set.
type resultLine struct {
	Header *Header `json:"header,omitempty"`
	Record *Record `json:"record,omitempty"`
	End    *End    `json:"end,omitempty"`
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
	w.write(resultLine{Header: &h})
	return w, w.err
}

func (w *ResultsFile) write(l resultLine) {
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
func (w *ResultsFile) Add(r Record) { w.write(resultLine{Record: &r}) }

// Close writes the end line and closes the file. It returns the first error of any write.
func (w *ResultsFile) Close(e End) error {
	w.write(resultLine{End: &e})
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
}

// MergeResults reads results files, typically one per shard. The files must come from
// sessions with the same base seed, and no run of a package may appear twice (shards that
// overlap would count runs twice).
func MergeResults(paths ...string) (*Merged, error) {
	if len(paths) == 0 {
		return nil, errors.New("runner: merge: no results files given")
	}
	m := &Merged{}
	type runKey struct {
		pkg   string
		run   int
		phase Phase
	}
	seen := map[runKey]string{}
	for _, path := range paths {
		if err := m.read(path, func(r *Record) error {
			if r.BuildError != "" {
				return nil
			}
			k := runKey{r.ImportPath, r.Run, r.Phase}
			if prev, dup := seen[k]; dup && r.Phase != Replay {
				return fmt.Errorf("runner: merge: run %d of %s is in both %s and %s: the shards overlap", r.Run, r.ImportPath, prev, path)
			}
			seen[k] = path
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for _, h := range m.Headers[1:] {
		if h.Seed != m.Headers[0].Seed || h.Runs != m.Headers[0].Runs {
			return nil, fmt.Errorf("runner: merge: the files come from different sessions (seed %d, %d runs vs seed %d, %d runs)",
				m.Headers[0].Seed, m.Headers[0].Runs, h.Seed, h.Runs)
		}
	}
	return m, nil
}

func (m *Merged) read(path string, check func(*Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	ended, headed := false, false
	var bad error // a line that did not parse: forgiven only if it is the last one
	for n := 1; sc.Scan(); n++ {
		if bad != nil {
			return bad
		}
		var l resultLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			// The last line of a session that was killed may be cut short.
			bad = fmt.Errorf("runner: %s:%d: %v", path, n, err)
			continue
		}
		switch {
		case l.Header != nil:
			m.Headers = append(m.Headers, *l.Header)
			headed = true
		case l.Record != nil:
			if err := check(l.Record); err != nil {
				return err
			}
			m.Records = append(m.Records, *l.Record)
		case l.End != nil:
			ended = true
			m.Seconds = max(m.Seconds, l.End.Seconds)
			m.Incomplete = m.Incomplete || l.End.Interrupted
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("runner: %s: %v", path, err)
	}
	if !headed {
		return fmt.Errorf("runner: %s is not a spreadcheck results file (no header)", path)
	}
	m.Incomplete = m.Incomplete || !ended
	return nil
}
