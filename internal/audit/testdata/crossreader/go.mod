module example.com/crossreader

go 1.22
