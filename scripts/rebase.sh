#!/usr/bin/env bash
# make rebase KERNEL_DEB_VERSION=X: move the series in $BUILD/tree onto
# linux-source-6.1 X with git.  The pristine tree of X becomes a new commit
# on top of the old base (tag 'base' moves to it, the old one stays as
# 'base-previous'), and the series is replayed onto it with 'git rebase',
# a three-way merge per patch.  On the first conflict it stops, naming the
# patch and the files; resolve with plain git (edit, git add, git rebase
# --continue).  'make export' then writes patches/ and series for X and
# moves the pin in settings.mk.  patches/ is not touched before that.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin rebase

need_cmd git git
need_cmd rsync rsync
gt=$BUILD/tree
ident=(-c user.name="Local Kptrs Project" -c user.email="local-kptrs@localhost")
[ -d "$gt/.git" ] || die "no $gt" "run 'make tree' first (on the current pin), then 'make rebase KERNEL_DEB_VERSION=X'"
tree_check_exported "$gt"
old=$(tree_base_version "$gt")
[ -n "$old" ] || die "cannot tell the linux-source version of tag 'base' in $gt"
[ "$old" != "$KERNEL_DEB_VERSION" ] ||
	die "$gt is already on $KERNEL_DEB_VERSION" "name the version to move to: make rebase KERNEL_DEB_VERSION=X"

if [ ! -f "$PRISTINE/.harness-unpacked" ]; then
	"$TOP/scripts/fetch.sh"
	"$TOP/scripts/unpack.sh"
fi
STAGE=rebase

before=$(mktemp)
trap 'rm -f "$before"' EXIT
git -C "$gt" log --reverse --format=%s base..master > "$before"
oldbase=$(git -C "$gt" rev-parse base)

log "committing linux-source-6.1 $KERNEL_DEB_VERSION on top of $old"
git -C "$gt" checkout -q --detach base
# --checksum: a file of the same size and time as the checked-out one may differ
rsync -a --checksum --delete --exclude=/.git --exclude=/.harness-unpacked "$PRISTINE/" "$gt/"
git -C "$gt" add -f -A .
GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -C "$gt" "${ident[@]}" commit -q --allow-empty \
	-m "linux-source-6.1 $KERNEL_DEB_VERSION (pristine base)" \
	-m "The previous base, $old, is tag base-previous."
git -C "$gt" tag -f base-previous "$oldbase" > /dev/null
git -C "$gt" tag -f base > /dev/null
git -C "$gt" checkout -q master

log "replaying $(wc -l < "$before") patches onto it (git rebase, three-way)"
if ! git -C "$gt" "${ident[@]}" rebase -q --empty=drop --onto base base-previous master \
	> "$LOGS/rebase.log" 2>&1; then
	stopped=$(git -C "$gt" log -1 --format=%s REBASE_HEAD 2> /dev/null || echo '?')
	num=$(grep -nxF -- "$stopped" "$before" | head -n 1 | cut -d: -f1)
	files=$(git -C "$gt" diff --name-only --diff-filter=U | paste -sd' ')
	{
		printf '[%s] error: patch %04d "%s" does not apply to %s\n' "$STAGE" "${num:-0}" "$stopped" \
			"$KERNEL_DEB_VERSION"
		printf '[%s] conflicts in: %s\n' "$STAGE" "${files:-(none; see $LOGS/rebase.log)}"
		printf '[%s] next: in %s resolve them with git (edit, git add, git rebase --continue),\n' \
			"$STAGE" "$gt"
		printf '[%s]       then make export; or git rebase --abort and git tag -f base base-previous\n' \
			"$STAGE"
	} >&2
	exit 1
fi
after=$(git -C "$gt" log --reverse --format=%s base..master)
dropped=$(grep -vxF -f <(echo "$after") "$before" || true)
if [ -n "$dropped" ]; then
	log "dropped (already in $KERNEL_DEB_VERSION or empty after the rebase):"
	echo "$dropped" | sed "s/^/[$STAGE]   /"
fi
log "$gt: $KERNEL_DEB_VERSION + $(git -C "$gt" rev-list --count base..master) commits; next: make export"
stage_end
