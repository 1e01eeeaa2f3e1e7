#!/usr/bin/env bash
# Compare two veristat CSV runs (veristat -o csv) of the same objects:
#   veristat-compare.sh PRISTINE.csv PATCHED.csv TABLE RESULTS [EXPECTED]
# TABLE gets one line per program: file, program, both verdicts, both
# instruction and state counts, the change of instructions in percent.
# Printed: the totals over the programs both kernels accept, the programs
# whose verdict changed and the largest growths.  RESULTS (a .res file)
# gets a FAIL line per program only the pristine kernel accepts, or one
# PASS line; a program listed in EXPECTED ("object program reason" lines,
# # comments) gets a PASS line with its reason instead.
set -euo pipefail
[ $# -eq 4 ] || [ $# -eq 5 ] ||
	{ echo "usage: $0 PRISTINE.csv PATCHED.csv TABLE RESULTS [EXPECTED]" >&2; exit 2; }
pristine=$1 patched=$2 table=$3 res=$4 expected=${5:-/dev/null}

# columns by name from each header: veristat orders them by its -e list
awk -F, -v table="$table" -v res="$res" -v expected="$expected" '
BEGIN {
	while ((getline line < expected) > 0) {
		if (line ~ /^[ \t]*(#|$)/)
			continue
		n = split(line, w, /[ \t]+/)
		reason = line
		sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", reason)
		known[w[1] " " w[2]] = reason
	}
}
function col(name,   i) {
	for (i = 1; i <= NF; i++)
		if ($i == name)
			return i
	printf "veristat-compare: no column %s in %s\n", name, FILENAME > "/dev/stderr"
	exit 2
}
FNR == 1 {
	f = col("file_name"); p = col("prog_name"); v = col("verdict")
	ins = col("total_insns"); st = col("total_states")
	run = (FILENAME == ARGV[1]) ? "p" : "x"
	next
}
{
	key = $f " " $p
	seen[key] = 1
	verdict[run, key] = $v; insns[run, key] = $ins; states[run, key] = $st
}
END {
	printf "" > table
	n = both = 0
	for (key in seen) {
		n++
		vp = ((("p", key) in verdict) ? verdict["p", key] : "none")
		vx = ((("x", key) in verdict) ? verdict["x", key] : "none")
		ip = insns["p", key] + 0; ix = insns["x", key] + 0
		sp = states["p", key] + 0; sx = states["x", key] + 0
		pct = ip ? (ix - ip) * 100.0 / ip : 0
		printf "%s %s %s %d %d %+.1f%% %d %d\n", key, vp, vx, ip, ix, pct, sp, sx > table
		if (vp == "success" && vx == "success") {
			both++; tip += ip; tix += ix; tsp += sp; tsx += sx
			if (pct > 10) grew10++
			if (pct < -10) shrank10++
		} else if (vp == "success" && (key in known)) {
			refused = refused sprintf("  %s (pristine %d insns; expected: %s)\n", key, ip, known[key])
			printf "PASS regress veristat %s: refused patched as expected (%s)\n", key, known[key] >> res
		} else if (vp == "success") {
			refused = refused sprintf("  %s (pristine %d insns)\n", key, ip)
			nrefused++
			printf "FAIL regress veristat %s: accepted by the pristine kernel, %s patched\n", key, vx >> res
		} else if (vx == "success") {
			accepted = accepted sprintf("  %s\n", key)
			naccepted++
		}
	}
	printf "veristat: %d programs, %d accepted by both kernels\n", n, both
	printf "  verified instructions: %d pristine, %d patched (%+.2f%%)\n", tip, tix, tip ? (tix - tip) * 100.0 / tip : 0
	printf "  states: %d pristine, %d patched (%+.2f%%)\n", tsp, tsx, tsp ? (tsx - tsp) * 100.0 / tsp : 0
	printf "  programs with more than 10%% more instructions: %d, more than 10%% fewer: %d\n", grew10, shrank10
	printf "refused patched, accepted pristine: %s\n", refused != "" ? "\n" refused : "none"
	printf "accepted patched, refused pristine: %s\n", naccepted ? "\n" accepted : "none"
	if (!nrefused)
		printf "PASS regress veristat: %d programs, none refused that the pristine kernel accepts but those expected (instructions %+.2f%%)\n", n, tip ? (tix - tip) * 100.0 / tip : 0 >> res
}' "$pristine" "$patched"
LC_ALL=C sort -o "$table" "$table"
echo "largest growths (file program verdicts insns change states):"
awk '$3 == "success" && $4 == "success"' "$table" | sort -t' ' -k7,7 -g -r | head -n 10 | sed 's/^/  /'
