module example.com/shufflevar

go 1.22
