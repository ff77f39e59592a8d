module example.com/onlyfailing

go 1.24
