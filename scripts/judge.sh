#!/usr/bin/env bash
# judge.sh JOBDIR RESULTS: turn the runners' output in JOBDIR (written by
# qemu/guest-job.sh) into counted checks, one "PASS name" / "FAIL name:
# reason" line each.  A listed test_progs test passes only on "#N name:OK";
# every subtest that ran is a check of its own; the parallel run of the
# same tests (test_progs -j) is one check; test_verifier must exit 0; each
# check the Debian-libbpf loader prints is one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=judge

job=$1 res=$2
[ -f "$job/job.env" ] || die "no $job/job.env"
. "$job/job.env"
: > "$res"
pass() { echo "PASS $1" >> "$res"; }
fail() { echo "FAIL $1: $2" >> "$res"; }

[ -f "$job/bpf_testmod.err" ] && fail bpf_testmod.ko "does not load in the guest"

if [ -n "$TEST_PROGS_ALLOW" ]; then
	tplog=$job/test_progs.log
	rc=$(cat "$job/test_progs.rc" 2> /dev/null || echo none)
	if [ -f "$tplog" ]; then
		log "test_progs exit code $rc; $(grep '^Summary:' "$tplog" || echo 'no summary line')"
	else
		fail test_progs "left no log (crashed or never started?)"
	fi
	# test_progs repeats failed tests after "All error logs:"; judge
	# the run itself only.
	results=$(sed '/^All error logs:$/q' "$tplog" 2> /dev/null || true)
	IFS=, read -r -a allow <<< "$TEST_PROGS_ALLOW"
	for t in "${allow[@]}"; do
		line=$(grep -E "^#[0-9]+ +$t:(OK|SKIP|FAIL)$" <<< "$results" || true)
		while read -r _ name; do
			case "$name" in
			*:OK) pass "test_progs ${name%:OK}" ;;
			*:SKIP) fail "test_progs ${name%:SKIP}" "skipped" ;;
			*:FAIL) fail "test_progs ${name%:FAIL}" "failed" ;;
			esac
		done < <(grep -E "^#[0-9]+/[0-9]+ +$t/" <<< "$results" || true)
		case "$line" in
		*:OK) pass "test_progs $t" ;;
		*:SKIP) fail "test_progs $t" "skipped (deny the subtest with a reason, or fix it)" ;;
		*:FAIL) fail "test_progs $t" "failed (see $LOGS/test_progs.log)" ;;
		*) fail "test_progs $t" "did not run (no such test, or test_progs died)" ;;
		esac
	done
	if [ "$rc" != 0 ] && ! grep -q '^FAIL' "$res"; then
		fail test_progs "exit code $rc with every listed test OK (see $LOGS/test_progs.log)"
	fi
fi

# the second run, with -j: one check, every test of it OK
if [ -n "$TEST_PROGS_ALLOW" ] && [ "${TEST_PROGS_PARALLEL:-0}" = 1 ]; then
	plog=$job/test_progs_parallel.log
	prc=$(cat "$job/test_progs_parallel.rc" 2> /dev/null || echo none)
	summary=$(sed '/^All error logs:$/q' "$plog" 2> /dev/null | grep '^Summary:' ||
		echo 'no summary line')
	if [ "$prc" = 0 ] && grep -q ' 0 FAILED$' <<< "$summary"; then
		pass "test_progs -j ($summary)"
	else
		fail "test_progs -j" "$summary, exit code $prc (see $LOGS/test_progs_parallel.log)"
	fi
fi

if [ "$RUN_TEST_VERIFIER" = 1 ]; then
	summary=$(grep '^Summary:' "$job/test_verifier.log" 2> /dev/null || echo 'no summary line')
	if [ "$(cat "$job/test_verifier.rc" 2> /dev/null)" = 0 ]; then
		pass "test_verifier ($summary)"
	else
		fail test_verifier "$summary (see $LOGS/test_verifier.log)"
	fi
fi
# the Debian-libbpf loader: each "ok NAME" / "not ok NAME: why" line is a
# check, and it must exit 0
if [ "${RUN_DEBIAN_LIBBPF:-0}" = 1 ]; then
	dlog=$job/debian_libbpf.log
	drc=$(cat "$job/debian_libbpf.rc" 2> /dev/null || echo none)
	if [ ! -f "$dlog" ]; then
		fail debian-libbpf "left no log (see $LOGS/serial.log)"
	else
		while read -r line; do
			case "$line" in
			"ok "*) pass "debian-libbpf ${line#ok }" ;;
			"not ok "*) fail "debian-libbpf ${line#not ok }" "see $LOGS/debian_libbpf.log" ;;
			esac
		done < "$dlog"
		if [ "$drc" != 0 ] && ! grep -q '^not ok' "$dlog"; then
			fail debian-libbpf "exit code $drc (see $LOGS/debian_libbpf.log)"
		fi
	fi
fi
log "$(grep -c '^PASS' "$res" || true) passed, $(grep -c '^FAIL' "$res" || true) failed"
