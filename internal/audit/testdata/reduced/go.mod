module example.com/reduced

go 1.26.0
