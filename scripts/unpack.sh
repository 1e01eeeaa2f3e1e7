#!/usr/bin/env bash
# Unpack the fetched linux-source .deb into the pristine tree, once.  A tree
# left half-unpacked (interrupted, disk full) has no stamp and is redone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin unpack

deb=$CACHE/linux-source-6.1_${KERNEL_DEB_VERSION}_all.deb
stamp=$PRISTINE/.harness-unpacked
[ -f "$deb" ] || die "$deb missing" "run 'make fetch' first"
want=$(sha256sum "$deb" | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	log "cached: $PRISTINE"
	stage_end
	exit 0
fi

if [ -e "$PRISTINE" ]; then
	warn "$PRISTINE is incomplete or from another .deb; unpacking again"
	rm -rf "$PRISTINE"
fi
tmp=$PRISTINE.partial
rm -rf "$tmp"
mkdir -p "$tmp"
log "unpacking $(basename "$deb")"
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -C "$tmp" ./usr/src/linux-source-6.1.tar.xz ||
	die "cannot extract the tarball from $deb" "check free space (df -h $BUILD), then 'make unpack'"
tar -xf "$tmp/usr/src/linux-source-6.1.tar.xz" -C "$tmp" ||
	die "cannot unpack linux-source-6.1.tar.xz" "check free space (df -h $BUILD), then 'make unpack'"
[ -f "$tmp/linux-source-6.1/Makefile" ] || die "unexpected tarball layout in $deb"
mv "$tmp/linux-source-6.1" "$PRISTINE"
rm -rf "$tmp"
echo "$want" > "$stamp"
log "pristine tree: $PRISTINE ($(sed -n 's/^SUBLEVEL = //p' "$PRISTINE/Makefile" | sed 's/^/6.1./'))"
stage_end
