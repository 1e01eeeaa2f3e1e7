#!/usr/bin/env bash
# bench-report.sh DIR: the table of make bench from the guest outputs in
# DIR/{smp2,smp1,kmalloc} (scripts/run-bench.sh): ns per operation as
# median (min-max) of the runs, the ratios of the goals, veristat figures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=bench-report

dir=$1

# stat BOOT NAME PRODUCERS: "median min max" of the runs' ns/op, or "- - -"
stat()
{
	local f vals

	vals=$(for f in "$dir/$1"/bench-"$2"-p"$3"-*.log; do
		[ -f "$f" ] || continue
		sed -n 's/^Summary: .*latency *\([0-9.]*\) ns\/op.*/\1/p' "$f"
	done | sort -g)
	if [ -z "$vals" ]; then
		echo "- - -"
		return
	fi
	awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.0f %.0f %.0f\n", m, v[1], v[NR] }' <<< "$vals"
}

cell()
{
	local s

	read -r -a s <<< "$(stat "$@")"
	if [ "${s[0]}" = - ]; then
		echo "n/a"
	else
		echo "${s[0]} (${s[1]}-${s[2]})"
	fi
}

median() { stat "$@" | cut -d' ' -f1; }

ratio()
{
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a";
		else printf "%.2f", a / b }'
}

goal()
{
	awk -v r="$1" -v g="$2" 'BEGIN { if (r == "n/a") print "not measured";
		else if (r <= g) print "met"; else print "not met" }'
}

host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
kernel=$(sed -n 's/^Linux version \([^ ]*\).*/\1/p' "$dir/smp2/serial.log" 2> /dev/null | head -n 1)
echo "make bench, $(date -u +%Y-%m-%d): host $host_cpu, $(nproc) cores; guest kernel ${kernel:-?}" \
	"with the series, QEMU ${BENCH_ACCEL:-?};"
echo "ns per operation, median (min-max) of $BENCH_RUNS runs of $BENCH_SECONDS s," \
	"$BENCH_LOOPS operations per trigger"
echo
printf '| %-4s | %-62s | %-19s | %-19s |\n' case operation "2 vCPUs" "1 vCPU"
printf '|------|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..64})" "$(printf -- '-%.0s' {1..21})" \
	"$(printf -- '-%.0s' {1..21})"
row()
{
	printf '| %-4s | %-62s | %-19s | %-19s |\n' "$1" "$2" "$3" "$4"
}
row a "bpf_kptr_alloc + bpf_list_node_init + bpf_kptr_free" \
	"$(cell smp2 local-kptr-alloc 1)" "$(cell smp1 local-kptr-alloc 1)"
row a-km "a with kmalloc(GFP_ATOMIC) (scripts/bench/kmalloc-local-kptr.patch)" \
	"$(cell kmalloc local-kptr-alloc 1)" ""
row b "lock, pop_front, unlock, lock, add_tail, unlock" \
	"$(cell smp2 local-kptr-list 1)" "$(cell smp1 local-kptr-list 1)"
row c "alloc, init, lock, add_tail, unlock, lock, pop_front, unlock, free" \
	"$(cell smp2 local-kptr-queue 1)" "$(cell smp1 local-kptr-queue 1)"
row c-km "c with kmalloc(GFP_ATOMIC)" "$(cell kmalloc local-kptr-queue 1)" ""
row d "QUEUE map push + pop, 16-byte value (6.1's alternative to c)" \
	"$(cell smp2 queue-map 1)" "$(cell smp1 queue-map 1)"
row e "HASH (no prealloc) update + delete, 16-byte value (alt. to a)" \
	"$(cell smp2 hash-map-malloc 1)" "$(cell smp1 hash-map-malloc 1)"
row f "b with 2 producers on the same list head (per producer)" \
	"$(cell smp2 local-kptr-list 2)" ""
echo
cd_r=$(ratio "$(median smp2 local-kptr-queue 1)" "$(median smp2 queue-map 1)")
ae_r=$(ratio "$(median smp2 local-kptr-alloc 1)" "$(median smp2 hash-map-malloc 1)")
cd1=$(ratio "$(median smp1 local-kptr-queue 1)" "$(median smp1 queue-map 1)")
ae1=$(ratio "$(median smp1 local-kptr-alloc 1)" "$(median smp1 hash-map-malloc 1)")
km=$(ratio "$(median kmalloc local-kptr-alloc 1)" "$(median smp2 local-kptr-alloc 1)")
echo "c/d = $cd_r (1 vCPU: $cd1): goal <= 1.0 $(goal "$cd_r" 1.0)"
echo "a/e = $ae_r (1 vCPU: $ae1): goal <= 0.5 $(goal "$ae_r" 0.5)"
echo "a with kmalloc / a with bpf_mem_alloc = $km"

csv=$dir/smp2/veristat.csv
if [ -s "$csv" ]; then
	cp "$csv" "$dir/veristat.csv"
	echo
	awk -F, 'NR > 1 {
		n++; if ($3 == "success") ok++; t += $4
		if ($5 + 0 > max) { max = $5 + 0; which = $1 "/" $2 }
		if ($7 + 0 > peak) { peak = $7 + 0; pw = $1 "/" $2 }
	} END {
		printf "veristat over the new selftest objects: %d programs (%d loaded, the\n", n, ok
		printf "others are failure tests), %.1f ms verification in all; most\n", t / 1000
		printf "instructions processed: %d (%s), goal < 100000 %s; most peak\n", max, which,
			max < 100000 ? "met" : "not met"
		printf "states: %d (%s)\n", peak, pw
	}' "$csv"
	echo "per program: $dir/veristat.csv"
else
	echo "veristat: no output (see $dir/smp2/veristat.err)"
fi
