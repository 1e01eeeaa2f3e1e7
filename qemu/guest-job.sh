#!/bin/bash
# Runs inside the guest (chroot into the host root) as the harness job: the
# test runners of one mode, each with its output and exit code written to
# the job directory for the host to read.  Settings come from job.env,
# written next to this file by scripts/run-tests.sh or scripts/run-bench.sh;
# GUEST_MODE says what to run:
#   tests    the listed test_progs tests (again with -j if
#            TEST_PROGS_PARALLEL=1), test_verifier and the Debian-libbpf
#            loader if listed, then the fuzzer if FUZZ_SECONDS > 0
#            ('make', 'make test')
#   regress  all of test_progs and test_verifier, then veristat
#            ('make regress')
#   veristat veristat only (VERISTAT_ONLY=1 scripts/run-tests.sh, to
#            redo that part of 'make regress')
#   stress   the stress tests STRESS_RUNS times ('make stress')
#   fuzz     only the fuzzer ('make fuzz', 'make fuzz-reverted')
#   bench    the benchmarks and veristat ('make bench')
set -uo pipefail
job=$(dirname "$(readlink -f "$0")")
. "$job/job.env"

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd "$SELFTESTS_DIR" || exit 1
echo "guest: kernel $(uname -r), $(nproc) CPUs, mode ${GUEST_MODE:-}"
case "${GUEST_MODE:-}" in
tests | regress | stress | fuzz | bench | veristat) ;;
*)
	echo "guest: unknown GUEST_MODE '${GUEST_MODE:-}'" | tee "$job/guest-mode.err"
	exit 1
	;;
esac

# test_progs loads and unloads bpf_testmod.ko itself; loading it here first
# turns a module that cannot load into a clear error, not silent SKIPs.
if ! insmod ./bpf_testmod.ko; then
	echo "guest: bpf_testmod.ko does not load" | tee "$job/bpf_testmod.err"
fi
rmmod bpf_testmod 2> /dev/null

# regress: every test_progs test but the denied ones
if [ "$GUEST_MODE" = regress ]; then
	args=()
	[ -n "$TEST_PROGS_DENY" ] && args+=(-d "$TEST_PROGS_DENY")
	echo "guest: ./test_progs ${args[*]}"
	./test_progs "${args[@]}" > "$job/test_progs.log" 2>&1
	echo $? > "$job/test_progs.rc"
	tail -n 3 "$job/test_progs.log"
fi

if [ "$GUEST_MODE" = tests ] && [ -n "$TEST_PROGS_ALLOW" ]; then
	args=(-a "$TEST_PROGS_ALLOW")
	[ -n "$TEST_PROGS_DENY" ] && args+=(-d "$TEST_PROGS_DENY")
	echo "guest: ./test_progs ${args[*]}"
	./test_progs ${TEST_PROGS_VERBOSE:-} "${args[@]}" > "$job/test_progs.log" 2>&1
	echo $? > "$job/test_progs.rc"
	tail -n 3 "$job/test_progs.log"
	# make and make test: the same tests again in parallel; the tests
	# that compare global counts are serial_test_* and run after the rest
	if [ "${TEST_PROGS_PARALLEL:-0}" = 1 ]; then
		echo "guest: ./test_progs -j ${args[*]}"
		./test_progs -j "${args[@]}" > "$job/test_progs_parallel.log" 2>&1
		echo $? > "$job/test_progs_parallel.rc"
		tail -n 1 "$job/test_progs_parallel.log"
	fi
fi

# stress: the stress tests STRESS_RUNS times in a row, each run verbose
# (the tests print what they did) with a log of its own.
if [ "$GUEST_MODE" = stress ]; then
	for i in $(seq 1 "$STRESS_RUNS"); do
		echo "guest: stress run $i/$STRESS_RUNS: ./test_progs -v -a $STRESS_TESTS"
		./test_progs -v -a "$STRESS_TESTS" > "$job/stress-$i.log" 2>&1
		echo $? > "$job/stress-$i.rc"
		grep '^Summary:' "$job/stress-$i.log"
	done
