#!/usr/bin/env bash
# Build and boot a prefix of the series and run tests there: the kernel
# with patches 1 to PREFIX applied (or the tree PREFIX_TREE as it is), built
# like the normal kernel in build/kbuild-prefix with its selftests in
# build/selftests-prefix, running PREFIX_TESTS (a file in the format of
# selftests/tests.list).  'make prefix-test PREFIX=N PREFIX_TESTS=F';
# scripts/bisect-tests.sh runs it for each prefix that introduces a rule.
set -euo pipefail
export VARIANT=prefix
. "$(dirname "$0")/lib.sh"
stage_begin prefix

tests=${PREFIX_TESTS:-}
[ -n "$tests" ] || die "PREFIX_TESTS is not set" \
	"give a file in the format of selftests/tests.list"
[ -f "$tests" ] || die "no file $tests (PREFIX_TESTS)"

if [ -n "${PREFIX_TREE:-}" ]; then
	[ -f "$PREFIX_TREE/Makefile" ] || die "no kernel tree at $PREFIX_TREE (PREFIX_TREE)"
	log "using $PREFIX_TREE as it is"
else
	n=${PREFIX:-}
	total=$(series_patches | wc -l)
	case "$n" in
	'' | *[!0-9]*) die "PREFIX must be a number of patches (1 to $total), got '$n'" ;;
	esac
	[ "$n" -ge 1 ] && [ "$n" -le "$total" ] ||
		die "PREFIX=$n is not between 1 and $total, the patches of the series"
	need_cmd quilt quilt
	need_cmd rsync rsync
	[ -f "$PRISTINE/.harness-unpacked" ] || die "no pristine tree" "run 'make unpack' first"
	staging=$BUILD/prefix/staging
	mkdir -p "$staging"
	log "applying patches 1-$n ($(series_patches | sed -n "${n}p"))"
	rsync -a --delete --exclude=/.harness-unpacked "$PRISTINE/" "$staging/"
	quilt_push "$staging" "$(series_patches | sed -n "${n}p")" ||
		die "patches 1-$n do not apply; $TREE is unchanged"
	changed=$(sync_tree "$staging" "$TREE")
	log "$changed files changed in $TREE"
fi

for s in config build-kernel build-selftests mkinitramfs; do
	"$TOP/scripts/$s.sh"
done
TESTS_LIST=$tests TEST_PROGS_PARALLEL=0 "$TOP/scripts/run-tests.sh"
stage_end
