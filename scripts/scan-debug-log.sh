#!/usr/bin/env bash
# After the tests ran on the debug kernel: fail on every report of the
# sanitizers and checkers in the guest's serial log (KASAN, lockdep, list
# corruption, BUG, WARNING, RCU stalls) and on every object kmemleak found
# unreferenced, quoting what was reported.  Results go to
# $RESULTS/debug-reports.res.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin scan-debug-log

job=$(job_dir)
serial=$job/serial-console
res=$RESULTS/debug-reports.res
mkdir -p "$RESULTS"
: > "$res"
[ -f "$serial" ] || die "no serial log at $serial" "run the tests first"

patterns='BUG: |WARNING: |KASAN|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU usage|list_add corruption|list_del corruption|detected stalls|self-detected stall|Kernel panic|Oops'
reports=$(grep -E "$patterns" "$serial" || true)
if [ -n "$reports" ]; then
	n=$(wc -l <<< "$reports")
	log "$n report line(s) in $serial:"
	head -n 20 <<< "$reports" | sed 's/^/    /' >&2
	head -n 20 <<< "$reports" | sed 's/^/FAIL debug kernel report: /' >> "$res"
else
	log "no KASAN, lockdep, list corruption, BUG, WARNING or RCU stall report"
	echo "PASS debug kernel: no KASAN, lockdep, list, BUG, WARNING or RCU stall report" >> "$res"
fi

if [ -f "$job/kmemleak.err" ]; then
	echo "FAIL kmemleak: $(cat "$job/kmemleak.err")" >> "$res"
elif [ ! -f "$job/kmemleak.log" ]; then
	echo "FAIL kmemleak: the guest wrote no scan result" >> "$res"
elif [ -s "$job/kmemleak.log" ]; then
	cp "$job/kmemleak.log" "$LOGS/kmemleak.log"
	n=$(grep -c '^unreferenced object' "$job/kmemleak.log" || true)
	log "kmemleak: $n unreferenced object(s) (log: $LOGS/kmemleak.log)"
	grep -A 12 -m 1 '^unreferenced object' "$job/kmemleak.log" | sed 's/^/    /' >&2 || true
	echo "FAIL kmemleak: $n unreferenced object(s), first: $(grep -m 1 '^unreferenced object' "$job/kmemleak.log")" >> "$res"
else
	log "kmemleak: nothing unreferenced"
	echo "PASS kmemleak: nothing unreferenced after the tests" >> "$res"
fi
stage_end
