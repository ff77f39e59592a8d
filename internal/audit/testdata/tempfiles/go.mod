module example.com/tempfiles

go 1.24
