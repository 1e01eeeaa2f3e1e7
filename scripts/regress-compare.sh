#!/usr/bin/env bash
# make regress: compare the full test_progs and test_verifier runs of the
# pristine and the patched kernel ($BUILD/regress/{pristine,patched}) and
# print every test whose result differs.  A regression is a test or subtest
# that is OK on pristine and not OK (failed, skipped or gone) when patched;
# each is a failed check, and "no regressions" is one passed check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin regress-compare

dir=$BUILD/regress
for v in pristine patched; do
	[ -f "$dir/$v/test_progs.log" ] || die "no $dir/$v/test_progs.log" "run 'make regress'"
	[ -f "$dir/$v/test_verifier.log" ] || die "no $dir/$v/test_verifier.log" "run 'make regress'"
done

# "name status" lines: test_progs tests and subtests, test_verifier tests
results()
{
	sed '/^All error logs:$/q' "$1/test_progs.log" |
		sed -nE 's/^#[0-9]+(\/[0-9]+)? +(.*):(OK|FAIL|SKIP)$/test_progs:\2 \3/p'
	sed -nE 's/^#([0-9]+\/[pu]) (.*) (OK|FAIL|SKIP).*$/test_verifier:\1 \3/p' \
		"$1/test_verifier.log"
}
results "$dir/pristine" | sort -u > "$dir/pristine.results"
results "$dir/patched" | sort -u > "$dir/patched.results"

count() { awk -v s="$2" '$NF == s' "$1" | wc -l; }
for v in pristine patched; do
	log "$v: $(count "$dir/$v.results" OK) OK, $(count "$dir/$v.results" FAIL) FAIL, $(count "$dir/$v.results" SKIP) SKIP; $(grep '^Summary:' "$dir/$v/test_progs.log" || echo 'test_progs: no summary'); test_verifier: $(grep '^Summary:' "$dir/$v/test_verifier.log" || echo 'no summary')"
done

# name pristine-status patched-status, for every name in either run
join -a 1 -a 2 -e none -o 0,1.2,2.2 "$dir/pristine.results" "$dir/patched.results" \
	> "$dir/compare.txt"
mkdir -p "$RESULTS"
res=$RESULTS/regress.res
: > "$res"
regressions=$(awk '$2 == "OK" && $3 != "OK"' "$dir/compare.txt")
fixed=$(awk '$2 != "OK" && $2 != "none" && $3 == "OK"' "$dir/compare.txt")
other=$(awk '$2 != $3 && $2 != "none" && !($2 == "OK" || $3 == "OK")' "$dir/compare.txt")
added=$(awk '$2 == "none"' "$dir/compare.txt")

show() { [ -n "$2" ] && { echo "$1:"; sed 's/^/  /' <<< "$2"; } || echo "$1: none"; }
show "regressions (pristine -> patched)" "$regressions"
show "fixed (pristine -> patched)" "$fixed"
show "other differences" "$other"
echo "new in the patched run: $(grep -c . <<< "$added" || true) ($(awk '$3 == "OK"' <<< "$added" | grep -c . || true) OK)"
awk '$3 != "OK"' <<< "$added" | grep . | sed 's/^/  not OK: /' || true

if [ -n "$regressions" ]; then
	while read -r name was now; do
		echo "FAIL regress $name: OK on pristine, $now patched" >> "$res"
	done <<< "$regressions"
else
	echo "PASS regress: no regressions, $(wc -l < "$dir/compare.txt") results compared" >> "$res"
fi
log "comparison: $dir/compare.txt"
stage_end
