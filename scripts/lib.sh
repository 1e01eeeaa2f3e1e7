# shellcheck shell=bash
# Common helpers for the harness scripts: settings, paths, logging, timing.
# Sourced, never run.  Every stage script starts with
#   . "$(dirname "$0")/lib.sh"; stage_begin <name>
# and ends with stage_end.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Defaults from settings.mk ("VAR ?= value") for variables not already set
# by make or the environment.
while IFS= read -r line; do
	case "$line" in
	[A-Z]*' ?= '*)
		var=${line%% ?= *}
		val=${line#* ?= }
		if [ -z "${!var+x}" ]; then
			printf -v "$var" '%s' "$val"
			export "${var?}"
		fi
		;;
	esac
done < "$TOP/settings.mk"
unset line var val
# Settings given on make's command line (make test BUILD_DIR=...) reach the
# scripts in MAKEFLAGS too, and from there every make they run, where they
# would override the kernel's and the selftests' variables of the same name
# (the selftests Makefile has a BUILD_DIR of its own): the makes the
# scripts run get only the arguments the scripts give them.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES

case "$BUILD_DIR" in
/*) BUILD=$BUILD_DIR ;;
*) BUILD=$TOP/$BUILD_DIR ;;
esac
CACHE=$BUILD/cache			# downloaded .deb files
PRISTINE=$BUILD/src/linux-$KERNEL_DEB_VERSION	# unpacked base, never modified
STAGING=$BUILD/src/staging		# scratch copy where the series is applied
TREE=$BUILD/linux			# patched source tree the builds use
# VARIANT=debug (make test-debug): a second kernel and selftests build, in
# directories of their own, so the normal build stays warm.
# VARIANT=pristine (make regress): the base tree with only the selftests
# build fixes of the series, built the same way.
VARIANT=${VARIANT:-}
[ "$VARIANT" = pristine ] && TREE=$BUILD/linux-pristine
# VARIANT=distro (make test-distro, make bench-distro): the patched tree
# built with Debian's own config (scripts/config-distro.sh).
# VARIANT=prefix (make prefix-test): a tree holding a prefix of the series,
# PREFIX_TREE (default build/prefix/linux), built like the normal kernel
[ "$VARIANT" = prefix ] && TREE=${PREFIX_TREE:-$BUILD/prefix/linux}
suffix=${VARIANT:+-$VARIANT}
KBUILD=$BUILD/kbuild$suffix		# kernel objects (O=)
STOUT=$BUILD/selftests$suffix		# BPF selftests output
RESULTS=$BUILD/results$suffix		# *.res files the summary counts
unset suffix
LOGS=$BUILD/logs
TIMINGS=$LOGS/timings.txt
export TOP BUILD CACHE PRISTINE STAGING TREE KBUILD STOUT RESULTS LOGS TIMINGS VARIANT

# job_dir: the directory a guest run of this kind uses (qemu/guest-job.sh,
# its outputs, serial-console pointing at its serial console log); one per
# variant and kind (FULL_RUN, STRESS_RUNS), so runs of different kinds can
# overlap.
job_dir()
{
	local d=$BUILD/run${VARIANT:+-$VARIANT}

	[ "${FULL_RUN:-0}" = 1 ] && d=$d-full
	[ "${STRESS_RUNS:-0}" -gt 0 ] && d=$d-stress
	echo "$d"
}

STAGE=${STAGE:-harness}

log()
{
	printf '[%s] %s\n' "$STAGE" "$*"
}

warn()
{
	printf '[%s] warning: %s\n' "$STAGE" "$*" >&2
}

# die MESSAGE [HINT]: stop the stage, saying what went wrong and what to do.
die()
{
	printf '[%s] error: %s\n' "$STAGE" "$1" >&2
	if [ $# -gt 1 ]; then
		printf '[%s] next: %s\n' "$STAGE" "$2" >&2
	fi
	exit 1
}

stage_begin()
{
	STAGE=$1
	STAGE_START=$(date +%s)
	mkdir -p "$LOGS"
	log "start"
}

stage_end()
{
	local secs=$(($(date +%s) - STAGE_START))

	printf '%s %d\n' "$STAGE${VARIANT:+/$VARIANT}" "$secs" >> "$TIMINGS"
	log "done in $(fmt_secs "$secs")"
}

fmt_secs()
{
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

need_cmd()
{
	local cmd=$1 pkg=$2

	command -v "$cmd" > /dev/null 2>&1 ||
		die "'$cmd' not found" "run 'make deps' or: apt-get install $pkg"
}

# Patches listed in series, in order, without comments and blank lines.
series_patches()
{
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$TOP/series"
}

# sync_tree SRC DST: make DST's content equal SRC's, rewriting only files
# whose content differs.  Times are not copied: a rewritten file gets the
# current time, newer than its objects, even when it goes back to pristine
# content (whose tarball mtime is old), and an unchanged file keeps its
# time, so make rebuilds exactly what changed.  Prints how many files
# were rewritten.
sync_tree()
{
	local src=$1 dst=$2

	mkdir -p "$dst"
	rsync -rlpD --checksum --delete --exclude=/.pc --exclude=/.harness-\* \
		--out-format='%n' "$src/" "$dst/" | grep -vc '/$' || true
}

# quilt_push DIR [quilt push args]: apply series in DIR with zero fuzz; on
# failure name the patch and its rejected hunks and return 1.
quilt_push()
{
	local dir=$1 qlog=$LOGS/quilt-$STAGE.log failed

	shift
	if (cd "$dir" && QUILT_PATCHES=$TOP/patches QUILT_SERIES=$TOP/series QUILT_PC=.pc \
		quilt push --fuzz=0 "$@" > "$qlog" 2>&1); then
		return 0
	fi
	failed=$(sed -n 's/^Applying patch .*patches\/\(.*\)$/\1/p' "$qlog" | tail -n 1)
	{
		echo "----- quilt output (tail of $qlog) -----"
		tail -n 20 "$qlog"
		echo "----------------------------------------"
		awk '/^patching file/ { f = $3 } /^Hunk #[0-9]+ FAILED/ { print "  rejected in " f ": " $0 }' "$qlog"
		echo "[$STAGE] error: patch '${failed:-?}' does not apply to linux-source $KERNEL_DEB_VERSION with zero fuzz"
	} >&2
	return 1
}

# tree_base_version GT: the linux-source version the git tree GT is built
# on, from the subject of its 'base' commit ("linux-source-6.1 X (...)").
tree_base_version()
{
	git -C "$1" log -1 --format=%s base 2> /dev/null | sed -n 's/^linux-source-6.1 \([^ ]*\) .*/\1/p'
}

