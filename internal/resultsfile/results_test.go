package resultsfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// TestKilledSessionFile: a results file cut off mid-line is read up to the cut, and marked
// incomplete.
func TestKilledSessionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, _ := CreateResults(path, Header{Seed: 1, Runs: 10})
	rf.Add(Record{Package: testbin.Package{ImportPath: "p"}, Run: 1, Phase: Main, Tests: []testout.TestResult{{Name: "TestA", Run: 1, Outcome: testout.Pass}}})
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
		out = append(out, "\x16=== RUN   "+name)
		for range 20 {
			out = append(out, big)
		}
		out = append(out, "\x16--- FAIL: "+name+" (0.00s)")
	}
	p := testout.NewParser()
	p.Parse(strings.NewReader(strings.Join(append(out, "\x16FAIL"), "\n") + "\n"))
	rec := Record{Package: testbin.Package{ImportPath: "p"}, Run: 1, Phase: Main, Tests: p.Finish(testbin.Exit{Code: 1})}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, _ := CreateResults(path, Header{Seed: 1, Runs: 1})
	rf.Add(rec)
	rf.Close(End{})
	st, _ := os.Stat(path)
	m, err := MergeResults(path)
	if err != nil || len(m.Records) != 1 || len(m.Records[0].Tests) != 1001 || st.Size() > testout.MaxRecordOutput+200_000 {
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
