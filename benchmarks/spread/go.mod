module github.com/spreadcheck/spreadcheck/benchmarks/spread

go 1.26.0

require (
	github.com/spreadcheck/spreadcheck v0.0.0
	gonum.org/v1/gonum v0.17.0
)

replace github.com/spreadcheck/spreadcheck => ../..
