module github.com/spreadcheck/spreadcheck/benchmarks/spread

go 1.26.0

require (
	github.com/spreadcheck/spreadcheck v0.0.0
	gonum.org/v1/gonum v0.17.0
)

require github.com/google/go-cmp v0.7.0 // indirect

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

replace github.com/spreadcheck/spreadcheck => ../..
