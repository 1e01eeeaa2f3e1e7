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

fetch_deb "$pkg" "$KERNEL_DEB_VERSION" "$expected" "$deb" "run 'make fetch'"
stage_end
