#!/bin/sh
# real.sh audits real retry and backoff modules, fetched through the Go module proxy into a
# temporary folder (never committed), and writes each report to real/<name>.json and
# real/<name>.txt, and the table of all of them to real/table.md. Run it from this directory:
# ./real.sh
set -eu
here=$(pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
go build -o "$tmp/spreadcheck" github.com/spreadcheck/spreadcheck/cmd/spreadcheck
mkdir -p real
for m in github.com/cenkalti/backoff/v4@v4.3.0 github.com/cenkalti/backoff/v5@v5.0.3 github.com/avast/retry-go/v4@v4.7.0 \
	github.com/sethvargo/go-retry@v0.5.0 github.com/hashicorp/go-retryablehttp@v0.7.8; do
	name=$(echo "${m%@*}" | sed 's|github.com/||; s|/|-|g')
	dir=$(go mod download -json "$m" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	work="$tmp/$name"
	cp -r "$dir" "$work"
	chmod -R u+w "$work"
	# Exit status 1 (a mutant survived) is what these audits are for.
	(cd "$work" && "$tmp/spreadcheck" audit -seed 1 -p 2 -progress=false -json > "$here/real/$name.json") || [ $? -eq 1 ]
	"$tmp/spreadcheck" audit merge "real/$name.json" > "real/$name.txt" || [ $? -eq 1 ]
	echo "$m: real/$name.txt"
done
go run ./cmd/realtable real/*.json > real/table.md
