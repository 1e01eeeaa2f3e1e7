#!/usr/bin/env bash
# Write patches/ and series from $BUILD/tree (commits since tag 'base') with
# git format-patch, stable names (NNNN-subject.patch) and no version noise,
# so exporting an unchanged tree changes nothing.
#   export.sh [--to DIR]   write DIR/patches and DIR/series instead
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=export

dest=$TOP
[ "${1:-}" = --to ] && dest=$2
gt=$BUILD/tree
[ -d "$gt/.git" ] || die "no $gt" "run 'make tree' first"
if [ -n "$(git -C "$gt" status --porcelain --untracked-files=no)" ]; then
	die "$gt has uncommitted changes" "commit them first"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$gt" -c core.abbrev=12 -c diff.noprefix=false format-patch -q \
	--no-signature --zero-commit --no-numbered --subject-prefix=PATCH \
	--full-index -o "$tmp" base..HEAD
mkdir -p "$dest/patches"
find "$dest/patches" -name '*.patch' ! -name '0000-cover-letter*' -delete
: > "$dest/series"
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	cp "$f" "$dest/patches/$b"
	echo "$b" >> "$dest/series"
done
log "wrote $(wc -l < "$dest/series") patches to $dest/patches and $dest/series"
