#!/usr/bin/env bash
# Series hygiene, one counted check each: series and patches/ agree; every
# patch has From, Subject, a body and a matching Signed-off-by, and its
# Fixes: and Follows upstream commit lines are well formed; every patch
# passes the tree's checkpatch.pl --strict without errors; the series
# applied with zero fuzz (checked by the apply stage of this run); each
# fuzz/reverted/*.patch and make bench's own kernel patch apply on top of it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin hygiene

mkdir -p "$RESULTS"
res=$RESULTS/hygiene.res
: > "$res"
pass() { echo "PASS $1" >> "$res"; }
fail() { echo "FAIL $1: $2" >> "$res"; log "FAIL $1: $2"; }

# 1. series <-> patches/
problems=()
while read -r p; do
	[ -f "$TOP/patches/$p" ] || problems+=("series lists missing patches/$p")
done < <(series_patches)
for f in "$TOP"/patches/*.patch; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	case "$b" in 0000-cover-letter*) continue ;; esac
	grep -qxF "$b" < <(series_patches) || problems+=("patches/$b not in series")
done
if [ ${#problems[@]} -eq 0 ]; then
	pass "series matches patches/"
else
	fail "series matches patches/" "$(IFS=';'; echo "${problems[*]}")"
fi

checkpatch=$PRISTINE/scripts/checkpatch.pl
[ -f "$checkpatch" ] || die "no $checkpatch" "run 'make unpack' first"

while read -r p; do
	f=$TOP/patches/$p
	[ -f "$f" ] || continue

	# 2. format: headers, body, sign-off by the author
	author=$(sed -n 's/^From: //p' "$f" | awk 'NR == 1')
	missing=()
	[ -n "$author" ] || missing+=("From")
	grep -q '^Subject: ' "$f" || missing+=("Subject")
	# body: a non-trailer line between the header block and the '---'
	body=$(awk 'NR > 1 && /^$/ && !h { h = 1; next }
		h && /^---$/ { exit } h' "$f" | grep -v -E '^(Signed-off-by|[A-Za-z-]+-by|Link|Fixes|Cc):' |
		grep -c '[^[:space:]]' || true)
	[ "$body" -gt 0 ] || missing+=("body")
	grep -qxF "Signed-off-by: $author" "$f" || missing+=("Signed-off-by: $author")
	if [ ${#missing[@]} -eq 0 ]; then
		pass "format $p"
	else
		fail "format $p" "missing $(IFS=,; echo "${missing[*]}")"
	fi

	# 2b. credits, each on a line of its own in the message:
	#   Fixes: <sha, 12 to 40 hex> ("<subject>")
	#   Follows upstream commit <sha, 12 to 40 hex> ("<subject>").
	bad=$(awk 'NR > 1 && /^$/ && !h { h = 1; next } h && /^---$/ { exit } h' "$f" |
		grep -E '^(Fixes|Follows)\b' |
		grep -v -E '^Fixes: [0-9a-f]{12,40} \(".+"\)$' |
		grep -v -E '^Follows upstream commit [0-9a-f]{12,40} \(".+"\)\.$' || true)
	if [ -z "$bad" ]; then
		pass "credits $p"
	else
		fail "credits $p" "malformed: $(echo "$bad" | head -n 1) (want 'Fixes: <sha12> (\"<subject>\")' or 'Follows upstream commit <sha12> (\"<subject>\").')"
	fi

	# 3. checkpatch --strict: no errors (warnings and checks are reported)
	out=$(cd "$PRISTINE" && perl "$checkpatch" --strict --no-color --show-types "$f" 2>&1 || true)
	total=$(echo "$out" | grep -E '^total: ' | tail -n 1)
	errors=$(echo "$total" | sed -n 's/^total: \([0-9]*\) errors.*/\1/p')
	echo "$out" > "$LOGS/checkpatch-$p.log"
	if [ -n "$errors" ] && [ "$errors" -eq 0 ]; then
		pass "checkpatch $p ($total)"
	else
		fail "checkpatch $p" "${total:-checkpatch did not finish} (log: $LOGS/checkpatch-$p.log)"
	fi
done < <(series_patches)

# 4. zero fuzz: the apply stage uses --fuzz=0 and records the series applied
if [ -f "$TREE/.harness-series" ] && series_patches | cmp -s - "$TREE/.harness-series"; then
	pass "series applies with zero fuzz ($(series_patches | wc -l) patches)"
else
	fail "series applies with zero fuzz" "the apply stage did not complete for this series"
fi
# 5. the fuzzer's undone checks (make fuzz-reverted) still apply to the series
for p in "$TOP"/fuzz/reverted/*.patch; do
	c=$(basename "$p" .patch)
	if patch -s --dry-run -F0 -p1 -d "$TREE" < "$p" > /dev/null 2>&1; then
		pass "fuzz/reverted/$c.patch applies to the series"
	else
		fail "fuzz/reverted/$c.patch applies to the series" \
			"refresh it against kernel/bpf/verifier.c of the series"
	fi
done
log "$(grep -c '^PASS' "$res" || true) passed, $(grep -c '^FAIL' "$res" || true) failed"
stage_end
