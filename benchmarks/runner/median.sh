#!/bin/sh
# median.sh: the median of each metric over the lines of a go test -bench -count N run.
# Usage: go test -bench . -benchtime 1x -count 10 | tee bench.txt; ./median.sh bench.txt
awk '/^Benchmark/ { for (i = 5; i < NF; i += 2) print $(i+1), $i }' "$@" | sort -k1,1 -k2,2g |
awk '{ v[$1, ++n[$1]] = $2 }
END { for (m in n) { k = n[m]; med = (k % 2) ? v[m, (k+1)/2] : (v[m, k/2] + v[m, k/2+1]) / 2
      printf "%-26s median %7.3f  (%d samples)\n", m, med, k } }' | sort
