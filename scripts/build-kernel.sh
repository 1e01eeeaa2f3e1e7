#!/usr/bin/env bash
# Build bzImage, vmlinux (with BTF) and modules (Module.symvers and
# scripts/module.lds are what bpf_testmod.ko needs) out of tree in $KBUILD.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin build-kernel

[ -f "$KBUILD/.config" ] || die "no $KBUILD/.config" "run 'make config' first"
need_cmd gcc build-essential
need_cmd pahole dwarves

kmake=(make -C "$TREE" O="$KBUILD" -j"$JOBS")
if [ "$USE_CCACHE" = 1 ] && command -v ccache > /dev/null; then
	kmake+=(CC="ccache gcc")
	ccache -z > /dev/null 2>&1 || true
fi

buildlog=$LOGS/build-kernel${VARIANT:+-$VARIANT}.log
log "make -j$JOBS bzImage modules (log: $buildlog)"
if ! "${kmake[@]}" bzImage modules > "$buildlog" 2>&1; then
	grep -E -m 20 '(error|Error|ERROR)[: ]' "$buildlog" >&2 || tail -n 30 "$buildlog" >&2
	die "kernel build failed (log: $buildlog)" "fix the patch that broke it; 'make bisect' finds it"
fi
grep -q 'warning:' "$buildlog" && log "$(grep -c 'warning:' "$buildlog") compiler warnings (see $buildlog)"
[ -f "$KBUILD/vmlinux" ] || die "no vmlinux after the build"
# grep -c reads all of readelf's output: with pipefail, grep -q could exit
# first and fail the pipeline through readelf's SIGPIPE.
if [ "$(readelf -S "$KBUILD/vmlinux" | grep -c '\.BTF')" -eq 0 ]; then
	die "vmlinux has no .BTF section" "check pahole (dwarves) and CONFIG_DEBUG_INFO_BTF"
fi
if [ "$USE_CCACHE" = 1 ] && command -v ccache > /dev/null; then
	log "ccache: $(ccache -s 2> /dev/null | grep -iE '^ *hits' | head -n 1 | tr -s ' ')"
fi
log "$(cd "$KBUILD" && du -h arch/x86/boot/bzImage | cut -f1) bzImage, kernel $(cat "$KBUILD/include/config/kernel.release")"
stage_end
