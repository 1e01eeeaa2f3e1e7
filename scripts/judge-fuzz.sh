#!/usr/bin/env bash
# judge-fuzz.sh JOBDIR RESULTS: the fuzzer's verdicts as counted checks.
# Per privilege level: it finished (else the seed of the program it was on
# is named), no soundness finding (the verifier accepted a program the
# model calls unsafe), no fuzzer bug (a malformed program, a test run
# that failed).  Completeness
# gaps are counted, not failed.  Findings are copied to $BUILD/fuzz/findings.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=judge-fuzz

job=$1 res=$2
: > "$res"
pass() { echo "PASS $1" >> "$res"; }
fail() { echo "FAIL $1: $2" >> "$res"; }
out=$BUILD/fuzz/findings
mkdir -p "$out"
cp "$job"/fuzz/*.txt "$out/" 2> /dev/null || true
cp "$job"/fuzz-*.log "$LOGS/" 2> /dev/null || true
# the completeness gaps, one line each: seed and the verifier's reason
cp "$job"/fuzz/gaps-*.list "$BUILD/fuzz/" 2> /dev/null || true

# shellcheck disable=SC2086 # a list of words
for priv in ${FUZZ_PRIVS:-root unpriv}; do
	flog=$job/fuzz-$priv.log
	line=$(grep -h '^fuzz-summary' "$flog" 2> /dev/null || true)
	if [ -z "$line" ]; then
		seedfile=$job/fuzz/last-seed
		[ "$priv" = unpriv ] && seedfile=$job/fuzz/last-seed-unpriv
		seed=$(cat "$seedfile" 2> /dev/null || true)
		fail "fuzz $priv" "did not finish (last program: seed ${seed:-unknown}; $LOGS/fuzz-$priv.log, serial log)"
		continue
	fi
	log "$line"
	get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$line"; }
	if [ "$(get soundness)" = 0 ]; then
		pass "fuzz $priv: no soundness finding ($(get generated) programs, $(get accepted) accepted)"
	else
		fail "fuzz $priv" "$(get soundness) programs accepted that the model calls unsafe (reproducers: $out)"
	fi
	if [ "$(get fuzzer_bugs)" != 0 ]; then
		fail "fuzz $priv" "$(get fuzzer_bugs) malformed programs: a generator bug, not a verifier finding ($out/fuzzer-bug-*)"
	elif [ "$(get test_run_errors)" != "" ] && [ "$(get test_run_errors)" != 0 ]; then
		fail "fuzz $priv" "$(get test_run_errors) BPF_PROG_TEST_RUN calls failed: a runner bug ($LOGS/fuzz-$priv.log)"
	else
		pass "fuzz $priv: no malformed program, every test run ran ($(get test_runs))"
	fi
done
