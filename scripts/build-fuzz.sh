#!/usr/bin/env bash
# Build the differential fuzzer (fuzz/) for the guest: a host binary the
# guest runs from the host root it mounts.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage_begin build-fuzz

need_cmd gcc gcc
mkdir -p "$BUILD/fuzz"
make -s -C "$TOP/fuzz" OUT="$BUILD/fuzz" > "$LOGS/build-fuzz.log" 2>&1 ||
	{ tail -n 20 "$LOGS/build-fuzz.log" >&2; die "the fuzzer does not build (log: $LOGS/build-fuzz.log)"; }
# the generator and the model alone, no kernel: a quick sanity figure
log "$("$BUILD/fuzz/bpf_fuzz" model "$FUZZ_SEED" 1000)"
stage_end
