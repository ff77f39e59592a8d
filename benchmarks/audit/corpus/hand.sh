#!/bin/bash
# hand.sh measures the hand labels of labels.tsv again: for each label (or those whose module
# contains the first argument), it fetches the module through the module proxy into a
# temporary folder (never committed), replaces the label's "from" text on its site's line
# by its "to" text (the mutant written by hand), adds a file with the two helpers the
# mutants use (handNow: time.Now().UnixNano(); handCrypto(r): r is crypto/rand.Reader;
# handBytes{r, f}: a reader that passes each byte r reads through f),
# builds the package's test binary once and runs it 20 times, one process a run, with the
# label's -run pattern, and prints how many runs failed and which tests failed. A label
# whose from text is empty measures the baseline. Run it from benchmarks/audit:
# corpus/hand.sh [module-substring]
set -eu
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
# The tabs become unit separators first: a tab in IFS is white space, and read would merge
# the empty fields of a baseline label (its from and to) into one.
tail -n +2 corpus/labels.tsv | tr '\t' '\037' | while IFS=$'\037' read -r module version site class hand pkg run from to measured; do
	case "$module" in *"${1:-}"*) ;; *) continue ;; esac
	src=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	w="$tmp/work"
	rm -rf "$w" && cp -r "$src" "$w" && chmod -R u+w "$w"
	[ -f "$w/go.mod" ] || printf 'module %s\n' "$module" > "$w/go.mod"
	file=${site%:*} line=${site##*:}
	FROM="$from" TO="$to" LINE="$line" perl -i -pe 'if ($. == $ENV{LINE}) { s/\Q$ENV{FROM}\E/$ENV{TO}/ or die "$ENV{FROM} is not on line $.\n" }' "$w/$file"
	pkgname=$(sed -n 's/^package \([A-Za-z0-9_]*\).*/\1/p' "$w/$file" | head -1)
	printf 'package %s\n\nimport (\n\tcrand "crypto/rand"\n\t"io"\n\t"time"\n)\n\nfunc handNow() int64 { return time.Now().UnixNano() }\n\nfunc handCrypto(r io.Reader) bool { return r == crand.Reader }\n\ntype handBytes struct {\n\tr io.Reader\n\tf func(i int, b byte) byte\n}\n\nfunc (h handBytes) Read(b []byte) (int, error) {\n\tn, err := h.r.Read(b)\n\tfor i := range b[:n] {\n\t\tb[i] = h.f(i, b[i])\n\t}\n\treturn n, err\n}\n' \
		"$pkgname" > "$(dirname "$w/$file")/zz_hand.go"
	(cd "$w" && go test -vet=off -c -o "$tmp/t.test" "$pkg")
	failed=0
	: > "$tmp/fails"
	for i in $(seq 20); do
		(cd "$w/$pkg" && timeout 120 "$tmp/t.test" -test.run "$run" -test.count=1 -test.v < /dev/null > "$tmp/out" 2>&1) || failed=$((failed + 1))
		grep -o '^--- FAIL: [^ /]*' "$tmp/out" | sort -u >> "$tmp/fails" || true
	done
	echo "$module $site $class (labelled $hand: $measured)"
	echo "  measured: $failed of 20 runs failed; $(sort "$tmp/fails" | uniq -c | awk '{printf "%s %s of 20; ", $4, $1}')"
done
