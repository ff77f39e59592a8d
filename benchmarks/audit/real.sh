#!/bin/sh
# real.sh audits real modules, fetched through the Go module proxy into a temporary folder
# (never committed):
#   - the retry and backoff modules below, each report to real/<name>.json and real/<name>.txt,
#     and the table of all of them to real/table.md;
#   - the audit corpus, corpus/modules.tsv (consensus, gossip, network coordinates, a circuit
#     breaker, caches, a scheduler, RPC middleware, crypto identifiers), each report to
#     corpus/<name>.json, and the agreement of its verdicts with those confirmed by hand
#     (corpus/labels.tsv) to corpus/agreement.md.
# Run it from this directory: ./real.sh (./real.sh corpus does the corpus alone).
set -eu
here=$(pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
go build -o "$tmp/spreadcheck" github.com/spreadcheck/spreadcheck/cmd/spreadcheck

# fetch copies module@version from the module proxy to $tmp/<name> and prints the name.
fetch() {
	name=$(echo "${1%@*}" | sed 's|^[^/]*/||; s|/|-|g')
	dir=$(go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -r "$dir" "$tmp/$name"
	chmod -R u+w "$tmp/$name"
	# A module without go.mod is built as the go command builds it: no go line, so Go 1.16.
	[ -f "$tmp/$name/go.mod" ] || printf 'module %s\n' "${1%@*}" > "$tmp/$name/go.mod"
	echo "$name"
}

if [ "${1:-}" != corpus ]; then
	mkdir -p real
	for m in github.com/cenkalti/backoff/v4@v4.3.0 github.com/cenkalti/backoff/v5@v5.0.3 github.com/avast/retry-go/v4@v4.7.0 \
		github.com/sethvargo/go-retry@v0.5.0 github.com/hashicorp/go-retryablehttp@v0.7.8; do
		name=$(fetch "$m")
		# Exit status 1 (a mutant survived) is what these audits are for.
		(cd "$tmp/$name" && "$tmp/spreadcheck" audit -seed 1 -p 2 -progress=false -json > "$here/real/$name.json") || [ $? -eq 1 ]
		"$tmp/spreadcheck" merge "real/$name.json" > "real/$name.txt" || [ $? -eq 1 ]
		echo "$m: real/$name.txt"
	done
	go run ./cmd/realtable real/*.json > real/table.md
fi

rm -f corpus/*.json
set -f # the corpus's -run patterns are not file names
grep -v '^#' corpus/modules.tsv | while IFS='	' read -r m pkgs flags; do
	name=$(fetch "$m")
	start=$(date +%s)
	# $flags and $pkgs split into words, unglobbed (set -f).
	# shellcheck disable=SC2086
	(cd "$tmp/$name" && "$tmp/spreadcheck" audit -seed 1 -p 2 -progress=false -json $flags $pkgs < /dev/null > "$here/corpus/$name.json") || [ $? -eq 1 ]
	echo "$m: corpus/$name.json, $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
set +f
go run ./cmd/agreement corpus/labels.tsv corpus/causes.tsv corpus/*.json > corpus/agreement.md
