#!/usr/bin/env bash
# Print the QEMU accelerator to use (kvm or tcg) on stdout; reasons on stderr.
# QEMU_ACCEL=auto probes: KVM only if a probe boot of the built kernel reaches
# userspace within KVM_PROBE_TIMEOUT seconds.  /dev/kvm existing is not
# enough: nested KVM here can be far slower than software emulation.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=accel

case "$QEMU_ACCEL" in
kvm | tcg)
	log "using $QEMU_ACCEL (QEMU_ACCEL=$QEMU_ACCEL)" >&2
	echo "$QEMU_ACCEL"
	exit 0
	;;
auto) ;;
*) die "QEMU_ACCEL must be auto, kvm or tcg (got '$QEMU_ACCEL')" ;;
esac

if [ ! -w /dev/kvm ]; then
	log "no usable /dev/kvm: using tcg (software emulation)" >&2
	echo tcg
	exit 0
fi

probe=$BUILD/probe
rm -rf "$probe"
mkdir -p "$probe"
start=$(date +%s)
timeout -k 5 "$KVM_PROBE_TIMEOUT" "$TOP/qemu/launch.sh" probe kvm "$probe" "$LOGS/kvm-probe.log" \
	> /dev/null 2> "$LOGS/kvm-probe.stderr" || true
secs=$(($(date +%s) - start))
if grep -q 'harness: userspace reached' "$LOGS/kvm-probe.log" 2> /dev/null; then
	log "kvm probe reached userspace in ${secs}s: using kvm" >&2
	echo kvm
else
	log "kvm probe did not reach userspace within ${KVM_PROBE_TIMEOUT}s (log: $LOGS/kvm-probe.log): using tcg" >&2
	echo tcg
fi
