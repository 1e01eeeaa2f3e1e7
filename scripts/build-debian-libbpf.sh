#!/usr/bin/env bash
# Build the Debian-libbpf test of selftests/debian-libbpf: an object written
# for upstream Linux's API, compiled with Debian's clang against the
# system's libbpf headers and the built kernel's vmlinux.h, and a loader
# linked against the system's libbpf (libbpf-dev): no header, library or
# skeleton of the series.  Into $STOUT/debian-libbpf, which the guest sees.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin build-debian-libbpf

pkg-config --exists libbpf || die "the system's libbpf (libbpf-dev) is missing" "run 'make deps'"
vmlinux_h=$STOUT/tools/include/vmlinux.h
[ -f "$vmlinux_h" ] || die "no $vmlinux_h" "run 'make selftests' first"
use_debian_llvm

src=$TOP/selftests/debian-libbpf
out=$STOUT/debian-libbpf
mkdir -p "$out"
# shellcheck disable=SC2046 # pkg-config prints several words
clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -I"$(dirname "$vmlinux_h")" \
	$(pkg-config --cflags libbpf) -c "$src/upstream_queue.bpf.c" -o "$out/upstream_queue.bpf.o" ||
	die "cannot compile $src/upstream_queue.bpf.c"
# shellcheck disable=SC2046
gcc -O2 -Wall -Werror "$src/loader.c" -o "$out/loader" $(pkg-config --cflags --libs libbpf) ||
	die "cannot build $src/loader.c"
log "libbpf $(pkg-config --modversion libbpf): ${out#"$TOP"/}/loader, upstream_queue.bpf.o"
stage_end
