#!/usr/bin/env bash
# make fuzz-reverted: does the fuzzer find the holes it exists to find?
# Each fuzz/reverted/CLASS.patch undoes one soundness check of the series.
# For each: build the kernel with that check undone, fuzz from FUZZ_SEED
# until the first soundness finding or FUZZ_REVERTED_SECONDS, and record
# the time to find it.  The table goes to build/logs/fuzz-reverted.txt; the
# run fails if a class is not found in time.  The check is put back (and
# the kernel rebuilt as the series has it) at the end, also after an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for s in install-deps fetch unpack apply config build-kernel build-selftests mkinitramfs \
	build-fuzz; do
	"$TOP/scripts/$s.sh"
done

stage_begin fuzz-reverted
need_cmd patch patch
dir=$TOP/fuzz/reverted
classes=${FUZZ_REVERTED_CLASSES:-$(cd "$dir" && for p in *.patch; do echo "${p%.patch}"; done)}
seconds=${FUZZ_REVERTED_SECONDS:-600}
table=$LOGS/fuzz-reverted.txt
job=$(job_dir)
applied=

put_back()
{
	[ -n "$applied" ] || return 0
	log "$applied: putting the check back"
	patch -s -R -p1 -d "$TREE" < "$dir/$applied.patch" ||
		warn "could not reverse fuzz/reverted/$applied.patch: run 'make apply'"
	applied=
}
trap put_back EXIT

{
	echo "# make fuzz-reverted: seed $FUZZ_SEED, at most ${seconds}s per class," \
		"base $KERNEL_DEB_VERSION, $(date -u +%Y-%m-%d)"
	printf '%-10s %-7s %-9s %-9s %s\n' class privs found_in programs "first finding (model)"
} > "$table"
missed=0
for c in $classes; do
	p=$dir/$c.patch
	[ -f "$p" ] || die "no fuzz/reverted/$c.patch" "FUZZ_REVERTED_CLASSES names files in fuzz/reverted"
	# the privilege level the hole shows at: "Privileges: unpriv" in the patch
	privs=$(sed -n 's/^Privileges: //p' "$p")
	privs=${privs:-root}
	log "$c: undoing the check (fuzz/reverted/$c.patch)"
	patch -s -p1 -d "$TREE" < "$p" ||
		die "fuzz/reverted/$c.patch does not apply to $TREE" "refresh it against the series"
	applied=$c
	"$TOP/scripts/build-kernel.sh"
	FUZZ_ONLY=1 FUZZ_RUN_SECONDS=$seconds FUZZ_PRIVS=$privs FUZZ_STOP=1 \
		"$TOP/scripts/run-tests.sh" || true
	put_back
	line=$(grep -h '^fuzz-summary' "$job/fuzz-$privs.log" 2> /dev/null || true)
	get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$line"; }
	first=$(get first_finding_seconds)
	why=$(sed -n 's/^model: //p' "$job"/fuzz/soundness-*.txt 2> /dev/null | head -n 1)
	if [ -z "$line" ]; then
		first=none why="the fuzzer did not finish (serial log in $LOGS)"
	elif [ "$first" = -1 ]; then
		first=none why="not found in ${seconds}s"
	else
		first=${first}s
	fi
	[ "$first" = none ] && missed=$((missed + 1))
	printf '%-10s %-7s %-9s %-9s %s\n' "$c" "$privs" "$first" "$(get generated)" "$why" >> "$table"
	rm -rf "$BUILD/fuzz/reverted-$c"
	mkdir -p "$BUILD/fuzz/reverted-$c"
	cp "$job"/fuzz/*.txt "$BUILD/fuzz/reverted-$c/" 2> /dev/null || true
done
trap - EXIT
log "building the kernel back as the series has it"
"$TOP/scripts/build-kernel.sh"
cat "$table"
log "reproducers: $BUILD/fuzz/reverted-*"
stage_end
[ "$missed" = 0 ] || die "$missed classes not found within ${seconds}s"
