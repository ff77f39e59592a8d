module github.com/spreadcheck/spreadcheck/benchmarks/runner

go 1.26.0

require (
	github.com/spreadcheck/spreadcheck v0.0.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

replace github.com/spreadcheck/spreadcheck => ../..
