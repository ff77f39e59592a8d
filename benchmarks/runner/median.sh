#!/bin/sh
# median.sh: the median of each metric over the lines of a go test -bench -count N run.
# Usage: go test -bench . -benchtime 1x -count 10 | tee bench.txt; ./median.sh bench.txt
awk '/^Benchmark/ { for (i = 5; i < NF; i += 2) v[$(i+1)] = v[$(i+1)] " " $i }
END { for (m in v) { n = split(substr(v[m], 2), a, " "); asort(a)
      med = (n % 2) ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
      printf "%-26s median %.3f over %d\n", m, med, n } }' "$@" | sort
