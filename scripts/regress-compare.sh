#!/usr/bin/env bash
# make regress: compare the full test_progs and test_verifier runs of the
# pristine and the patched kernel ($BUILD/regress/{pristine,patched}) and
# print every test whose result differs; then veristat's figures of both
# (scripts/veristat-compare.sh).  A regression is a test or subtest
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

# "name<TAB>status" lines (names may hold spaces): test_progs tests and
# subtests, test_verifier tests
tab=$'\t'
results()
{
	sed '/^All error logs:$/q' "$1/test_progs.log" |
		sed -nE "s/^#[0-9]+(\\/[0-9]+)? +(.*):(OK|FAIL|SKIP)\$/test_progs:\\2$tab\\3/p"
	sed -nE "s/^#([0-9]+\\/[pu]) (.*) (OK|FAIL|SKIP).*\$/test_verifier:\\1$tab\\3/p" \
		"$1/test_verifier.log"
}
export LC_ALL=C
results "$dir/pristine" | sort -u > "$dir/pristine.results"
results "$dir/patched" | sort -u > "$dir/patched.results"

count() { awk -F'\t' -v s="$2" '$2 == s' "$1" | wc -l; }
for v in pristine patched; do
	log "$v: $(count "$dir/$v.results" OK) OK, $(count "$dir/$v.results" FAIL) FAIL, $(count "$dir/$v.results" SKIP) SKIP; $(grep '^Summary:' "$dir/$v/test_progs.log" || echo 'test_progs: no summary'); test_verifier: $(grep '^Summary:' "$dir/$v/test_verifier.log" || echo 'no summary')"
done

# name pristine-status patched-status, for every name in either run
join -t "$tab" -a 1 -a 2 -e none -o 0,1.2,2.2 "$dir/pristine.results" \
	"$dir/patched.results" > "$dir/compare.txt"
mkdir -p "$RESULTS"
res=$RESULTS/regress.res
rm -f "$dir/confirm.results"
: > "$res"
regressions=$(awk -F'\t' '$2 == "OK" && $3 != "OK"' "$dir/compare.txt")
fixed=$(awk -F'\t' '$2 != "OK" && $2 != "none" && $3 == "OK"' "$dir/compare.txt")
other=$(awk -F'\t' '$2 != $3 && $2 != "none" && !($2 == "OK" || $3 == "OK")' "$dir/compare.txt")
added=$(awk -F'\t' '$2 == "none"' "$dir/compare.txt")

show()
{
	if [ -n "$2" ]; then
		echo "$1:"
		tr '\t' ' ' <<< "$2" | sed 's/^/  /'
	else
		echo "$1: none"
	fi
}
show "regressions (pristine -> patched)" "$regressions"
show "fixed (pristine -> patched)" "$fixed"
show "other differences" "$other"
echo "new in the patched run: $(grep -c . <<< "$added" || true) ($(awk -F'\t' '$3 == "OK"' <<< "$added" | grep -c . || true) OK)"
awk -F'\t' '$3 != "OK"' <<< "$added" | grep . | tr '\t' ' ' | sed 's/^/  not OK: /' || true

# A test that failed once may be flaky (UDP timing under TCG): run the
# tests holding regressions once more on the patched kernel; what passes
# then is reported as flaky, what fails again is a regression.
if [ -n "$regressions" ] && [ "${REGRESS_CONFIRM:-1}" = 1 ]; then
	{
		cut -f1 <<< "$regressions" | sed -n 's|^test_progs:\([^/]*\).*|test_progs \1|p' | sort -u
		if grep -q '^test_verifier:' <<< "$regressions"; then echo test_verifier; fi
	} > "$dir/confirm.list"
	log "rerunning on the patched kernel: $(tr '\n' ' ' < "$dir/confirm.list")"
	rm -rf "$dir/confirm"
	TESTS_LIST=$dir/confirm.list "$TOP/scripts/run-tests.sh" || true
	mkdir -p "$dir/confirm"
	cp "$(job_dir)"/test_progs.log "$(job_dir)"/test_verifier.log "$dir/confirm/" 2> /dev/null || true
	touch "$dir/confirm/test_progs.log" "$dir/confirm/test_verifier.log"
	results "$dir/confirm" | sort -u > "$dir/confirm.results"
fi
if [ -n "$regressions" ]; then
	while IFS=$'\t' read -r name _ now; do
		again=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$dir/confirm.results" 2> /dev/null || true)
		if [ "$again" = OK ]; then
			echo "PASS regress $name: flaky, $now patched once, OK when rerun" >> "$res"
		else
			echo "FAIL regress $name: OK on pristine, $now patched${again:+, $again when rerun}" >> "$res"
		fi
	done <<< "$regressions"
	grep -q '^FAIL' "$res" || echo "PASS regress: no regressions, $(wc -l < "$dir/compare.txt") results compared" >> "$res"
else
	echo "PASS regress: no regressions, $(wc -l < "$dir/compare.txt") results compared" >> "$res"
fi
log "comparison: $dir/compare.txt"

# veristat over 6.1's own selftest objects on both kernels: a program the
# pristine verifier accepts and the patched one refuses is a regression;
# the growth of verified instructions and states is reported, not judged
vs_p=$dir/pristine/veristat.csv vs_x=$dir/patched/veristat.csv
if [ ! -s "$vs_p" ] || [ ! -s "$vs_x" ]; then
	echo "FAIL regress veristat: no output (see $dir/*/veristat.err)" >> "$res"
else
	"$TOP/scripts/veristat-compare.sh" "$vs_p" "$vs_x" "$dir/veristat-compare.txt" "$res" \
		"$TOP/selftests/regress-veristat-expected.list"
	log "veristat per program: $dir/veristat-compare.txt"
fi
stage_end
