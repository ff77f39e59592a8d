module example.com/subtests

go 1.26.0
