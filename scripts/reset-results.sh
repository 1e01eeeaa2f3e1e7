#!/usr/bin/env bash
# Start a new run: forget the checks and stage timings of the previous one,
# so the summary counts only what this run did.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rm -rf "$RESULTS"
mkdir -p "$RESULTS" "$LOGS"
: > "$TIMINGS"
