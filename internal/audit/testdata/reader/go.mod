module example.com/reader

go 1.26.0