# tree_check_exported GT: die unless the git tree GT holds nothing that
# 'make export' has not written to patches/ and series yet.
tree_check_exported()
{
	local gt=$1 tmp

	if [ -d "$gt/.git/rebase-merge" ] || [ -d "$gt/.git/rebase-apply" ]; then
		die "a git rebase is in progress in $gt" \
			"finish it (git add, git rebase --continue) and 'make export', or 'git -C $gt rebase --abort'"
	fi
	if [ -n "$(git -C "$gt" status --porcelain --untracked-files=no)" ]; then
		die "$gt has uncommitted changes" "commit them and 'make export', or 'make tree FORCE=1' to discard"
	fi
	git -C "$gt" rev-parse -q --verify refs/tags/base > /dev/null ||
		die "$gt is not a tree made by 'make tree' (no tag base)" "move it away, or 'make tree FORCE=1'"
	tmp=$(mktemp -d)
	"$TOP/scripts/export.sh" --to "$tmp" > /dev/null
	if ! diff -rq "$tmp/patches" "$TOP/patches" -x '0000-cover-letter*' > /dev/null 2>&1 ||
		! cmp -s "$tmp/series" "$TOP/series"; then
		rm -rf "$tmp"
		die "$gt has commits that differ from patches/" "'make export' first, or 'make tree FORCE=1' to discard them"
	fi
	rm -rf "$tmp"
}

# Put Debian's clang/LLVM $LLVM_VERSION (unversioned clang, llc, llvm-strip)
# first in PATH, as the BPF selftests build expects.
use_debian_llvm()
{
	local llvm_bin=/usr/lib/llvm-$LLVM_VERSION/bin

	[ -x "$llvm_bin/clang" ] || die "clang $LLVM_VERSION not found in $llvm_bin" \
		"run 'make deps' or: apt-get install clang-$LLVM_VERSION llvm-$LLVM_VERSION lld-$LLVM_VERSION"
	export PATH=$llvm_bin:$PATH
}

# fetch_deb PACKAGE VERSION SHA256 DEST HINT: DEST is PACKAGE=VERSION as
# apt-get download gets it, checked against SHA256 (apt's signed index);
# a copy already there with that SHA256 is kept.  HINT: what to run again
# after a failed download.
fetch_deb()
{
	local pkg=$1 ver=$2 sha=$3 dest=$4 hint=$5 tmp got

	if [ -f "$dest" ] && echo "$sha  $dest" | sha256sum --quiet -c - 2> /dev/null; then
		log "cached: $dest (sha256 ok)"
		return 0
	fi
	rm -f "$dest"
	log "downloading $pkg=$ver"
	tmp=$(mktemp -d "$CACHE/download.XXXXXX")
	# Let apt's sandbox user write the download directory when we are root.
	[ "$(id -u)" -ne 0 ] || chown _apt "$tmp" 2> /dev/null || true
	if ! (cd "$tmp" && apt-get download -q "$pkg=$ver") > "$LOGS/$STAGE.log" 2>&1; then
		tail -n 5 "$LOGS/$STAGE.log" >&2
		rm -rf "$tmp"
		die "apt-get download $pkg=$ver failed (log: $LOGS/$STAGE.log)" \
			"check the network and apt sources, then $hint"
	fi
	got=$(find "$tmp" -name '*.deb' | awk 'NR == 1')
	if [ -z "$got" ]; then
		rm -rf "$tmp"
		die "apt-get download produced no .deb" "$hint"
	fi
	if ! echo "$sha  $got" | sha256sum --quiet -c -; then
		rm -rf "$tmp"
		die "sha256 mismatch for $(basename "$got") (expected $sha)" \
			"the download is corrupt; $hint"
	fi
	mv "$got" "$dest"
	rm -rf "$tmp"
	log "saved $dest (sha256 $sha)"
}

# install_config NEW: NEW becomes $KBUILD/.config only if it differs, so
# that a re-run does not trigger a rebuild
install_config()
{
	local new=$1

	if [ -f "$KBUILD/.config" ] && cmp -s "$KBUILD/.config" "$new"; then
		rm -f "$new"
		log "unchanged: $KBUILD/.config"
	else
		mv "$new" "$KBUILD/.config"
		log "wrote $KBUILD/.config ($(grep -c '=y$' "$KBUILD/.config") built in, $(grep -c '=m$' "$KBUILD/.config") modules)"
	fi
}
