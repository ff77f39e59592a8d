#!/bin/sh
# reach.sh measures the recall and precision of the audit's site finding on real modules beyond
# the corpus: each module of reach/modules.tsv is fetched through the Go module proxy into a
# temporary folder (never committed), cmd/sites lists the sites the audit finds in its packages
# (nothing is built or run), and cmd/recall scores the list against the sites found by hand,
# reach/labels.tsv. Writes reach/found.tsv and reach/table.md (the latter beside the figures of
# reach/found-before.tsv, the list the audit found before the fixes of this measurement).
# Run it from this directory: ./reach.sh. found-before.tsv was written by the same loop with
# cmd/sites built from the commit before the fixes (a238d07, with audit.Find added):
# SITES=that-binary FOUND=reach/found-before.tsv ./reach.sh
set -eu
set -f # the package patterns are not file names
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
sites=${SITES:-$tmp/sites}
found=${FOUND:-reach/found.tsv}
[ -n "${SITES:-}" ] || go build -o "$tmp/sites" ./cmd/sites
: > "$found"
grep -v '^#' reach/modules.tsv | while IFS='	' read -r m pkgs; do
	dir=$(go mod download -json "$m" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -r "$dir" "$tmp/src"
	chmod -R u+w "$tmp/src"
	(cd "$tmp/src" && go mod download)
	# $pkgs splits into words, unglobbed (set -f).
	# shellcheck disable=SC2086
	"$sites" "$tmp/src" $pkgs | sed "s|^|${m%@*}	|" >> "$found"
	rm -rf "$tmp/src"
	echo "$m: $(grep -c "^${m%@*}	" "$found") sites, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
set +f
[ -n "${FOUND:-}" ] || go run ./cmd/recall reach/labels.tsv before=reach/found-before.tsv after=reach/found.tsv > reach/table.md
