#!/usr/bin/env bash
# Install the Debian packages the harness needs, only those missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin deps

packages=(
	build-essential bc bison flex cpio kmod rsync pkg-config	# kernel build
	xz-utils openssl						# unpack, module signing key
	libelf-dev libssl-dev dwarves					# BTF (pahole)
	"clang-$LLVM_VERSION" "llvm-$LLVM_VERSION" "lld-$LLVM_VERSION"	# BPF programs
	libcap-dev zlib1g-dev libzstd-dev python3-docutils		# selftests
	libbpf-dev							# Debian-libbpf loader test
	quilt ccache git						# series
	qemu-system-x86 busybox-static					# guest
	iproute2 ethtool iptables					# guest: xdp_synproxy
	linux-perf							# make bench: profiles
)

missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f '${Status}' "$pkg" 2> /dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
	log "all ${#packages[@]} packages present"
	stage_end
	exit 0
fi

log "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	die "missing packages and not root" \
		"as root run: apt-get install ${missing[*]}"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq ||
	die "apt-get update failed" "check /etc/apt/sources.list and the network"
apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$LOGS/apt-install.log" 2>&1 ||
	die "apt-get install failed (log: $LOGS/apt-install.log)" \
		"install by hand: apt-get install ${missing[*]}"
stage_end
