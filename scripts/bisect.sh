#!/usr/bin/env bash
# Apply the series one patch at a time and build after each: kernel/bpf/,
# net/core/filter.o and the object of every C file the patch touches; after
# a patch that touches the BPF selftests or libbpf, also test_progs,
# test_verifier and bpf_testmod.ko of that prefix (BISECT_SELFTESTS=0 skips
# them).  The selftests of a prefix are built against the vmlinux and
# kernel build of 'make kernel' (the whole series): vmlinux.h has every
# type, so what this catches is a test, header or libbpf change that needs
# a later patch of tools/.  Names the first patch that does not build.
# Uses its own source and object trees under $BUILD/bisect, with the
# .config of 'make config'.  BISECT_FROM=N applies patches 1 to N-1 at
# once and builds them as one, then goes on one by one from patch N
# (after a change to the last patches of the series).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin bisect

[ -f "$KBUILD/.config" ] || die "no $KBUILD/.config" "run 'make config' first"
src=$BUILD/bisect/linux
obj=$BUILD/bisect/kbuild
mkdir -p "$obj"
cp "$KBUILD/.config" "$obj/.config"
log "resetting $src to the pristine base"
sync_tree "$PRISTINE" "$src" > /dev/null
rm -rf "$src/.pc"

kmake=(make -C "$src" O="$obj" -j"$JOBS")
if [ "$USE_CCACHE" = 1 ] && command -v ccache > /dev/null; then
	kmake+=(CC="ccache gcc")
fi
blog=$LOGS/bisect-build.log
# stdin from /dev/null: a patch that adds a Kconfig symbol makes kbuild
# ask for it (syncconfig), which would read the rest of the series list
build()
{
	if ! "${kmake[@]}" "$@" > "$blog" 2>&1 < /dev/null; then
		grep -E -m 20 '(error|Error)[: ]' "$blog" >&2 || tail -n 30 "$blog" >&2
		return 1
	fi
}

bisect_selftests=${BISECT_SELFTESTS:-1}
stout=$BUILD/bisect/selftests
stlog=$LOGS/bisect-selftests.log
if [ "$bisect_selftests" = 1 ]; then
	[ -f "$KBUILD/vmlinux" ] || die "no $KBUILD/vmlinux for the selftests of each prefix" \
		"run 'make kernel' first, or BISECT_SELFTESTS=0"
	use_debian_llvm
	# objects of another run's prefixes would look up to date
	rm -rf "$stout"
	mkdir -p "$stout"
fi
build_selftests()
{
	if ! KBUILD_OUTPUT=$KBUILD make -C "$src/tools/testing/selftests/bpf" -j"$JOBS" \
		OUTPUT="$stout" VMLINUX_BTF="$KBUILD/vmlinux" \
		"$stout/test_progs" "$stout/test_verifier" "$stout/bpf_testmod.ko" \
		> "$stlog" 2>&1 < /dev/null; then
		grep -E -m 20 '(error|Error)[: ]' "$stlog" >&2 || tail -n 30 "$stlog" >&2
		return 1
	fi
}

log "base: olddefconfig, prepare, kernel/bpf/, net/core/filter.o"
build olddefconfig prepare > /dev/null ||
	die "the pristine base does not prepare (log: $blog)"
build kernel/bpf/ net/core/filter.o || die "the pristine base does not build (log: $blog)"

bisect_from=${BISECT_FROM:-1}
case "$bisect_from" in
'' | *[!0-9]* | 0) die "BISECT_FROM=$bisect_from is not a patch number (1 or more)" ;;
esac
n=0
while read -r p; do
	n=$((n + 1))
	quilt_push "$src" ||
		die "patch $n ($p) does not apply" "fix it in 'make tree', then 'make export'"
	if [ "$n" -lt "$bisect_from" ]; then
		[ "$n" = $((bisect_from - 1)) ] || continue
		log "patches 1-$n applied at once (BISECT_FROM=$bisect_from)"
		build kernel/bpf/ net/core/filter.o ||
			die "patches 1-$n do not build together (log: $blog)"
		[ "$bisect_selftests" = 1 ] && ! build_selftests &&
			die "the selftests of patches 1-$n do not build (log: $stlog)"
		continue
	fi
	targets=(kernel/bpf/ net/core/filter.o)
	selftests=""
	while read -r f; do
		case "$f" in
		tools/testing/selftests/bpf/* | tools/lib/bpf/*) selftests=" + selftests" ;;
		tools/* | Documentation/*) ;;
		*.c) targets+=("${f%.c}.o") ;;
		esac
	done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$TOP/patches/$p" | sort -u)
	[ "$bisect_selftests" = 1 ] || selftests=""
	start=$(date +%s)
	if ! build "${targets[@]}"; then
		die "first patch that does not build: $n ($p) (log: $blog)" \
			"fix it in 'make tree' (git rebase -i), then 'make export'"
	fi
	if [ -n "$selftests" ] && ! build_selftests; then
		die "first patch whose selftests do not build: $n ($p) (log: $stlog)" \
			"fix it in 'make tree' (git rebase -i), then 'make export'"
	fi
	log "ok $n $p (${#targets[@]} targets$selftests, $(fmt_secs $(($(date +%s) - start))))"
done < <(series_patches)
log "all $n patches build one by one"
stage_end
