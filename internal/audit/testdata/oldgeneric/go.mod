module example.com/oldgeneric

go 1.18
