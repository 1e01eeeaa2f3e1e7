#!/usr/bin/env bash
# judge-stress.sh JOBDIR RESULTS: judge the STRESS_RUNS runs of make stress
# (qemu/guest-job.sh wrote stress-N.log and stress-N.rc for each).  A run
# passes when test_progs exited 0 and every test of STRESS_TESTS reported
# OK; one check per run.  What the tests did (objects, operations) is
# printed from their verbose output.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=judge-stress

job=$1 res=$2
[ -f "$job/job.env" ] || die "no $job/job.env"
. "$job/job.env"
: > "$res"
IFS=, read -r -a tests <<< "$STRESS_TESTS"

for i in $(seq 1 "$STRESS_RUNS"); do
	tplog=$job/stress-$i.log
	what="stress run $i/$STRESS_RUNS ($STRESS_TESTS)"
	if [ ! -f "$tplog" ]; then
		echo "FAIL $what: left no log (see the serial log)" >> "$res"
		continue
	fi
	rc=$(cat "$job/stress-$i.rc" 2> /dev/null || echo none)
	results=$(sed '/^All error logs:$/q' "$tplog")
	bad=()
	for t in "${tests[@]}"; do
		grep -qE "^#[0-9]+ +$t:OK$" <<< "$results" || bad+=("$t")
	done
	subtests=$(grep -cE '^#[0-9]+/[0-9]+ .*:OK$' <<< "$results" || true)
	failed=$(grep -E '^#[0-9]+/[0-9]+ .*:FAIL$' <<< "$results" | awk '{print $2}' |
		 tr '\n' ' ' || true)
	if [ "$rc" = 0 ] && [ ${#bad[@]} -eq 0 ]; then
		echo "PASS $what: $subtests subtests OK" >> "$res"
	else
		echo "FAIL $what: exit code $rc, not OK: ${bad[*]} ${failed}(see $LOGS/stress-$i.log)" >> "$res"
	fi
done

# What the tests did, from their verbose output
for i in $(seq 1 "$STRESS_RUNS"); do
	grep -hE '^(stress|test_reused_hash_elem_lock): ' "$job/stress-$i.log" 2> /dev/null |
		sed "s/^/  run $i: /" || true
done > "$LOGS/stress-figures.txt"
log "what each run did: $LOGS/stress-figures.txt; run 1:"
grep '^  run 1: ' "$LOGS/stress-figures.txt" | sed 's/^  run 1: /  /' || true
log "$(grep -c '^PASS' "$res" || true) runs passed, $(grep -c '^FAIL' "$res" || true) failed"
