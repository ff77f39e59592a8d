module example.com/wrapped

go 1.26.0
