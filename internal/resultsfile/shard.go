package resultsfile

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is a share of the runs: shard K of N (1 <= K <= N) makes the runs whose number i has
// (i-1) mod N == K-1. The zero Shard makes every run.
type Shard struct{ K, N int }

// ParseShard parses "k/n".
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("-shard %q: want k/n with 1 <= k <= n, such as 2/4, or auto", s)
	}
	return Shard{k, n}, nil
}

// Has reports whether run number i belongs to the shard.
func (s Shard) Has(i int) bool { return s.N <= 1 || (i-1)%s.N == s.K-1 }

// String returns "k/n", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// shardEnvs are the variables by which CI systems that split a job across machines tell each
// machine its share: the index variable, whether it counts from 1, and the total's variable.
// A Kubernetes indexed Job sets only the index: its pod template must set
// SPREADCHECK_TOTAL_SHARDS to the Job's .spec.completions.
var shardEnvs = []struct {
	system, index, total string
	fromOne              bool
}{
	{"Bazel", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", false},
	{"Kubernetes indexed Job", "JOB_COMPLETION_INDEX", "SPREADCHECK_TOTAL_SHARDS", false},
	{"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", false},
	{"CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", false},
	{"GitLab", "CI_NODE_INDEX", "CI_NODE_TOTAL", true},
}

// ShardFromEnv returns the shard that the CI system's environment (read through getenv) gives
// this machine, and the system's name. Bazel, Kubernetes indexed Jobs, Buildkite, CircleCI and
// GitLab are known; the first whose index variable is set is used.
func ShardFromEnv(getenv func(string) string) (Shard, string, error) {
	for _, e := range shardEnvs {
		index := getenv(e.index)
		if index == "" {
			continue
		}
		i, err1 := strconv.Atoi(index)
		n, err2 := strconv.Atoi(getenv(e.total))
		if !e.fromOne {
			i++
		}
		if err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
			return Shard{}, e.system, fmt.Errorf("-shard auto: %s: %s=%q and %s=%q do not give a shard (want 0 <= index < total, or 1-based for GitLab)",
				e.system, e.index, index, e.total, getenv(e.total))
		}
		return Shard{i, n}, e.system, nil
	}
	var names []string
	for _, e := range shardEnvs {
		names = append(names, e.index)
	}
	return Shard{}, "", fmt.Errorf("-shard auto: none of %s is set; give -shard k/n", strings.Join(names, ", "))
}
