module example.com/gaps

go 1.26.0

require github.com/spreadcheck/spreadcheck v0.0.0

require gonum.org/v1/gonum v0.17.0 // indirect

replace github.com/spreadcheck/spreadcheck => ../../../..
