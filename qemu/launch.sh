#!/usr/bin/env bash
# Start the guest: qemu/launch.sh MODE ACCEL JOBDIR [SERIAL_LOG]
#   MODE    probe (reach userspace, power off), run (guest-job.sh), shell
#   ACCEL   kvm or tcg
#   JOBDIR  host directory shared read-write with the guest
# The host root and the selftests are shared read-only, JOBDIR read-write;
# nothing is loaded into the host kernel.
# Without SERIAL_LOG the console is on this terminal (for 'make vm').
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

mode=$1 accel=$2 job=$3 serial=${4:-}
bzimage=$KBUILD/arch/x86/boot/bzImage
initrd=$BUILD/initramfs.cpio.gz
[ -f "$bzimage" ] || die "no $bzimage" "run 'make kernel' first"
[ -f "$initrd" ] || die "no $initrd" "run 'make initramfs' first"

mkdir -p "$STOUT"

case "$accel" in
kvm) cpu=host ;;
tcg) cpu=max ;;
*) die "unknown accelerator '$accel'" "use QEMU_ACCEL=auto, kvm or tcg" ;;
esac

args=(
	-accel "$accel" -cpu "$cpu" -smp "$QEMU_SMP" -m "$QEMU_MEM"
	-nodefaults -no-reboot -display none
	-kernel "$bzimage" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 harness.mode=$mode harness.job=$job harness.selftests=$STOUT"
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$STOUT,mount_tag=selftests,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$job,mount_tag=job,security_model=none,multidevs=remap"
)
if [ -n "$serial" ]; then
	args+=(-serial "file:$serial")
else
	args+=(-serial mon:stdio)
fi
exec qemu-system-x86_64 "${args[@]}"
