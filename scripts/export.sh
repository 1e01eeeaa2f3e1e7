#!/usr/bin/env bash
# Write patches/ and series from $BUILD/tree (commits since tag 'base') with
# git format-patch, stable names (NNNN-subject.patch) and no version noise,
# so exporting an unchanged tree changes nothing.  When the tree is on
# another linux-source version than settings.mk pins (after 'make rebase'),
# the pin moves to the tree's version.
#   export.sh [--to DIR]   write DIR/patches and DIR/series instead (no pin)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=export

dest=$TOP
[ "${1:-}" = --to ] && dest=$2
gt=$BUILD/tree
[ -d "$gt/.git" ] || die "no $gt" "run 'make tree' first"
if [ -d "$gt/.git/rebase-merge" ] || [ -d "$gt/.git/rebase-apply" ]; then
	die "a git rebase is in progress in $gt: nothing exported" \
		"resolve it (git add, git rebase --continue), or 'git -C $gt rebase --abort'"
fi
if [ -n "$(git -C "$gt" status --porcelain --untracked-files=no)" ]; then
	die "$gt has uncommitted changes" "commit them first"
fi
if ! git -C "$gt" merge-base --is-ancestor base HEAD; then
	die "HEAD of $gt is not on top of tag 'base' (an aborted 'make rebase'?)" \
		"'make rebase' again, or put the tag back: git -C $gt tag -f base base-previous"
fi
base_version=$(tree_base_version "$gt")
[ -n "$base_version" ] || die "cannot tell the linux-source version of tag 'base' in $gt"

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
pin=$(sed -n 's/^KERNEL_DEB_VERSION ?= //p' "$TOP/settings.mk")
if [ "$dest" = "$TOP" ] && [ "$base_version" != "$pin" ]; then
	sed -i "s/^KERNEL_DEB_VERSION ?= .*/KERNEL_DEB_VERSION ?= $base_version/" "$TOP/settings.mk"
	log "moved the pin in settings.mk: $pin -> $base_version"
fi
