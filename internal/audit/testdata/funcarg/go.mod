module example.com/funcarg

go 1.22
