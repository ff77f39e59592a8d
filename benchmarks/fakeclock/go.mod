module github.com/spreadcheck/spreadcheck/benchmarks/fakeclock

go 1.26.0

require (
	github.com/benbjohnson/clock v1.3.5
	github.com/coder/quartz v0.3.1
	github.com/jonboulle/clockwork v0.5.0
	github.com/spreadcheck/spreadcheck v0.0.0
	k8s.io/utils v0.0.0-20261023123148-ca04ba58ecab
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

replace github.com/spreadcheck/spreadcheck => ../..
