#!/usr/bin/env bash
# Put the headline figures of two make bench reports side by side:
#   bench-compare.sh NAME_A REPORT_A NAME_B REPORT_B
# e.g. the harness's config (build/bench/report.txt) and Debian's own
# (build/bench-distro/report.txt).  Per case: the 1-vCPU median and
# BPF/native of each report; then each goal line of both.  A report that
# lacks a case shows "-".
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 NAME_A REPORT_A NAME_B REPORT_B" >&2; exit 2; }
name_a=$1 report_a=$2 name_b=$3 report_b=$4
for r in "$report_a" "$report_b"; do
	[ -s "$r" ] || { echo "bench-compare: no report $r (run its make bench first)" >&2; exit 1; }
done

awk -v na="$name_a" -v nb="$name_b" '
# the value before its [interquartile range]
function med(s) {
	gsub(/^ +| +$/, "", s)
	sub(/ *\[.*/, "", s)
	return s == "" ? "-" : s
}
function or_dash(s) {
	return s == "" ? "-" : s
}
FNR == 1 { file++ }
/^\| [a-k]    \|/ || /^\| [ac]-km \|/ {
	split($0, c, "|")
	k = c[2]; gsub(/ /, "", k)
	if (!(k in op)) {
		order[++n] = k
		op[k] = c[3]; gsub(/^ +| +$/, "", op[k])
	}
	one[file, k] = med(c[4]); two[file, k] = med(c[5])
	native[file, k] = med(c[6]); ratio[file, k] = med(c[7])
}
/: goal <= / || /: no goal set$/ {
	g = $0; sub(/ = .*/, "", g)
	v = $0; sub(/^[^=]*= /, "", v); sub(/ \[.*\(2 vCPUs/, " (2 vCPUs", v)
	if (!(g in goal))
		gorder[++ng] = g
	goal[g] = 1; gv[file, g] = v
}
END {
	w = length(na) > length(nb) ? length(na) : length(nb)
	w += 8
	d = sprintf("%" (w + 2) "s", ""); gsub(/ /, "-", d)
	f = "%-" w "s"
	row = "| %-4s | %-66s | " f " | " f " | " f " | " f " | " f " | " f " |\n"
	printf row, "case", "operation", na, nb, na " native", nb " native", na " BPF/nat",
		nb " BPF/nat"
	printf "|------|%s|%s|%s|%s|%s|%s|%s|\n",
		"--------------------------------------------------------------------",
		d, d, d, d, d, d
	for (i = 1; i <= n; i++) {
		k = order[i]
		a1 = one[1, k]; b1 = one[2, k]
		if (a1 == "-" || a1 == "") a1 = two[1, k]
		if (b1 == "-" || b1 == "") b1 = two[2, k]
		printf row, k, op[k], a1 == "" ? "-" : a1, b1 == "" ? "-" : b1,
			or_dash(native[1, k]), or_dash(native[2, k]),
			or_dash(ratio[1, k]), or_dash(ratio[2, k])
	}
	print ""
	for (i = 1; i <= ng; i++) {
		g = gorder[i]
		printf "%s: %s %s; %s %s\n", g, na, gv[1, g] == "" ? "-" : gv[1, g],
			nb, gv[2, g] == "" ? "-" : gv[2, g]
	}
	print "(medians in ns per operation, 1 vCPU; f is the 2-vCPU figure per producer)"
}' "$report_a" "$report_b"
