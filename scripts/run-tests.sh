#!/usr/bin/env bash
# Boot the built kernel in QEMU, run the tests of selftests/tests.list there,
# and judge them from the runners' own output: a listed test_progs test must
# report OK (SKIP, FAIL or missing all fail); test_verifier must exit 0.
# Results go to $RESULTS/selftests.res for the summary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin run-tests

[ -x "$STOUT/test_progs" ] || die "no $STOUT/test_progs" "run 'make selftests' first"

# --- what to run --------------------------------------------------------------
allow=() deny=() run_verifier=0
# make stress: only the stress tests, STRESS_RUNS times, instead of the list
STRESS_RUNS=${STRESS_RUNS:-0}
# make fuzz: only the fuzzer (FUZZ_ONLY=1); make test: the list plus a
# short fuzzer run (FUZZ_SECONDS)
[ "${FUZZ_ONLY:-0}" = 1 ] && tests_list_override=/dev/null
# TESTS_LIST: another list in the same format (make regress reruns)
tests_list=${TESTS_LIST:-$TOP/selftests/tests.list}
[ "$STRESS_RUNS" -gt 0 ] && tests_list=/dev/null
[ -n "${tests_list_override:-}" ] && tests_list=$tests_list_override
# FUZZ_RUN_SECONDS: set by make fuzz and make test only
FUZZ_RUN_SECONDS=${FUZZ_RUN_SECONDS:-0}
# FUZZ_BIN: another build of the fuzzer (a host path the guest sees)
fuzz_bin=${FUZZ_BIN:-$BUILD/fuzz/bpf_fuzz}
if [ "$FUZZ_RUN_SECONDS" -gt 0 ] && [ ! -x "$fuzz_bin" ]; then
	die "no $fuzz_bin" "run scripts/build-fuzz.sh (make fuzz does)"
fi
# make regress: all of test_progs and test_verifier, logs kept for
# regress-compare.sh instead of judged here
FULL_RUN=${FULL_RUN:-0}
deny_lists=("$TOP/selftests/deny.list")
veristat_bin='' veristat_objects=''
# VERISTAT_ONLY=1: only the veristat part of a make regress run (its
# output replaces that run's veristat.csv in build/regress/<variant>)
VERISTAT_ONLY=${VERISTAT_ONLY:-0}
[ "$VERISTAT_ONLY" = 1 ] && FULL_RUN=1
if [ "$FULL_RUN" = 1 ]; then
	tests_list=/dev/null
	run_verifier=1
	[ "$VERISTAT_ONLY" = 1 ] && run_verifier=0
	deny_lists+=("$TOP/selftests/regress-deny.list")
	QEMU_TIMEOUT=$REGRESS_TIMEOUT
	# veristat over 6.1's own selftest objects, the same files and the
	# same veristat on both kernels (built by the pristine variant)
	pristine_out=$BUILD/selftests-pristine
	[ -x "$pristine_out/veristat" ] || die "no $pristine_out/veristat" \
		"run 'VARIANT=pristine BUILD_VERISTAT=1 scripts/build-selftests.sh' ('make regress' does)"
	veristat_bin=$pristine_out/veristat
	veristat_objects=$(find "$pristine_out" -maxdepth 1 -name '*.bpf.o' | LC_ALL=C sort | tr '\n' ' ')
fi
while read -r runner name _; do
	case "$runner" in
	'' | \#*) ;;
	test_progs) allow+=("$name") ;;
	test_verifier) run_verifier=1 ;;
	debian_libbpf) run_debian_libbpf=1 ;;
	*) die "selftests/tests.list: unknown runner '$runner'" \
		"use test_progs, test_verifier or debian_libbpf" ;;
	esac
done < "$tests_list"
while read -r name _; do
	case "$name" in '' | \#*) ;; *) deny+=("$name") ;; esac
done < <(cat "${deny_lists[@]}")

join() { local IFS=,; echo "$*"; }

# TEST_PROGS_PARALLEL (1): the listed test_progs tests run a second time
# with -j; not for make regress, make stress or a fuzzer-only run
parallel=${TEST_PROGS_PARALLEL:-1}
if [ "$FULL_RUN" = 1 ] || [ "$STRESS_RUNS" -gt 0 ] || [ "$tests_list" = /dev/null ]; then
	parallel=0
