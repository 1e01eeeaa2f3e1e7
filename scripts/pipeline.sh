#!/usr/bin/env bash
# The main job: run the stages in order, stop at the first one that fails
# (counted as a failure), then print the summary.
#   pipeline.sh run    fetch .. run-tests          ('make')
#   pipeline.sh test   the same plus series hygiene ('make test')
set -euo pipefail
. "$(dirname "$0")/lib.sh"

what=${1:-run}
rm -rf "$BUILD/results"
mkdir -p "$BUILD/results" "$LOGS"
: > "$TIMINGS"

stages=(install-deps fetch unpack apply)
[ "$what" = test ] && stages+=(hygiene)
stages+=(config build-kernel build-selftests mkinitramfs run-tests)

for s in "${stages[@]}"; do
	if ! "$TOP/scripts/$s.sh"; then
		echo "FAIL stage $s: see the messages above and $LOGS" >> "$BUILD/results/stages.res"
		break
	fi
done
exec "$TOP/scripts/summary.sh"
