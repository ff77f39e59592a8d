module example.com/clockseed

go 1.26.0
