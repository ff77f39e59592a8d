module example.com/ignore

go 1.24
