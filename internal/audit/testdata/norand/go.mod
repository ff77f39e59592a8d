module example.com/norand

go 1.24
