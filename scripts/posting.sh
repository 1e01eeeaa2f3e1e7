#!/usr/bin/env bash
# Write the series as it is posted: in parts (posting/parts), each with its
# cover letter (posting/<part>.txt, plus what it depends on, its shortlog
# and diffstat) and an mbox of its patches, numbered within the part,
# under build/posting/; then check that 'git am' applies the mboxes in
# order onto the pinned base.  Refuses while build/tree has work that
# 'make export' did not write to patches/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin posting

parts=$TOP/posting/parts
[ -f "$parts" ] || die "no $parts" "list the parts: '<first patch number> <name>' per line"
[ -f "$PRISTINE/.harness-unpacked" ] || die "no pristine tree" "run 'make unpack' first"

# patches/ must be what build/tree holds (when there is a build/tree)
if [ -d "$BUILD/tree/.git" ]; then
	chk=$(mktemp -d)
	trap 'rm -rf "$chk"' EXIT
	"$TOP/scripts/export.sh" --to "$chk" > /dev/null ||
		die "cannot export $BUILD/tree to compare it with patches/"
	if ! cmp -s "$chk/series" "$TOP/series" ||
	   ! diff -rq -x '0000-cover-letter*' "$chk/patches" "$TOP/patches" > /dev/null; then
		die "$BUILD/tree has work that is not in patches/ (unexported)" \
			"run 'make export' first, or reset build/tree to patches/ ('make tree FORCE=1')"
	fi
fi

mapfile -t all < <(series_patches)
total=${#all[@]}
version=$(sed -n 's/^Subject: \[PATCH v\([0-9]*\) .*/\1/p' "$TOP/patches/0000-cover-letter.patch" 2>/dev/null | head -n 1)
version=${version:-1}

# parts: first patch number and name, in order
firsts=() names=()
while read -r first name _; do
	case "$first" in '' | \#*) continue ;; esac
	case "$first" in *[!0-9]*) die "posting/parts: '$first' is not a patch number" ;; esac
	[ -f "$TOP/posting/$name.txt" ] || die "no posting/$name.txt (the cover letter of part $name)"
	firsts+=("$first")
	names+=("$name")
done < "$parts"
nparts=${#firsts[@]}
[ "$nparts" -gt 0 ] || die "posting/parts lists no part"
[ "${firsts[0]}" = 1 ] || die "posting/parts: the first part must start at patch 1"
for ((k = 1; k < nparts; k++)); do
	[ "${firsts[k]}" -gt "${firsts[k - 1]}" ] ||
		die "posting/parts: parts must start at increasing patch numbers (${firsts[k]})"
done
[ "${firsts[nparts - 1]}" -le "$total" ] || die "posting/parts: part past patch $total"

out=$BUILD/posting
rm -rf "$out"
mkdir -p "$out"
# each part goes through 'git am' onto the base and the parts before it;
# the cover letter gets its diffstat from there
am=$out/am-check
log "applying the parts in order with git am onto linux-source $KERNEL_DEB_VERSION"
need_cmd rsync rsync
need_cmd git git
rsync -a --delete --exclude=/.harness-unpacked "$PRISTINE/" "$am/"
git -C "$am" init -q
git -C "$am" add -A -f
git -C "$am" -c user.name=check -c user.email=check@localhost commit -q -m base
for ((k = 0; k < nparts; k++)); do
	first=${firsts[k]}
	last=$(( k + 1 < nparts ? firsts[k + 1] - 1 : total ))
	n=$((last - first + 1))
	name=${names[k]}
	dir=$out/$((k + 1))-$name
	mbox=$out/$((k + 1))-$name.mbox
	mkdir -p "$dir"
	prefix="PATCH v$version part $((k + 1))/$nparts"
	# the part's patches, numbered within it
	: > "$mbox"
	for ((i = first; i <= last; i++)); do
		p=${all[i - 1]}
		j=$((i - first + 1))
		sed "0,/^Subject: \[PATCH\] /s|^Subject: \[PATCH\] |Subject: [$prefix $(printf '%02d' "$j")/$(printf '%02d' "$n")] |" \
			"$TOP/patches/$p" > "$dir/$(printf '%04d' "$j")-${p#????-}"
		cat "$dir/$(printf '%04d' "$j")-${p#????-}" >> "$mbox"
	done
	before=$(git -C "$am" rev-parse HEAD)
	git -C "$am" -c user.name=check -c user.email=check@localhost am -q "$mbox" > "$LOGS/posting-am.log" 2>&1 ||
		die "part $((k + 1)) ($name, patches $first-$last) does not apply with git am after the parts before it (log: $LOGS/posting-am.log, tree: $am)"
	# the cover letter: the part's text, what it needs, shortlog, diffstat
	txt=$TOP/posting/$name.txt
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: Local Kptrs Project <local-kptrs@localhost>"
		echo "Subject: [$prefix 00/$(printf '%02d' "$n")] $(head -n 1 "$txt")"
		echo
		tail -n +3 "$txt"
		echo
		if [ "$k" -eq 0 ]; then
			echo "Applies to Debian's linux-source-6.1 $KERNEL_DEB_VERSION."
		else
			echo "Applies on top of parts 1-$k (patches 1-$((first - 1)) of the series), on"
			echo "Debian's linux-source-6.1 $KERNEL_DEB_VERSION."
		fi
		echo
		for ((i = first; i <= last; i++)); do
			# the subject, unfolded
			awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l
				sub(/^Subject: \[PATCH\] /, "", s); print s; exit }' \
				"$TOP/patches/${all[i - 1]}"
		done | awk '{ printf "  %s\n", $0 }'
		echo
		git -C "$am" diff --stat=72 "$before" HEAD
	} > "$dir/0000-cover-letter.patch"
	log "part $((k + 1))/$nparts $name: patches $first-$last ($n) in $dir and $mbox"
done
rm -rf "$am"
log "$nparts parts, $total patches: each applies with git am after the ones before it"
stage_end
