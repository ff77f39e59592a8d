module example.com/laterruns

go 1.26.0
