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

cmdline="console=ttyS0 panic=-1 harness.mode=$mode harness.job=$job harness.selftests=$STOUT"
# The debug kernel (KASAN, lockdep) under TCG runs tens of times slower
# than on hardware: boot alone (ACPI) can keep a vCPU busy past the
# default 21 s RCU stall timeout.  Allow the maximum, 300 s, so that a
# stall report still means a real lockup.
if [ "$VARIANT" = debug ] && [ "$accel" = tcg ]; then
	cmdline+=" rcupdate.rcu_cpu_stall_timeout=300"
fi

# extra kernel parameters
[ -n "${QEMU_APPEND:-}" ] && cmdline+=" $QEMU_APPEND"

args=(
	-accel "$accel" -cpu "$cpu" -smp "$QEMU_SMP" -m "$QEMU_MEM"
	-nodefaults -no-reboot -display none
	-kernel "$bzimage" -initrd "$initrd"
	-append "$cmdline"
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
