module example.com/jitter

go 1.26
