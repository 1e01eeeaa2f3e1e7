#!/usr/bin/env bash
# make regress: the pristine tree to compare against, in $BUILD/linux-pristine
# (VARIANT=pristine).  It is the base with only the first PRISTINE_FIXES
# patches of the series applied: the selftests build fixes test_progs needs
# to build at all (SPEC.md, known problems of the base).  They must touch
# nothing but tools/testing/selftests/, so the kernel is the pristine one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin prepare-pristine

[ "$VARIANT" = pristine ] || die "run with VARIANT=pristine"
need_cmd quilt quilt
need_cmd rsync rsync
[ -f "$PRISTINE/.harness-unpacked" ] || die "no pristine tree" "run 'make unpack' first"

mapfile -t fixes < <(series_patches | head -n "$PRISTINE_FIXES")
[ "${#fixes[@]}" -eq "$PRISTINE_FIXES" ] ||
	die "series has fewer than PRISTINE_FIXES=$PRISTINE_FIXES patches"
for p in "${fixes[@]}"; do
	outside=$(grep -E '^\+\+\+ b/' "$TOP/patches/$p" | sed 's|^+++ b/||' |
		  grep -v '^tools/testing/selftests/' || true)
	[ -z "$outside" ] || die "$p touches more than the selftests: $outside" \
		"lower PRISTINE_FIXES in settings.mk, or reorder the series"
done

staging=$BUILD/src/staging-pristine
log "resetting $staging from the pristine tree"
mkdir -p "$staging"
rsync -a --delete --exclude=/.harness-unpacked "$PRISTINE/" "$staging/"
log "applying the selftests build fixes: ${fixes[*]}"
quilt_push "$staging" "${fixes[-1]}" || die "the selftests build fixes do not apply"
log "syncing changed files into $TREE"
changed=$(sync_tree "$staging" "$TREE")
log "$changed files changed since the last run"
stage_end