fi

# the guest job's mode (qemu/guest-job.sh)
if [ "$VERISTAT_ONLY" = 1 ]; then
	mode=veristat
elif [ "$FULL_RUN" = 1 ]; then
	mode=regress
elif [ "$STRESS_RUNS" -gt 0 ]; then
	mode=stress
elif [ "${FUZZ_ONLY:-0}" = 1 ]; then
	mode=fuzz
else
	mode=tests
fi

job=$(job_dir)
rm -rf "$job"
mkdir -p "$job" "$RESULTS"
cp "$TOP/qemu/guest-job.sh" "$job/"
# The guest sees the job directory but not every host path (its /tmp is
# its own): the fuzzer runs from a copy there.
if [ "$FUZZ_RUN_SECONDS" -gt 0 ]; then
	cp "$fuzz_bin" "$job/bpf_fuzz"
	fuzz_bin=$job/bpf_fuzz
fi
cat > "$job/job.env" <<ENV
GUEST_MODE=$mode
SELFTESTS_DIR='$STOUT'
TEST_PROGS_ALLOW='$(join "${allow[@]}")'
TEST_PROGS_DENY='$(join "${deny[@]}")'
RUN_TEST_VERIFIER=$run_verifier
RUN_DEBIAN_LIBBPF=${run_debian_libbpf:-0}
TEST_PROGS_VERBOSE='${TEST_PROGS_VERBOSE:-}'
TEST_PROGS_PARALLEL=$parallel
KMEMLEAK_SCAN=$([ "$VARIANT" = debug ] && echo 1 || echo 0)
STRESS_RUNS=$STRESS_RUNS
STRESS_TESTS='$STRESS_TESTS'
FUZZ_SECONDS=$FUZZ_RUN_SECONDS
FUZZ_SEED=$FUZZ_SEED
FUZZ_BIN='$fuzz_bin'
FUZZ_PRIVS='${FUZZ_PRIVS:-root unpriv}'
FUZZ_STOP=${FUZZ_STOP:-0}
FUZZ_VERBOSE='${FUZZ_VERBOSE:-}'
VERISTAT_BIN='$veristat_bin'
VERISTAT_OBJECTS='$veristat_objects'
ENV

# --- boot and run -------------------------------------------------------------
serial=$LOGS/serial-$(date +%Y%m%d-%H%M%S).log
ln -sfn "$(basename "$serial")" "$LOGS/serial.log"
ln -sfn "$serial" "$job/serial-console"
# a fuzzer run gets its seconds on top of the guest's timeout
if [ "$FUZZ_RUN_SECONDS" -gt 0 ]; then
	QEMU_TIMEOUT=$((QEMU_TIMEOUT + FUZZ_RUN_SECONDS))
fi
STAGE=$STAGE "$TOP/scripts/guest-run.sh" "$job" "$serial" "$QEMU_TIMEOUT" ||
	die "the guest run failed (serial log: $serial)"
cp "$job"/*.log "$job"/*.rc "$LOGS/" 2> /dev/null || true

if [ "$VERISTAT_ONLY" = 1 ]; then
	out=$BUILD/regress/${VARIANT:-patched}
	mkdir -p "$out"
	cp "$job"/veristat.* "$out/"
	log "veristat for regress-compare.sh in $out: $(($(wc -l < "$out/veristat.csv") - 1)) programs"
elif [ "$FULL_RUN" = 1 ]; then
	out=$BUILD/regress/${VARIANT:-patched}
	rm -rf "$out"
	mkdir -p "$out"
	cp "$job"/test_progs.* "$job"/test_verifier.* "$job"/veristat.* "$out/" 2> /dev/null || true
	log "logs for regress-compare.sh in $out"
elif [ "$STRESS_RUNS" -gt 0 ]; then
	"$TOP/scripts/judge-stress.sh" "$job" "$RESULTS/stress.res"
else
	"$TOP/scripts/judge.sh" "$job" "$RESULTS/selftests.res"
fi
if [ "$FUZZ_RUN_SECONDS" -gt 0 ]; then
	"$TOP/scripts/judge-fuzz.sh" "$job" "$RESULTS/fuzz.res"
fi
stage_end