fi

# bench: BENCH_RUNS rounds, each running every BENCH_CASES entry
# (benchmark:producers) once, in order, so that a slow phase of the guest
# touches every case alike; each run's output in a file of its own. Then
# with BENCH_PROFILE, a perf profile (software clock) of each case of
# BENCH_PROFILE_CASES; with BENCH_MEM_OBJECTS, the memory test; with
# VERISTAT_OBJECTS, veristat.
if [ "$GUEST_MODE" = bench ]; then
	# the native-* cases call bpf_testmod's loops; without its probes
	# counting local kptrs, which would slow the BPF cases down
	insmod ./bpf_testmod.ko count_local_kptrs=0 2> /dev/null
	for i in $(seq 1 "$BENCH_RUNS"); do
		echo "guest: bench round $i/$BENCH_RUNS: $BENCH_CASES"
		for c in $BENCH_CASES; do
			name=${c%%:*} prod=${c##*:}
			./bench -w1 -d"$BENCH_SECONDS" -p"$prod" --nr_loops "$BENCH_LOOPS" \
				"$name" > "$job/bench-$name-p$prod-$i.log" 2>&1
		done
	done
	if [ "${BENCH_PROFILE:-0}" = 1 ]; then
		# BPF programs by name in the profile
		echo 1 > /proc/sys/net/core/bpf_jit_kallsyms
		echo 0 > /proc/sys/kernel/kptr_restrict
		echo -1 > /proc/sys/kernel/perf_event_paranoid
		for name in $BENCH_PROFILE_CASES; do
			echo "guest: perf record -e cpu-clock: bench $name"
			perf record -q -e cpu-clock -F 2000 -a -o "$job/perf-$name.data" -- \
				./bench -w1 -d"$BENCH_SECONDS" -p1 --nr_loops "$BENCH_LOOPS" \
				"$name" > "$job/perf-$name.bench.log" 2> "$job/perf-$name.err"
			perf report -i "$job/perf-$name.data" --stdio --no-children \
				--sort sym --percent-limit 1 > "$job/perf-$name.txt" \
				2>> "$job/perf-$name.err"
			rm -f "$job/perf-$name.data"
		done
	fi
	rmmod bpf_testmod 2> /dev/null
	if [ "${BENCH_MEM_OBJECTS:-0}" -gt 0 ]; then
		echo "guest: memory: $BENCH_MEM_OBJECTS objects of each size (test_progs -t local_kptr_mem)"
		LOCAL_KPTR_MEM_OBJECTS=$BENCH_MEM_OBJECTS ./test_progs -v -a local_kptr_mem \
			> "$job/mem.log" 2>&1
		echo $? > "$job/mem.rc"
	fi
	if [ -n "${VERISTAT_OBJECTS:-}" ]; then
		insmod ./bpf_testmod.ko 2> /dev/null
		echo "guest: veristat"
		# shellcheck disable=SC2086 # a list of file names
		./veristat -o csv $VERISTAT_OBJECTS > "$job/veristat.csv" 2> "$job/veristat.err"
		rmmod bpf_testmod 2> /dev/null
	fi
fi

if [ "$GUEST_MODE" = regress ] ||
	{ [ "$GUEST_MODE" = tests ] && [ "${RUN_TEST_VERIFIER:-0}" = 1 ]; }; then
	echo "guest: ./test_verifier"
	./test_verifier > "$job/test_verifier.log" 2>&1
	echo $? > "$job/test_verifier.rc"
	tail -n 1 "$job/test_verifier.log"
fi
# regress (and veristat alone): veristat over 6.1's own selftest objects
# (VERISTAT_BIN and VERISTAT_OBJECTS: the pristine build's), one CSV line
# per program; the objects libbpf cannot open on their own (the parts of
# linked objects) are named in veristat.err and skipped
if { [ "$GUEST_MODE" = regress ] || [ "$GUEST_MODE" = veristat ]; } &&
	[ -n "${VERISTAT_OBJECTS:-}" ]; then
	insmod ./bpf_testmod.ko 2> /dev/null
	echo "guest: veristat over $(echo $VERISTAT_OBJECTS | wc -w) objects"
	# shellcheck disable=SC2086 # a list of file names
	"$VERISTAT_BIN" -o csv $VERISTAT_OBJECTS > "$job/veristat.csv" 2> "$job/veristat.err"
	echo $? > "$job/veristat.rc"
	echo "guest: veristat: $(($(wc -l < "$job/veristat.csv") - 1)) programs"
	rmmod bpf_testmod 2> /dev/null
fi
# tests: the Debian-libbpf loader test (tests.list: debian_libbpf), an
# upstream-style object loaded with the system's libbpf only
if [ "$GUEST_MODE" = tests ] && [ "${RUN_DEBIAN_LIBBPF:-0}" = 1 ]; then
	echo "guest: ./debian-libbpf/loader ./debian-libbpf/upstream_queue.bpf.o"
	./debian-libbpf/loader ./debian-libbpf/upstream_queue.bpf.o > "$job/debian_libbpf.log" 2>&1
	echo $? > "$job/debian_libbpf.rc"
	tail -n 1 "$job/debian_libbpf.log"
fi
# fuzz (and a short run in tests): the differential fuzzer, half
# the time as root, half with CAP_BPF+CAP_NET_ADMIN only; findings and the
# seed of the program being loaded go to $job/fuzz.
# FUZZ_PRIVS (root unpriv) says which halves run; FUZZ_STOP=1 ends each at
# its first finding (make fuzz-reverted).
if { [ "$GUEST_MODE" = fuzz ] || [ "$GUEST_MODE" = tests ]; } &&
	[ "${FUZZ_SECONDS:-0}" -gt 0 ]; then
	mkdir -p "$job/fuzz"
	# FUZZ_VERBOSE=1: every completeness gap with the verifier's reason
	[ -n "${FUZZ_VERBOSE:-}" ] && export FUZZ_VERBOSE
	privs=${FUZZ_PRIVS:-root unpriv}
	# shellcheck disable=SC2086 # a list of words
	set -- $privs
	share=$((FUZZ_SECONDS / $#))
	stop=
	[ "${FUZZ_STOP:-0}" = 1 ] && stop=stop
	for priv in $privs; do
		if [ "$priv" = root ]; then
			echo "guest: bpf_fuzz run $FUZZ_SEED ${share}s as root"
			"$FUZZ_BIN" run "$FUZZ_SEED" "$share" "$job/fuzz" $stop \
				> "$job/fuzz-root.log" 2>&1
		else
			echo "guest: bpf_fuzz run $((FUZZ_SEED + 1000000)) ${share}s with CAP_BPF"
			"$FUZZ_BIN" run "$((FUZZ_SEED + 1000000))" "$share" "$job/fuzz" unpriv $stop \
				> "$job/fuzz-unpriv.log" 2>&1
		fi
		echo $? > "$job/fuzz-$priv.rc"
	done
	grep -h '^fuzz-summary' "$job"/fuzz-*.log
fi

# Debug kernel: ask kmemleak for what is unreferenced now.  It reports
# objects older than its grace period, so scan twice a few seconds apart.
if [ "${KMEMLEAK_SCAN:-0}" = 1 ]; then
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo "guest: kmemleak scan"
		echo scan > /sys/kernel/debug/kmemleak
		sleep 6
		echo scan > /sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak > "$job/kmemleak.log"
	else
		echo "guest: no /sys/kernel/debug/kmemleak" | tee "$job/kmemleak.err"
	fi
fi
echo done > "$job/guest-done"
