#!/usr/bin/env bash
# Apply `series` to a scratch copy of the pristine tree with quilt (zero
# fuzz), then copy only the files whose content changed into the build tree,
# so editing one patch rebuilds only what it touches.  A patch that fails is
# named with its rejected hunks and the build tree is left as it was.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin apply

need_cmd quilt quilt
need_cmd rsync rsync
[ -f "$PRISTINE/.harness-unpacked" ] || die "no pristine tree" "run 'make unpack' first"

n=0
while read -r p; do
	[ -f "$TOP/patches/$p" ] || die "series lists '$p' but patches/$p does not exist" \
		"fix series or add the patch"
	n=$((n + 1))
done < <(series_patches)

log "resetting $STAGING from the pristine tree"
mkdir -p "$STAGING"
rsync -a --delete --exclude=/.harness-unpacked "$PRISTINE/" "$STAGING/"

if [ "$n" -gt 0 ]; then
	log "applying $n patches (quilt, fuzz 0)"
	quilt_push "$STAGING" -a ||
		die "the series does not apply; $TREE is unchanged" \
			"refresh the patch in 'make tree' (git rebase), then 'make export'"
else
	log "series is empty: nothing to apply"
fi

fresh=0
[ -d "$TREE" ] || fresh=1
log "syncing changed files into $TREE"
changed=$(sync_tree "$STAGING" "$TREE")
[ "$fresh" = 1 ] || log "$changed files changed since the last apply"
series_patches > "$TREE/.harness-series"
stage_end
