#!/usr/bin/env bash
# Download linux-source-6.1 at the pinned version and check its SHA256
# against the one apt's (signed) package index gives.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin fetch

pkg=linux-source-6.1
deb=$CACHE/${pkg}_${KERNEL_DEB_VERSION}_all.deb
mkdir -p "$CACHE"

expected=$(apt-cache show "$pkg=$KERNEL_DEB_VERSION" 2> /dev/null |
	sed -n 's/^SHA256: //p' | awk 'NR == 1' || true)
if [ -z "$expected" ]; then
	apt-get update -qq > /dev/null 2>&1 || true
	expected=$(apt-cache show "$pkg=$KERNEL_DEB_VERSION" 2> /dev/null |
		sed -n 's/^SHA256: //p' | awk 'NR == 1' || true)
fi
if [ -z "$expected" ]; then
	offered=$(apt-cache madison "$pkg" 2> /dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
		tr '\n' ' ')
	die "$pkg=$KERNEL_DEB_VERSION is not in the apt archive (offered: ${offered:-none})" \
		"pick one and run: make KERNEL_DEB_VERSION=<version>, or change it in settings.mk"
fi

if [ -f "$deb" ] && echo "$expected  $deb" | sha256sum --quiet -c - 2> /dev/null; then
	log "cached: $deb (sha256 ok)"
	stage_end
	exit 0
fi

rm -f "$deb" "$deb.part"
log "downloading $pkg=$KERNEL_DEB_VERSION"
tmp=$(mktemp -d "$CACHE/download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Let apt's sandbox user write the download directory when we are root.
[ "$(id -u)" -ne 0 ] || chown _apt "$tmp" 2> /dev/null || true
if ! (cd "$tmp" && apt-get download -q "$pkg=$KERNEL_DEB_VERSION") > "$LOGS/fetch.log" 2>&1; then
	tail -n 5 "$LOGS/fetch.log" >&2
	die "apt-get download $pkg=$KERNEL_DEB_VERSION failed (log: $LOGS/fetch.log)" \
		"check the network and apt sources, then 'make fetch'"
fi
got=$(find "$tmp" -name '*.deb' | awk 'NR == 1')
[ -n "$got" ] || die "apt-get download produced no .deb" "rerun 'make fetch'"
if ! echo "$expected  $got" | sha256sum --quiet -c -; then
	die "sha256 mismatch for $(basename "$got") (expected $expected)" \
		"the download is corrupt; rerun 'make fetch'"
fi
mv "$got" "$deb"
log "saved $deb (sha256 $expected)"
stage_end
