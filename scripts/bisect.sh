#!/usr/bin/env bash
# Apply the series one patch at a time and build after each: kernel/bpf/,
# net/core/filter.o and the object of every C file the patch touches
# (selftests under tools/ are built by 'make selftests' for the whole
# series).  Names the first patch that does not build.  Uses its own source
# and object trees under $BUILD/bisect, with the .config of 'make config'.
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

log "base: olddefconfig, prepare, kernel/bpf/, net/core/filter.o"
build olddefconfig prepare > /dev/null ||
	die "the pristine base does not prepare (log: $blog)"
build kernel/bpf/ net/core/filter.o || die "the pristine base does not build (log: $blog)"

n=0
while read -r p; do
	n=$((n + 1))
	quilt_push "$src" ||
		die "patch $n ($p) does not apply" "fix it in 'make tree', then 'make export'"
	targets=(kernel/bpf/ net/core/filter.o)
	while read -r f; do
		case "$f" in
		tools/* | Documentation/*) ;;
		*.c) targets+=("${f%.c}.o") ;;
		esac
	done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$TOP/patches/$p" | sort -u)
	start=$(date +%s)
	if ! build "${targets[@]}"; then
		die "first patch that does not build: $n ($p) (log: $blog)" \
			"fix it in 'make tree' (git rebase -i), then 'make export'"
	fi
	log "ok $n $p (${#targets[@]} targets, $(fmt_secs $(($(date +%s) - start))))"
done < <(series_patches)
log "all $n patches build one by one"
stage_end
