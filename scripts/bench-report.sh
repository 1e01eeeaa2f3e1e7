#!/usr/bin/env bash
# bench-report.sh DIR: the report of make bench from the guest outputs in
# DIR/{smp1,smp2} (scripts/run-bench.sh): ns per operation as median and
# interquartile range of the runs, flagged when the range exceeds 20% of
# the median; BPF against the native C baselines; the ratios of the goals;
# memory figures; the top of each profile; veristat figures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=bench-report

dir=$1

# quartiles FORMAT: "median q1 q3" of the numbers on stdin, one a line,
# each printed with FORMAT, or "- - -" for none. Quartiles by linear
# interpolation between the sorted numbers.
quartiles()
{
	sort -g | awk -v fmt="$1" 'function q(p,   h, l) {
		h = 1 + (n - 1) * p; l = int(h)
		return l >= n ? v[n] : v[l] + (h - l) * (v[l + 1] - v[l])
	}
	NF { v[++n] = $1 }
	END {
		if (!n) { print "- - -"; exit }
		printf fmt " " fmt " " fmt "\n", q(0.5), q(0.25), q(0.75)
	}'
}

# latency FILE: the ns/op of a bench run's log, or nothing
latency()
{
	sed -n 's/^Summary: .*latency *\([0-9.]*\) ns\/op.*/\1/p' "$1" 2> /dev/null || true
}

# stat BOOT NAME PRODUCERS: "median q1 q3" of the runs' ns/op, or "- - -"
stat()
{
	local f

	for f in "$dir/$1/bench-$2-p$3-"*.log; do
		if [ -f "$f" ]; then
			latency "$f"
		fi
	done | quartiles %.0f
}

# show [flag]: "median q1 q3" on stdin as "median [q1-q3]", or n/a; with
# flag, " !" after it when (q3-q1)/median > 20%
show()
{
	local s

	read -r -a s
	if [ "${s[0]}" = - ]; then
		echo "n/a"
		return
	fi
	awk -v m="${s[0]}" -v a="${s[1]}" -v b="${s[2]}" -v flag="${1:-}" 'BEGIN {
		printf "%s [%s-%s]%s\n", m, a, b,
			(flag && m > 0 && (b - a) / m > 0.2) ? " !" : "" }'
}

# cell BOOT NAME PRODUCERS: the runs' ns/op, spread flagged
cell() { stat "$@" | show flag; }

# pratio BOOT NUM DEN: "median q1 q3" of the ratios NUM/DEN of the runs of
# the same round (producers 1), or "- - -". Rounds interleave the cases,
# so a slower phase of the host slows both runs of a round alike: the
# ratio of a round is steadier than the ratio of two medians.
pratio()
{
	local f i n d vals=""

	for f in "$dir/$1/bench-$2-p1-"*.log; do
		[ -f "$f" ] || continue
		i=${f##*-}
		i=${i%.log}
		n=$(latency "$f")
		d=$(latency "$dir/$1/bench-$3-p1-$i.log")
		if [ -z "$n" ] || [ -z "$d" ]; then
			continue
		fi
		vals+="$(awk -v n="$n" -v d="$d" 'BEGIN { if (d > 0) print n / d }')"$'\n'
	done
	quartiles %.2f <<< "$vals"
}

# pcell BOOT NUM DEN: the paired ratios
pcell() { pratio "$@" | show; }

goal()
{
	awk -v r="$1" -v g="$2" 'BEGIN { if (r == "n/a") print "not measured";
		else if (r <= g) print "met"; else print "not met" }'
}

host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# the kernel's banner, or the guest job's line where the console starts
# later (Debian's config)
kernel=$(sed -n -e 's/^Linux version \([^ ]*\).*/\1/p' -e 's/^guest: kernel \([^ ,]*\),.*/\1/p' \
	"$dir/smp1/serial.log" 2> /dev/null | head -n 1 || true)
echo "make bench, $(date -u +%Y-%m-%d): host $host_cpu, $(nproc) cores; guest kernel ${kernel:-?}" \
	"with the series, QEMU ${BENCH_ACCEL:-?};"
echo "ns per operation: median [interquartile range] of $BENCH_RUNS interleaved runs of" \
	"$BENCH_SECONDS s, $BENCH_LOOPS operations per trigger; ! = range above 20% of the median"
echo
w=66
printf '| %-4s | %-*s | %-17s | %-17s | %-17s | %-17s |\n' case "$w" operation "1 vCPU" \
	"2 vCPUs" "native, 1 vCPU" "BPF/native"
dash() { printf -- '-%.0s' $(seq 1 "$1"); }
printf '|------|%s|%s|%s|%s|%s|\n' "$(dash $((w + 2)))" "$(dash 19)" "$(dash 19)" "$(dash 19)" \
	"$(dash 19)"
row()
{
	printf '| %-4s | %-*s | %-17s | %-17s | %-17s | %-17s |\n' "$1" "$w" "$2" "$3" "$4" "$5" "$6"
}
# bpfrow CASE TEXT BENCH NATIVE
bpfrow()
{
	local nat=n/a r=n/a

	if [ -n "$4" ]; then
		nat=$(cell smp1 "$4" 1)
		r=$(pcell smp1 "$3" "$4")
	fi
	row "$1" "$2" "$(cell smp1 "$3" 1)" "$(cell smp2 "$3" 1)" "$nat" "$r"
}
bpfrow a "bpf_kptr_alloc + bpf_list_node_init + bpf_kptr_free" local-kptr-alloc native-alloc
bpfrow b "lock, pop_front, unlock, lock, add_tail, unlock" local-kptr-list native-list
bpfrow c "alloc, init, lock, add_tail, unlock, lock, pop_front, unlock, free" \
	local-kptr-queue native-queue
