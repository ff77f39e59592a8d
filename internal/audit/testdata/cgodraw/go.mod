module example.com/cgodraw

go 1.22
