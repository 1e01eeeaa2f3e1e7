#!/usr/bin/env bash
# Print stage timings and every check of this run, then the closing line
# "N passed, N failed".  Exits non-zero if anything failed or nothing ran.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=summary

echo
echo "== stage timings =="
total=0
if [ -f "$TIMINGS" ]; then
	while read -r stage secs; do
		printf '  %-24s %s\n' "$stage" "$(fmt_secs "$secs")"
		total=$((total + secs))
	done < "$TIMINGS"
fi
printf '  %-24s %s\n' total "$(fmt_secs "$total")"

results=$(cat "$RESULTS"/*.res 2> /dev/null || true)
passed=$(grep -c '^PASS' <<< "$results" || true)
failed=$(grep -c '^FAIL' <<< "$results" || true)
echo
echo "== results =="
grep '^PASS' <<< "$results" | sed 's/^PASS /  ok    /' || true
grep '^FAIL' <<< "$results" | sed 's/^FAIL /  FAIL  /' || true
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