bpfrow d "QUEUE map push + pop, 16-byte value (6.1's alternative to c)" queue-map ""
bpfrow e "HASH (no prealloc) update + delete, 16-byte value (alt. to a)" hash-map-malloc ""
row f "b with 2 producers on the same list head (per producer)" "" \
	"$(cell smp2 local-kptr-list 2)" "" ""
bpfrow g "queue of 64 by key: obj_new, rbtree_add, first, remove, drop" \
	local-kptr-tree native-tree
bpfrow h "binary heap of 64 in an array value: push, pop (6.1 alt. to g)" \
	array-heap ""
bpfrow i "bpf_obj_new + bpf_obj_drop, no bpf_refcount (cache reuse)" local-kptr-new ""
bpfrow j "i with a bpf_refcount: count set, dropped, freed after RCU" \
	local-kptr-new-counted ""
bpfrow k "j with 8 bpf_refcount_acquire + bpf_obj_drop pairs" refcount-acquire ""
echo

# goal_line NAME NUM DEN [LIMIT]: the median of the ratios of the rounds
# of the 1-vCPU boot [interquartile range] (2 vCPUs after it), against
# LIMIT if there is a goal
goal_line()
{
	local r1 r2

	r1=$(pratio smp1 "$2" "$3" | cut -d' ' -f1)
	r2=$(pratio smp2 "$2" "$3" | cut -d' ' -f1)
	[ "$r1" = - ] && r1=n/a
	[ "$r2" = - ] && r2=n/a
	if [ -z "${4:-}" ]; then
		echo "$1 = $(pcell smp1 "$2" "$3") (2 vCPUs: $r2): no goal set"
		return
	fi
	echo "$1 = $(pcell smp1 "$2" "$3") (2 vCPUs: $r2): goal <= $4 $(goal "$r1" "$4")"
}
goal_line "b/d" local-kptr-list queue-map 0.8
goal_line "c/d" local-kptr-queue queue-map 1.0
goal_line "a/native a" local-kptr-alloc native-alloc 1.5
goal_line "b/native b" local-kptr-list native-list 1.5
goal_line "c/native c" local-kptr-queue native-queue 1.5
goal_line "g/h" local-kptr-tree array-heap
goal_line "g/native g" local-kptr-tree native-tree
goal_line "j/i" local-kptr-new-counted local-kptr-new
goal_line "k/j" refcount-acquire local-kptr-new-counted
echo "(native: C in bpf_testmod with kmalloc(GFP_ATOMIC)/kfree(), the BPF allocator is not exported;"
echo " the native tree uses rb_add_cached()/rb_erase_cached(); g, h and native g sort the same keys)"
echo "(ratios: median [interquartile range] of the ratios of the two runs of each round)"
# the operations that failed (Errors: of bench_local_kptr.c): allocation
# failures, empty lists or queues, a key above the one added
errs=$(awk '/^Errors: / && $2 > 0 { n = FILENAME; sub(/.*\/bench-/, "", n); sub(/-p[0-9]+-[0-9]+\.log$/, "", n)
	e[n] += $2 } END { for (n in e) printf "%s %d; ", n, e[n] }' \
	"$dir"/smp*/bench-*.log 2> /dev/null || true)
runs=$(grep -l '^Errors: ' "$dir"/smp*/bench-*.log 2> /dev/null | wc -l || true)
echo "failed operations over the $runs runs that report them: ${errs:-none}"

mem=$dir/smp1/mem.log
if [ -s "$mem" ] && grep -q '^local_kptr_mem: ' "$mem"; then
	echo
	echo "memory, $(sed -n 's/.* objects \([0-9]*\):.*/\1/p' "$mem" | head -n 1) live objects" \
		"of each size, then all freed: slab memory (/proc/meminfo) per live object, and held" \
		"right after the free and after the RCU callbacks (3 rcu_barrier rounds)"
	printf '| %-4s | %-18s | %-18s | %-18s | %-18s | %-18s | %-18s |\n' size \
		"B/object, bpf" "B/object, kmalloc" "held, bpf (kB)" "held, kmalloc" \
		"after RCU, bpf" "after RCU, kmalloc"
	printf '|------|%s|%s|%s|%s|%s|%s|\n' "$(dash 20)" "$(dash 20)" "$(dash 20)" \
		"$(dash 20)" "$(dash 20)" "$(dash 20)"
	awk '/^local_kptr_mem: / {
		a = $2; s = $4; per[a, s] = $7; held[a, s] = $15; rcu[a, s] = $19; sizes[s] = 1
	} END {
		n = split("16 64 512", order, " ")
		for (i = 1; i <= n; i++) {
			s = order[i]
			if (!(s in sizes))
				continue
			printf "| %-4s | %-18s | %-18s | %-18s | %-18s | %-18s | %-18s |\n",
				s, per["bpf_kptr_alloc", s], per["kmalloc", s],
				held["bpf_kptr_alloc", s], held["kmalloc", s],
				rcu["bpf_kptr_alloc", s], rcu["kmalloc", s]
		}
	}' "$mem"
else
	echo
	echo "memory: no figures (see $mem)"
fi

for f in "$dir"/smp1/perf-*.txt; do
	[ -s "$f" ] || continue
	name=$(basename "$f" .txt)
	echo
	echo "profile ${name#perf-} (1 vCPU, cpu-clock, whole guest), top entries:"
	grep -E '^ +[0-9.]+%' "$f" | head -n 8
done

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
