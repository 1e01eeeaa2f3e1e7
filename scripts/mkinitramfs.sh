#!/usr/bin/env bash
# Build the guest initramfs: a static busybox and qemu/init, nothing else
# (test binaries and their libraries come from the host root over 9p).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin initramfs

busybox=$(dpkg -L busybox-static 2> /dev/null | grep -m 1 '/bin/busybox$' || true)
[ -n "$busybox" ] && [ -x "$busybox" ] ||
	die "static busybox not found" "run 'make deps' or: apt-get install busybox-static"
need_cmd cpio cpio

out=$BUILD/initramfs.cpio.gz
if [ -f "$out" ] && [ "$out" -nt "$TOP/qemu/init" ] && [ "$out" -nt "$busybox" ]; then
	log "cached: $out"
	stage_end
	exit 0
fi
root=$(mktemp -d "$BUILD/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,host}
cp "$busybox" "$root/bin/busybox"
install -m 0755 "$TOP/qemu/init" "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -9) > "$out.tmp"
mv "$out.tmp" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
stage_end
