package runner

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestShardMerge: three shards written to results files and merged give the same report as
// one session; a shard merged twice, files of other sessions and missing shards are caught.
func TestShardMerge(t *testing.T) {
	pkg := fixture(t, "flaky")
	dir := t.TempDir()
	head := Header{Seed: 5, Runs: 30, Patterns: []string{"./flaky"}, Flags: []string{"-race"}}
	var files []string
	for k := 1; k <= 3; k++ {
		opts := Options{Runs: 30, Seed: 5, Shard: Shard{k, 3}, Parallel: 2, Batch: 1}
		path := filepath.Join(dir, strconv.Itoa(k)+".jsonl")
		h := head
		h.Shard = opts.Shard.String()
		rf, err := CreateResults(path, h)
		if err != nil {
			t.Fatal(err)
		}
		opts.OnRecord = rf.Add
		if _, err := Execute(context.Background(), MainJobs([]Package{pkg}, opts), opts); err != nil {
			t.Fatal(err)
		}
		if err := rf.Close(End{Seconds: 1}); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	m, err := MergeResults(files...)
	if err != nil {
		t.Fatal(err)
	}
	whole := Summarize(run(t, pkg, Options{Runs: 30, Seed: 5, Batch: 1}), SummaryOptions{})
	merged := Summarize(m.Records, SummaryOptions{})
	// What package testing measured of each run's time depends on the load, not on the merge.
	ignore := cmp.Options{cmpopts.IgnoreFields(TestSummary{}, "Duration"), cmpopts.IgnoreFields(Failure{}, "Seconds")}
	if diff := cmp.Diff(whole.Packages, merged.Packages, ignore, cmpopts.IgnoreUnexported(Failure{})); diff != "" || m.Incomplete || len(m.Missing) != 0 {
		t.Errorf("merged shards differ from one session (incomplete %v, missing %v):\n%s", m.Incomplete, m.Missing, diff)
	}
	if _, err := MergeResults(files[0], files[0]); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("merging a shard with itself: %v, want an overlap error", err)
	}
	if m, err := MergeResults(files[0], files[2]); err != nil || len(m.Missing) != 1 || m.Missing[0] != "2/3" {
		t.Errorf("merging shards 1 and 3 of 3: %v, missing %v; want 2/3 missing", err, m.Missing)
	}
	for _, other := range []Header{
		{Seed: 6, Runs: 30, Patterns: head.Patterns, Flags: head.Flags, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: []string{"./..."}, Flags: head.Flags, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: head.Patterns, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: head.Patterns, Flags: head.Flags, Shard: "2/4"},
	} {
		path := filepath.Join(dir, "other.jsonl")
		rf, _ := CreateResults(path, other)
		rf.Close(End{})
		if _, err := MergeResults(files[0], path); err == nil {
			t.Errorf("merging shard 1/3 with a file of %+v: no error", other)
		}
	}
}

// TestKilledSessionFile: a results file cut off mid-line is read up to the cut, and marked
// incomplete.
func TestKilledSessionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, _ := CreateResults(path, Header{Seed: 1, Runs: 10})
	rf.Add(Record{Package: Package{ImportPath: "p"}, Run: 1, Phase: Main, Tests: []TestResult{{Name: "TestA", Run: 1, Outcome: Pass}}})
	rf.f.WriteString(`{"record":{"package":"p","ru`)
	rf.f.Close()
	m, err := MergeResults(path)
	if err != nil || len(m.Records) != 1 || !m.Incomplete {
		t.Errorf("MergeResults of a cut file: %v, %+v", err, m)
	}
}

// TestResultsLinesStaySmall: a run in which a thousand tests each print megabytes and fail is
// one results line of bounded size, and merge reads it back.
func TestResultsLinesStaySmall(t *testing.T) {
	var out []string
	big := strings.Repeat("z", 1000)
	for i := range 1000 {
		name := "TestN" + strconv.Itoa(i)
		out = append(out, "=== RUN   "+name)
		for range 20 {
			out = append(out, "|"+big)
		}
		out = append(out, "--- FAIL: "+name+" (0.00s)")
	}
	rec := Record{Package: Package{ImportPath: "p"}, Run: 1, Phase: Main, Tests: parseRun(frame(append(out, "FAIL")...), 1, false)}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, _ := CreateResults(path, Header{Seed: 1, Runs: 1})
	rf.Add(rec)
	rf.Close(End{})
	st, _ := os.Stat(path)
	m, err := MergeResults(path)
	if err != nil || len(m.Records) != 1 || len(m.Records[0].Tests) != 1001 || st.Size() > maxRecordOutput+200_000 {
		t.Errorf("results file of %d bytes: %v, %d records", st.Size(), err, len(m.Records))
	}
}

func TestShardFromEnv(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		want   Shard
		system string
		bad    bool
	}{
		{map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "4"}, Shard{1, 4}, "Bazel", false},
		{map[string]string{"JOB_COMPLETION_INDEX": "3", "SPREADCHECK_TOTAL_SHARDS": "4"}, Shard{4, 4}, "Kubernetes indexed Job", false},
		{map[string]string{"JOB_COMPLETION_INDEX": "3"}, Shard{}, "Kubernetes indexed Job", true},
		{map[string]string{"BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "3"}, Shard{2, 3}, "Buildkite", false},
		{map[string]string{"CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "3"}, Shard{3, 3}, "CircleCI", false},
		{map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"}, Shard{1, 2}, "GitLab", false},
		{map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"}, Shard{}, "GitLab", true},
		{map[string]string{"CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "3"}, Shard{}, "CircleCI", true},
		{map[string]string{}, Shard{}, "", true},
	} {
		got, system, err := ShardFromEnv(func(k string) string { return c.env[k] })
		if got != c.want || system != c.system || (err != nil) != c.bad {
			t.Errorf("ShardFromEnv(%v) = %v, %q, %v; want %v, %q, error %v", c.env, got, system, err, c.want, c.system, c.bad)
		}
	}
}
