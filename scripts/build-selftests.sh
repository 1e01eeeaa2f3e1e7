#!/usr/bin/env bash
# Build the BPF selftests the guest runs: test_progs (with bpf_testmod.ko and
# every BPF object it loads) and test_verifier, against the freshly built
# vmlinux, with Debian clang/LLVM and the tree's own libbpf and bpftool;
# then the Debian-libbpf loader test (build-debian-libbpf.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin build-selftests

[ -f "$KBUILD/vmlinux" ] || die "no $KBUILD/vmlinux" "run 'make kernel' first"
use_debian_llvm

mkdir -p "$STOUT"
# The selftests Makefile rebuilds bpf_testmod.ko when vmlinux changes, not
# when only the symbol versions do (a header of an exported symbol's types
# changed, vmlinux relinked earlier): the module would not load.
if [ -f "$STOUT/bpf_testmod.ko" ] && [ "$KBUILD/Module.symvers" -nt "$STOUT/bpf_testmod.ko" ]; then
	log "Module.symvers changed: rebuilding bpf_testmod.ko"
	rm -f "$STOUT/bpf_testmod.ko"
fi
targets=("$STOUT/test_progs" "$STOUT/test_verifier" "$STOUT/bpf_testmod.ko")
# make bench: the benchmark runner and veristat too
[ "${BUILD_BENCH:-0}" = 1 ] && targets+=("$STOUT/bench" "$STOUT/veristat")
# make regress: veristat (pristine variant: it runs over those objects)
[ "${BUILD_VERISTAT:-0}" = 1 ] && targets+=("$STOUT/veristat")
buildlog=$LOGS/build-selftests${VARIANT:+-$VARIANT}.log
log "clang $(clang --version | sed -n 's/.*clang version \([^ ]*\).*/\1/p' | head -n 1): ${targets[*]##*/} (log: $buildlog)"
# KBUILD_OUTPUT: bpf_testmod.ko is built against the O= kernel build.
if ! KBUILD_OUTPUT=$KBUILD make -C "$TREE/tools/testing/selftests/bpf" -j"$JOBS" \
	OUTPUT="$STOUT" VMLINUX_BTF="$KBUILD/vmlinux" \
	"${targets[@]}" > "$buildlog" 2>&1; then
	grep -E -m 20 '(error|Error)[: ]' "$buildlog" >&2 || tail -n 30 "$buildlog" >&2
	die "selftests build failed (log: $buildlog)"
fi
for t in "${targets[@]}"; do
	[ -f "$t" ] || die "$t was not built (log: $buildlog)"
done
log "$(find "$STOUT" -maxdepth 1 -name '*.bpf.o' | wc -l) BPF objects"
stage_end
# the loader test with the system's libbpf (tests.list: debian_libbpf); a
# prefix of the series before the lists (make prefix-test) and the
# pristine base (make regress, which does not run it) have nothing for it
# to load
if [ "$VARIANT" = pristine ]; then
	log "pristine base: the Debian-libbpf loader test is not built"
elif [ "$VARIANT" = prefix ] &&
   ! grep -q '^struct bpf_list_head {' "$STOUT/tools/include/vmlinux.h" 2>/dev/null; then
	log "no bpf_list_head in this kernel: the Debian-libbpf loader test is not built"
else
	"$TOP/scripts/build-debian-libbpf.sh"
fi
