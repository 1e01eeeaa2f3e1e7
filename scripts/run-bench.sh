#!/usr/bin/env bash
# make bench: boot the built kernel twice and run the local kptr
# benchmarks (tools/testing/selftests/bpf/benchs/bench_local_kptr.c) in
# it, then print ns per operation (median and interquartile range of
# BENCH_RUNS runs), the ratios the goals are set for, the memory figures
# and veristat's figures for the new selftest objects.  Boots:
#   1 vCPU    the headline: cases a-e, g-k and their native C baselines, in
#             BENCH_RUNS interleaved rounds; a perf profile of a, b, c and
#             their baselines (BENCH_PROFILE); the memory test
#             (BENCH_MEM_OBJECTS objects of each size)
#   2 vCPUs   the same cases and f (b with two producers), veristat
# BENCH_BOOTS picks the boots, BENCH_ONLY the benchmarks (for quick runs).
# Nothing here is a test: the goals are reported as met or not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin run-bench

need_cmd qemu-system-x86_64 qemu-system-x86
for t in bench veristat; do
	[ -x "$STOUT/$t" ] || die "no $STOUT/$t" "run 'make bench' (it builds them)"
done
if [ "$BENCH_PROFILE" = 1 ]; then
	need_cmd perf linux-perf
fi
out=$BUILD/bench${VARIANT:+-$VARIANT}
rm -rf "$out"
mkdir -p "$out" "$RESULTS"
accel=$("$TOP/scripts/pick-accel.sh")
export GUEST_ACCEL=$accel
objects=$(cd "$STOUT" && ls local_kptr*.bpf.o linked_list*.bpf.o upstream_rbtree*.bpf.o \
	rbtree*.bpf.o | tr '\n' ' ')
cases_bpf="local-kptr-alloc:1 local-kptr-list:1 local-kptr-queue:1 queue-map:1 hash-map-malloc:1"
cases_bpf+=" local-kptr-tree:1 array-heap:1"
cases_bpf+=" local-kptr-new:1 local-kptr-new-counted:1 refcount-acquire:1"
cases_native="native-alloc:1 native-list:1 native-queue:1 native-tree:1"
profile_cases="local-kptr-alloc local-kptr-list local-kptr-queue local-kptr-tree"
profile_cases+=" native-alloc native-list native-queue native-tree"

# boot NAME SMP CASES PROFILE MEM_OBJECTS VERISTAT
boot()
{
	local name=$1 smp=$2 cases=$3 profile=$4 mem=$5 veristat=$6 job=$out/$1 rc=0

	mkdir -p "$job"
	cp "$TOP/qemu/guest-job.sh" "$job/"
	cat > "$job/job.env" <<ENV
GUEST_MODE=bench
SELFTESTS_DIR='$STOUT'
BENCH_RUNS=$BENCH_RUNS
BENCH_SECONDS=$BENCH_SECONDS
BENCH_LOOPS=$BENCH_LOOPS
BENCH_CASES='$cases'
BENCH_PROFILE=$profile
BENCH_PROFILE_CASES='$profile_cases'
BENCH_MEM_OBJECTS=$mem
VERISTAT_OBJECTS='$veristat'
ENV
	log "boot '$name': $smp vCPU(s), $BENCH_RUNS rounds of: $cases"
	QEMU_SMP=$smp STAGE=$STAGE \
		"$TOP/scripts/guest-run.sh" "$job" "$job/serial.log" "$QEMU_TIMEOUT" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL bench boot $name: the guest run failed (serial log: $job/serial.log)" \
			>> "$RESULTS/bench.res"
		return 1
	fi
	echo "PASS bench boot $name" >> "$RESULTS/bench.res"
}

# BENCH_ONLY: only the benchmarks named (bench names, e.g. local-kptr-list)
only()
{
	local c out=""

	[ -z "${BENCH_ONLY:-}" ] && { echo "$*"; return; }
	for c in "$@"; do
		case " ${BENCH_ONLY:-} " in
		*" ${c%%:*} "*) out+=" $c" ;;
		esac
	done
	echo "${out# }"
}

: > "$RESULTS/bench.res"
for b in $BENCH_BOOTS; do
	case "$b" in
	smp1)
		boot smp1 1 "$(only $cases_bpf $cases_native)" "$BENCH_PROFILE" \
			"$BENCH_MEM_OBJECTS" "" || true
		;;
	smp2)
		boot smp2 2 "$(only $cases_bpf $cases_native local-kptr-list:2)" 0 0 "$objects" || true
		;;
	*) die "BENCH_BOOTS: unknown boot '$b'" "use smp1, smp2 or both" ;;
	esac
done

BENCH_ACCEL=$accel "$TOP/scripts/bench-report.sh" "$out" | tee "$out/report.txt"
log "report: $out/report.txt, veristat: $out/veristat.csv, profiles: $out/smp1/perf-*.txt"
# the harness's config and Debian's side by side, once both have run
default=$BUILD/bench/report.txt distro=$BUILD/bench-distro/report.txt
if [ -s "$default" ] && [ -s "$distro" ]; then
	echo
	echo "this config (make bench) and Debian's (make bench-distro), side by side:"
	"$TOP/scripts/bench-compare.sh" "make bench" "$default" "Debian config" "$distro" |
		tee "$out/compare.txt"
fi
stage_end
