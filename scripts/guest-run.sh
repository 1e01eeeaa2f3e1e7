#!/usr/bin/env bash
# Boot the built kernel on a prepared guest job and wait for it:
#   guest-run.sh JOBDIR SERIAL_LOG TIMEOUT_SECONDS
# JOBDIR holds guest-job.sh and its job.env; QEMU_SMP, QEMU_MEM and
# QEMU_APPEND (extra kernel parameters) apply as for qemu/launch.sh, and
# GUEST_ACCEL (kvm or tcg) if the caller already picked one.  The
# caller's STAGE names the messages.  Exit 0 when the guest job completed
# (JOBDIR/guest-done); else say why on stderr and exit 1: a hang (the
# last lines of the serial log), QEMU failing, or a guest that stopped
# before the end of its job (panic, BUG, Oops lines of the serial log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: guest-run.sh JOBDIR SERIAL_LOG TIMEOUT_SECONDS"
job=$1 serial=$2 timeout_s=$3
need_cmd qemu-system-x86_64 qemu-system-x86
[ -f "$job/guest-job.sh" ] && [ -f "$job/job.env" ] ||
	die "$job is not a guest job (no guest-job.sh or job.env)"

# GUEST_ACCEL: the accelerator a caller with several boots picked once
accel=${GUEST_ACCEL:-$("$TOP/scripts/pick-accel.sh")}
log "booting ($accel, $QEMU_SMP vCPUs, ${QEMU_MEM} MiB${QEMU_APPEND:+, $QEMU_APPEND}, timeout ${timeout_s}s; serial log: $serial)"
start=$(date +%s)
rc=0
timeout -k 10 "$timeout_s" "$TOP/qemu/launch.sh" run "$accel" "$job" "$serial" || rc=$?
log "guest ran for $(fmt_secs $(($(date +%s) - start)))"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	tail -n 20 "$serial" >&2 || true
	warn "guest did not finish within ${timeout_s}s (serial log: $serial)"
	warn "raise QEMU_TIMEOUT or look for a hang in the log"
	exit 1
fi
if [ "$rc" -ne 0 ]; then
	warn "qemu exited with $rc (serial log: $serial)"
	exit 1
fi
if [ ! -f "$job/guest-done" ]; then
	grep -E 'Kernel panic|BUG:|Oops|harness:' "$serial" | tail -n 10 >&2 || true
	warn "the guest job did not complete (serial log: $serial)"
	exit 1
fi
