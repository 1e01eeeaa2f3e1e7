#!/usr/bin/env bash
# make bench: boot the built kernel three times and run the local kptr
# benchmarks (tools/testing/selftests/bpf/benchs/bench_local_kptr.c) in
# it, BENCH_RUNS runs of each, then print ns per operation (median, min,
# max), the ratios the issue set goals for, and veristat's figures for the
# new selftest objects.  Boots:
#   2 vCPUs   cases a-e with one producer, f (b with two), veristat
#   1 vCPU    cases a-e
#   2 vCPUs   a and c on a kernel built with scripts/bench/
#             kmalloc-local-kptr.patch (kmalloc, not bpf_mem_alloc); the
#             patch is reversed and the kernel rebuilt afterwards
# Nothing here is a test: the goals are reported as met or not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin run-bench

need_cmd qemu-system-x86_64 qemu-system-x86
for t in bench veristat; do
	[ -x "$STOUT/$t" ] || die "no $STOUT/$t" "run 'make bench' (it builds them)"
done
out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out" "$RESULTS"
accel=$("$TOP/scripts/pick-accel.sh")
export GUEST_ACCEL=$accel
objects=$(cd "$STOUT" && ls local_kptr*.bpf.o linked_list*.bpf.o | tr '\n' ' ')
cases_all="local-kptr-alloc:1 local-kptr-list:1 local-kptr-queue:1 queue-map:1 hash-map-malloc:1"

# boot NAME SMP CASES VERISTAT APPEND
boot()
{
	local name=$1 smp=$2 cases=$3 veristat=$4 append=$5 job=$out/$1 rc=0

	mkdir -p "$job"
	cp "$TOP/qemu/guest-job.sh" "$job/"
	cat > "$job/job.env" <<ENV
GUEST_MODE=bench
SELFTESTS_DIR='$STOUT'
BENCH_RUNS=$BENCH_RUNS
BENCH_SECONDS=$BENCH_SECONDS
BENCH_LOOPS=$BENCH_LOOPS
BENCH_CASES='$cases'
VERISTAT_OBJECTS='$veristat'
ENV
	log "boot '$name': $smp vCPU(s)${append:+, $append}: $cases"
	QEMU_SMP=$smp QEMU_APPEND=$append STAGE=$STAGE \
		"$TOP/scripts/guest-run.sh" "$job" "$job/serial.log" "$QEMU_TIMEOUT" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL bench boot $name: the guest run failed (serial log: $job/serial.log)" \
			>> "$RESULTS/bench.res"
		return 1
	fi
	echo "PASS bench boot $name" >> "$RESULTS/bench.res"
}

: > "$RESULTS/bench.res"
boot smp2 2 "$cases_all local-kptr-list:2" "$objects" "" || true
boot smp1 1 "$cases_all" "" "" || true

# The kmalloc boot runs a kernel of its own: the series with make bench's
# patch on top, built in the same tree and put back even after an error.
kmalloc_patch=$TOP/scripts/bench/kmalloc-local-kptr.patch
kmalloc_applied=0
put_back()
{
	[ "$kmalloc_applied" = 1 ] || return 0
	log "reversing $(basename "$kmalloc_patch"), rebuilding the kernel of the series"
	patch -s -R -p1 -d "$TREE" < "$kmalloc_patch" ||
		warn "could not reverse $kmalloc_patch: run 'make apply'"
	kmalloc_applied=0
	"$TOP/scripts/build-kernel.sh"
}
trap put_back EXIT
patch -s -F0 -p1 -d "$TREE" < "$kmalloc_patch" ||
	die "$kmalloc_patch does not apply to $TREE" "refresh it against kernel/bpf/helpers.c"
kmalloc_applied=1
"$TOP/scripts/build-kernel.sh"
boot kmalloc 2 "local-kptr-alloc:1 local-kptr-queue:1" "" "" || true
put_back
trap - EXIT

BENCH_ACCEL=$accel "$TOP/scripts/bench-report.sh" "$out" | tee "$out/report.txt"
log "report: $out/report.txt, veristat: $out/veristat.csv"
stage_end
