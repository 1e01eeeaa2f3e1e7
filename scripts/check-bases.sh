#!/usr/bin/env bash
# make check-bases: for every linux-source-6.1 version apt offers now, fetch
# it (cached, SHA256-checked by fetch.sh), unpack the files the series
# touches and apply the series with zero fuzz.  Prints a table: version,
# applies or the first failing patch and hunk, time.  No kernel build.  A
# version that cannot be fetched or unpacked is "not checked" with the
# reason and the others go on.  Exits non-zero only if the pinned version
# does not apply (or cannot be checked).
#   CHECK_BASES_VERSIONS="a b"   check these instead of apt's list
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin check-bases

need_cmd quilt quilt
need_cmd dpkg-deb dpkg
pkg=linux-source-6.1
pin=$KERNEL_DEB_VERSION

offered()
{
	apt-cache madison "$pkg" 2> /dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
}

if [ -n "${CHECK_BASES_VERSIONS:-}" ]; then
	versions=$CHECK_BASES_VERSIONS
else
	versions=$(offered)
	if [ -z "$versions" ]; then
		apt-get update -qq > /dev/null 2>&1 || true
		versions=$(offered)
	fi
	[ -n "$versions" ] || die "apt offers no $pkg" "check the apt sources (bookworm and bookworm-security)"
fi

# The files the series changes or deletes (new files need nothing).
files=$(mktemp)
work=$BUILD/check-bases
trap 'rm -rf "$files" "$work"' EXIT
series_patches | while read -r p; do
	sed -n 's|^--- a/\([^[:space:]]*\).*|linux-source-6.1/\1|p' "$TOP/patches/$p"
done | sort -u > "$files"
log "$(series_patches | wc -l) patches touching $(wc -l < "$files") files of the base"

table=$LOGS/check-bases.txt
printf '%-12s %-8s %s\n' version time result > "$table"
pin_ok=0
for v in $versions; do
	t0=$(date +%s)
	vlog=$LOGS/check-bases-$v.log
	result=
	if ! KERNEL_DEB_VERSION=$v "$TOP/scripts/fetch.sh" > "$vlog" 2>&1; then
		result="not checked: $(grep -m1 'error:' "$vlog" | sed 's/^\[[a-z-]*\] error: //')"
	fi
	deb=$CACHE/${pkg}_${v}_all.deb
	if [ -z "$result" ]; then
		rm -rf "$work"
		mkdir -p "$work"
		if ! dpkg-deb --fsys-tarfile "$deb" 2>> "$vlog" |
			tar -xO ./usr/src/linux-source-6.1.tar.xz 2>> "$vlog" |
			tar -xJ -C "$work" -T "$files" 2> "$work.tar-errors"; then
			# members the series creates are not in the tarball: fine
			if grep -v -e 'Not found in archive' -e 'Exiting with failure status' \
				"$work.tar-errors" > /dev/null; then
				result="not checked: unpacking failed: $(grep -v 'Not found in archive' \
					"$work.tar-errors" | head -n 1)"
			fi
		fi
		cat "$work.tar-errors" >> "$vlog"
		rm -f "$work.tar-errors"
	fi
	if [ -z "$result" ]; then
		if [ ! -d "$work/linux-source-6.1" ]; then
			result="not checked: no linux-source-6.1/ in the tarball of $deb"
		elif (KERNEL_DEB_VERSION=$v STAGE=check-bases-$v quilt_push "$work/linux-source-6.1" -a) \
			>> "$vlog" 2>&1; then
			result="applies ($(series_patches | wc -l) patches, zero fuzz)"
			[ "$v" != "$pin" ] || pin_ok=1
		else
			first=$(sed -n 's/.*error: patch .\(.*\). does not apply.*/\1/p' "$vlog" | tail -n 1)
			hunk=$(grep -m1 '  rejected in ' "$vlog" | sed 's/^ *rejected in //')
			result="fails at ${first:-?}${hunk:+: $hunk}"
		fi
	fi
	rm -rf "$work"
	mark=
	[ "$v" != "$pin" ] || mark=" (pinned)"
	printf '%-12s %-8s %s\n' "$v" "$(fmt_secs $(($(date +%s) - t0)))" "$result$mark" >> "$table"
	log "$v: $result$mark"
done
echo
cat "$table"
echo
if [ "$pin_ok" != 1 ]; then
	echo "[$STAGE] error: the pinned version $pin does not apply or was not checked (logs: $LOGS/check-bases-*.log)" >&2
	exit 1
fi
stage_end
