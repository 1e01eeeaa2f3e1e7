#!/usr/bin/env bash
# Create $BUILD/tree: a git repository of the pristine base (one commit,
# tagged 'base') with every patch of `series` applied as its own commit.
# Edit it with git (commit --fixup, rebase -i), then 'make export'.
# Refuses to replace a tree holding work that is not exported yet.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin tree

need_cmd git git
need_cmd rsync rsync
[ -f "$PRISTINE/.harness-unpacked" ] || die "no pristine tree" "run 'make unpack' first"
gt=$BUILD/tree
ident=(-c user.name="Local Kptrs Project" -c user.email="local-kptrs@localhost")

if [ -d "$gt/.git" ] && [ "${FORCE:-0}" != 1 ]; then
	tree_check_exported "$gt"
fi

rm -rf "$gt"
log "copying the pristine tree"
rsync -a --exclude=/.harness-unpacked "$PRISTINE/" "$gt/"
cd "$gt"
git init -q -b master
# Commits made by hand in this tree (fixups, splits) get the series' author
git config user.name "Local Kptrs Project"
git config user.email "local-kptrs@localhost"
# Debian's top-level .gitignore ignores everything ("/*"): add by force.
# New files in this tree need 'git add -f' for the same reason.
git add -f -A .
GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git "${ident[@]}" commit -q -m "linux-source-6.1 $KERNEL_DEB_VERSION (pristine base)"
git tag base
n=0
while read -r p; do
	if ! git "${ident[@]}" am -q --3way "$TOP/patches/$p" > "$LOGS/tree-am.log" 2>&1; then
		cat "$LOGS/tree-am.log" >&2
		git am --abort 2> /dev/null || true
		die "git am failed on $p" "fix the patch; the tree stops before it"
	fi
	n=$((n + 1))
done < <(series_patches)
log "$gt: base + $n commits (branch master, tag base)"
stage_end
