module example.com/equiv

go 1.26.0
