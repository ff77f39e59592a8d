module example.com/randiface

go 1.26.0
