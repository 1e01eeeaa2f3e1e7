#!/usr/bin/env bash
# make test-distro: download Debian's own amd64 kernel image package of
# DISTRO_DEB_VERSION (the pinned base version by default), check its SHA256
# against apt's (signed) index, and keep its /boot/config-* as
# $CACHE/config-<package>_<version>: the configuration Debian 12 users run.
# The package is linux-image-6.1.0-<abi>-amd64-unsigned (the same kernel as
# the signed one, without the signature wrapper).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin fetch-distro-config

need_cmd dpkg-deb dpkg
ver=$DISTRO_DEB_VERSION
[ "$ver" = pin ] && ver=$KERNEL_DEB_VERSION
pattern='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$'
mkdir -p "$CACHE"

# image_packages: the package names apt knows that match $pattern
image_packages()
{
	apt-cache search --names-only "$pattern" 2> /dev/null | awk '{ print $1 }' | sort -V
}
find_package()
{
	local p

	for p in $(image_packages); do
		# grep -c reads all: with pipefail, -q could fail apt-cache with SIGPIPE
		if apt-cache show "$p=$ver" 2> /dev/null | grep -c "^Package: " > /dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

pkg=$(find_package || true)
if [ -z "$pkg" ]; then
	apt-get update -qq > /dev/null 2>&1 || true
	pkg=$(find_package || true)
fi
if [ -z "$pkg" ]; then
	offered=$(for p in $(image_packages); do
			apt-cache madison "$p" 2> /dev/null | awk -F'|' '{ gsub(/ /, ""); print $2 }'
		done | sort -uV | tr '\n' ' ')
	die "no Debian amd64 kernel image of version $ver in the apt archive (offered: ${offered:-none})" \
		"run with DISTRO_DEB_VERSION=<one offered>, or move the pin (make rebase)"
fi
expected=$(apt-cache show "$pkg=$ver" | sed -n 's/^SHA256: //p' | awk 'NR == 1')
[ -n "$expected" ] || die "apt gives no SHA256 for $pkg=$ver" "run apt-get update"

deb=$CACHE/${pkg}_${ver}_amd64.deb
config=$CACHE/config-${pkg}_$ver
# a new download gets its config extracted again
[ -f "$deb" ] && echo "$expected  $deb" | sha256sum --quiet -c - 2> /dev/null || rm -f "$config"
fetch_deb "$pkg" "$ver" "$expected" "$deb" "run 'make test-distro' again"

if [ ! -s "$config" ]; then
	member=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | grep -E '^\./boot/config-' | awk 'NR == 1')
	[ -n "$member" ] || die "$deb holds no /boot/config-*" "is $pkg a kernel image package?"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$member" > "$config.part"
	mv "$config.part" "$config"
fi
ln -sfn "$(basename "$config")" "$CACHE/config-distro"
log "Debian's config: $config ($(grep -c '=y$' "$config") built in, $(grep -c '=m$' "$config") modules)"
stage_end
